"""A scored sim run of the canonical N1 packet, made once per session (read only)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
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


@pytest.fixture(scope="session")
def n3_pair(
    tmp_path_factory: pytest.TempPathFactory, fresh_packet_dir: Callable[[str, int], Path]
) -> Path:
    """Two scored `typical` sim runs: cal/ of the canonical N3-000001 (the calibration set)
    and held/ of a fresh N3-000002 (held back: treated as if it had no truth)."""
    world = tmp_path_factory.mktemp("calibrate")
    for name, packet in (("cal", PACKETS / "N3-000001"), ("held", fresh_packet_dir("N3", 2))):
        shutil.copytree(packet, world / f"{name}-packets" / packet.name)
        extract(SimProvider("typical", 1), world / f"{name}-packets", world / name)
        score_run(world / name, world / f"{name}-packets")
        load_run(world / name, world / f"{name}-packets")
    return world
