"""Running `packetbench audit` and reading its JSON."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., subprocess.CompletedProcess[str]]


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def audit_json(
    run_cli: Run, *paths: Path, ocr: bool = False, env: dict[str, str] | None = None
) -> tuple[int, dict[str, Any]]:
    """(exit code, parsed --json output) of the real command."""
    args = ["audit", *(a for p in paths for a in ("--packets", str(p))), "--json"]
    args += ["--ocr"] if ocr else []
    result = run_cli(*args, env=env)
    assert result.returncode in (0, 1, 3), result.stderr
    return result.returncode, json.loads(result.stdout)


def findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        f
        for packet in report["packets"]
        for f in [*(g for d in packet["documents"] for g in d["findings"]), *packet["findings"]]
    ]
