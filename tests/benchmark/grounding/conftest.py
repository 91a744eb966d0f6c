"""A cited sim run and a run without citations of one canonical packet, scored (built once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.paths import PACKETS

PACKET = PACKETS / "N1-000001"


@pytest.fixture(scope="module")
def cited_and_plain(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("grounding")
    made = []
    for name, cite in (("cited", "box"), ("plain", None)):
        folder = root / name
        extract(SimProvider("typical", 1, cite=cite), PACKET, folder)
        score_run(folder, PACKET)
        load_run(folder, PACKET)
        made.append(folder)
    return made[0], made[1]
