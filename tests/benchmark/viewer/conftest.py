"""Scored sim runs of one canonical packet for the viewer, made once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.paths import PACKETS


@pytest.fixture(scope="session")
def viewer_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(packets, a sloppy run, a typical run) of the canonical N3 packet (PDFs with scans,
    a redaction and hidden text; workbooks; CSV exports), both scored."""
    root = tmp_path_factory.mktemp("viewer")
    packets = root / "packets"
    packets.mkdir()
    (packets / "N3-000001").symlink_to(PACKETS / "N3-000001")
    runs = []
    for profile, seed in (("sloppy", 1), ("typical", 2)):
        folder = root / f"{profile}-{seed}"
        extract(SimProvider(profile, seed), packets, folder)
        score_run(folder, packets)
        load_run(folder, packets)
        runs.append(folder)
    return packets, runs[0], runs[1]
