"""A scored sim run of the canonical N1 packet, made once per session (read only)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.paths import PACKETS


@pytest.fixture(scope="session")
def scored_n1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding packets/N1-000001 and run/, a scored `sloppy` sim run of it."""
    world = tmp_path_factory.mktemp("verify")
    shutil.copytree(PACKETS / "N1-000001", world / "packets" / "N1-000001")
    extract(SimProvider("sloppy", 3), world / "packets", world / "run")
    score_run(world / "run", world / "packets")
    load_run(world / "run", world / "packets")
    return world
