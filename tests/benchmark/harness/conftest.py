"""Three fresh packets, once per session (the stub servers: tests/benchmark/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.packets import write_packets


@pytest.fixture(scope="session")
def three_packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of three N1 packets (seeds 1-3); `documents` counts what they hold."""
    return write_packets(tmp_path_factory.mktemp("three") / "packets", "N1", (1, 2, 3))
