"""Scored sim runs over the canonical suite (all five tiers), made once per session, and stub
servers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.harness.stub import Faults, StubServer
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.paths import PACKETS
from tests.support.runs import ScoredRun


@pytest.fixture(scope="session")
def scored_run(tmp_path_factory: pytest.TempPathFactory) -> ScoredRun:
    """A run folder of sim `profile` with `seed` over the canonical packets, scored and loaded
    into its results.duckdb (as `packetbench score` does). Named <profile>-<seed>."""
    root = tmp_path_factory.mktemp("runs")
    cache: dict[tuple[str, int], Path] = {}

    def make(profile: str, seed: int) -> Path:
        if (profile, seed) not in cache:
            folder = root / f"{profile}-{seed}"
            extract(SimProvider(profile, seed), PACKETS, folder)
            score_run(folder, PACKETS)
            load_run(folder, PACKETS)
            cache[(profile, seed)] = folder
        return cache[(profile, seed)]

    return make


@pytest.fixture
def stub() -> Iterator[Callable[..., StubServer]]:
    """Start stub servers (stopped at teardown): stub(api, packets, faults, **options)."""
    started: list[StubServer] = []

    def make(api: str, packets: Path, faults: Faults | None = None, **options: Any) -> StubServer:
        server = StubServer(api, packets, faults, **options).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()
