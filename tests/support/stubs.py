"""API keys of the stub servers' providers, and what a run against them wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packetbench.benchmark.records import read_record

if TYPE_CHECKING:
    from packetbench.benchmark.harness.stub import StubServer

KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY"}


APIS = tuple(KEYS)


def extract_args(
    server: StubServer, packets: Path, run: Path, *extra: str, api: str = "openai"
) -> list[str]:
    """The words of `packetbench extract` against a stub server: the provider `api`, its
    stub model and the server's address, the packets and the run folder, then `extra`."""
    return [
        "extract",
        "--provider",
        api,
        "--model",
        "stub-model",
        "--base-url",
        server.base_url,
        "--packets",
        str(packets),
        "--out",
        str(run),
        *extra,
    ]


def documents(packets: Path) -> int:
    """How many documents the packets of a folder hold, from their packet truths."""
    return sum(
        len(json.loads((folder / "packet_truth.json").read_text())["documents"])
        for folder in packets.iterdir()
        if folder.is_dir()
    )


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
