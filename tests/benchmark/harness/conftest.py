"""Shared fixtures: three fresh packets, stub servers on 127.0.0.1, API keys in the env."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.harness.stub import Faults, StubServer
from tests.support.packets import write_packets


@pytest.fixture(scope="session")
def three_packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of three N1 packets (seeds 1-3); `documents` counts what they hold."""
    return write_packets(tmp_path_factory.mktemp("three") / "packets", "N1", (1, 2, 3))


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
