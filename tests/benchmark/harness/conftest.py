"""Shared fixtures: three fresh packets, stub servers on 127.0.0.1, API keys in the env."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.harness.stub import FaultPlan, StubServer
from packetbench.benchmark.runs import read_record
from packetbench.generator.packet import build_packet, packet_id
from packetbench.generator.tiers import resolve

KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY"}
FAMILIES = tuple(KEYS)


@pytest.fixture(scope="session")
def three_packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of three N1 packets (seeds 1-3); `documents` counts what they hold."""
    root = tmp_path_factory.mktemp("three") / "packets"
    for seed in (1, 2, 3):
        built = build_packet("N1", seed, resolve("N1"))
        folder = root / packet_id("N1", seed)
        folder.mkdir(parents=True)
        for name, data in built.files.items():
            (folder / name).write_bytes(data)
    return root


def documents(packets: Path) -> int:
    """How many documents the packets of a folder hold, from their packet truths."""
    return sum(
        len(json.loads((folder / "packet_truth.json").read_text())["documents"])
        for folder in packets.iterdir()
        if folder.is_dir()
    )


@pytest.fixture
def stub() -> Iterator[Callable[..., StubServer]]:
    """Start stub servers (stopped at teardown): stub(family, packets, faults, **options)."""
    started: list[StubServer] = []

    def make(
        family: str, packets: Path, faults: FaultPlan | None = None, **options: Any
    ) -> StubServer:
        server = StubServer(family, packets, faults, **options).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def records(run: Path) -> dict[str, dict[str, Any]]:
    """'packet_id/doc_id' -> record (validated as an ExtractionRecord, returned as JSON)."""
    found = {}
    for path in sorted((run / "extractions").glob("*/*.json")):
        record = read_record(path)
        found[f"{record.packet_id}/{record.doc_id}"] = json.loads(path.read_text())
    return found


def log(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "requests.jsonl").read_text().splitlines()]


def truth(packets: Path, document: str) -> Any:
    packet, doc = document.split("/")
    return json.loads((packets / packet / f"document_truth_{doc}.json").read_text())["truth"]
