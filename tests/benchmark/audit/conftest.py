"""Fixtures for the audit tests: a private copy of a canonical packet to tamper with."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PACKETS

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def packet(tmp_path: Path) -> Path:
    """A writable copy of the canonical N1 packet."""
    return Path(shutil.copytree(PACKETS / "N1-000001", tmp_path / "N1-000001"))


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def audit_json(
    run_cli: Run, *paths: Path, ocr: bool = False, env: dict[str, str] | None = None
) -> tuple[int, dict[str, Any]]:
    """(exit code, parsed --json output) of the real command."""
    args = ["audit", *map(str, paths), "--json", *(["--ocr"] if ocr else [])]
    result = run_cli(*args, env=env)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)


def findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        f
        for packet in report["packets"]
        for f in [*(g for d in packet["documents"] for g in d["findings"]), *packet["findings"]]
    ]
