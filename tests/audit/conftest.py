"""Fixtures for the audit tests: a private copy of a canonical packet to tamper with."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.paths import PACKETS


@pytest.fixture
def packet(tmp_path: Path) -> Path:
    """A writable copy of the canonical N1 packet."""
    return Path(shutil.copytree(PACKETS / "N1-000001", tmp_path / "N1-000001"))
