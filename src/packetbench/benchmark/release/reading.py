"""The few ways releases, exports and leaderboards read packets and run folders.

Everything of a packet or a run that this package uses is read here and nowhere else, so that
a change in how the benchmark models its files (typed run.json, typed packet files) is a
change of this module alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.core import ids
from packetbench.core.errors import BadInput
from packetbench.core.packet_files import read_json


@dataclass(frozen=True)
class PacketDoc:
    """One document of a packet, as packet_truth.json lists it."""

    doc_id: str
    doc_type: str
    format: str
    file: str
    schema: str


@dataclass(frozen=True)
class PacketInfo:
    packet_id: str
    tier: str
    seed: int
    generator_version: str
    documents: tuple[PacketDoc, ...]


def packet_info(folder: Path) -> PacketInfo:
    """packet_truth.json of the packet in `folder`, its ids checked."""
    from packetbench.truth.packets import load_packet

    packet = load_packet(folder)
    return PacketInfo(
        packet.packet_id,
        packet.tier,
        packet.seed,
        str(packet.generator_version),
        tuple(
            PacketDoc(d.doc_id, d.doc_type, d.format, d.file, d.schema) for d in packet.documents
        ),
    )


def document_truth(folder: Path, doc_id: str) -> dict[str, Any]:
    """The `truth` object of a document (document_truth_<doc_id>.json)."""
    path = folder / f"document_truth_{doc_id}.json"
    data = read_json(path)
    truth = data.get("truth") if isinstance(data, dict) else None
    if not isinstance(truth, dict):
        raise BadInput(f"{path}: no truth object")
    return truth


def manifest(folder: Path, doc_id: str) -> dict[str, Any]:
    path = folder / f"manifest_{doc_id}.json"
    data = read_json(path)
    if not isinstance(data, dict):
        raise BadInput(f"{path}: not a manifest (not a JSON object)")
    return data


def pages(folder: Path, doc: PacketDoc) -> int:
    """The pages a document counts as in cost per page: a PDF's pages (its manifest), one for
    a workbook or a CSV file (sent as text, whatever its sheets)."""
    if doc.format != "pdf":
        return 1
    found = manifest(folder, doc.doc_id).get("pages")
    if not isinstance(found, int) or isinstance(found, bool) or found < 1:
        raise BadInput(f"{folder / f'manifest_{doc.doc_id}.json'}: pages: not a page count")
    return found


def pattern_ids(folder: Path, doc_id: str) -> list[str]:
    """The ids of the presentation patterns applied to a document, sorted, each once."""
    applied = manifest(folder, doc_id).get("patterns_applied") or []
    found = {
        str(entry.get("id"))
        for entry in applied
        if isinstance(entry, dict) and isinstance(entry.get("id"), str)
    }
    return sorted(found)


@dataclass(frozen=True)
class RunPacket:
    """What a run (or an inspect_ai log) says it read of one packet."""

    packet_id: str
    packet_truth_sha256: str
    documents: dict[str, dict[str, str]]  # doc_id -> kind (file, document_truth...) -> sha256


@dataclass(frozen=True)
class ReleaseRun:
    folder: Path
    run_id: str
    label: str
    provider: str
    model: str
    reasoning: str
    simulator: bool
    imported: bool
    batch: bool
    packets: tuple[RunPacket, ...]
    # the resolution its pages reached the model at (run.json `delivery`); None: the file's own
    delivered_dpi: int | None = None
    delivered_assumed: bool = False  # the provider's documented size, not rendered by us


def _run_packets(entries: Any, where: Path) -> tuple[RunPacket, ...]:
    if not isinstance(entries, list) or not entries:
        raise BadInput(f"{where}: lists no packets with their sha256 (not a run of packets)")
    found: list[RunPacket] = []
    for index, entry in enumerate(entries):
        hashes = entry.get("sha256") if isinstance(entry, dict) else None
        truth = entry.get("packet_truth_sha256") if isinstance(entry, dict) else None
        if not isinstance(hashes, dict) or not isinstance(truth, str):
            raise BadInput(
                f"{where}: packets[{index}] records no sha256 of what was read (written by an "
                "older packetbench, or damaged)"
            )
        documents: dict[str, dict[str, str]] = {}
        for doc_id, kinds in hashes.items():
            ids.check(doc_id, f"packets[{index}].sha256", where)
            if not isinstance(kinds, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in kinds.items()
            ):
                raise BadInput(f"{where}: packets[{index}].sha256.{doc_id}: not sha256s by kind")
            documents[doc_id] = dict(kinds)
        packet_id = ids.check(entry.get("packet_id"), f"packets[{index}].packet_id", where)
        found.append(RunPacket(packet_id, truth, documents))
    return tuple(found)


def run_info(run: Path) -> ReleaseRun:
    """run.json of the run folder `run`, read defensively (benchmark.runs.read_run)."""
    from packetbench.benchmark import delivery
    from packetbench.benchmark.runs import RUN_FILE, read_run

    info = read_run(run)
    where = run / RUN_FILE
    sent = delivery.of_run(info)
    pricing = info.pricing or {}
    return ReleaseRun(
        folder=run,
        run_id=info.run_id or run.name,
        label=info.label or info.run_id or run.name,
        provider=info.provider or "?",
        model=info.model or "?",
        reasoning=info.reasoning or "default",
        simulator=info.simulator,
        imported=info.imported_from is not None or info.inspect is not None,
        batch=bool(pricing.get("batch")),
        packets=_run_packets(
            None if info.packets is None else [entry.to_json() for entry in info.packets], where
        ),
        delivered_dpi=None if sent is None else sent.dpi,
        delivered_assumed=sent is not None and sent.source == "assumed",
    )


def log_packets(log: Path) -> tuple[str, tuple[RunPacket, ...]]:
    """(model, packets read) of an inspect_ai log of `packetbench/extract`: the packets its
    task listed, cut to the documents it has a sample of."""
    from packetbench.integrations.inspect.listing import log_listing

    try:
        model, entries, asked = log_listing(log)
    except ImportError as error:
        raise BadInput(
            f"{log}: reading an inspect log needs inspect_ai ({error}); pip install "
            "'packetbench[inspect]'"
        ) from None
    listed = _run_packets(entries, log)
    cut = tuple(
        RunPacket(
            p.packet_id,
            p.packet_truth_sha256,
            {d: h for d, h in p.documents.items() if d in asked.get(p.packet_id, set())},
        )
        for p in listed
        if p.packet_id in asked
    )
    return model, cut
