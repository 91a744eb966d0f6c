"""An inspect_ai log of ``packetbench/extract`` as a packetbench run folder.

Every sample's answer becomes the document's extraction record, judged as the harness judges
an answer (`records`), so `packetbench score`, `report`, `compare` and `view` read the run as
one `packetbench extract` wrote. run.json records the log it came from and lists the documents
the log asked about with the sha256s the task recorded when it built its samples; the packets
given must be those (checked here, and again by `score`). Nothing is written until the whole
log has been read and checked.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from packetbench import __version__
from packetbench.benchmark import provenance
from packetbench.benchmark.providers import pricing
from packetbench.benchmark.records import ExtractionRecord, write_record
from packetbench.benchmark.run_folder import git, prepare_run
from packetbench.benchmark.runs import RunInfo, write_run
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.locking import hold
from packetbench.core.versions import versions
from packetbench.integrations.inspect.documents import packets_of
from packetbench.integrations.inspect.records import answer_of, record
from packetbench.truth.packets import DocInfo, Packet

TASK = "packetbench/extract"


@dataclass(frozen=True)
class Imported:
    run: Path
    documents: int
    by_status: dict[str, int]
    model: str


def _read(log: Path) -> Any:
    from inspect_ai.log import read_eval_log

    if not log.is_file():
        raise BadInput(f"{log}: {'is a folder' if log.is_dir() else 'missing'}, not an inspect log")
    try:
        return read_eval_log(str(log), resolve_attachments=True)
    except Exception as error:  # inspect_ai raises many kinds on a file that is not a log
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise BadInput(f"{log}: not a readable inspect log ({first})") from None


def _model_name(model: str) -> str:
    """The model's own name, without inspect_ai's provider prefix (for the pricing table)."""
    return model.split("/", 1)[1] if "/" in model else model


def import_log(
    log: Path, packets_dir: Path, out: Path, force: bool = False, progress: bool = False
) -> Imported:
    """Write the run folder `out` from the inspect log `log` of the packets in `packets_dir`
    (`progress`: a bar on a terminal while the samples are judged)."""
    from packetbench.core import progress as bars

    evaluation = _read(log)
    spec = evaluation.eval
    if spec.task != TASK:
        raise BadInput(f"{log}: a log of task {spec.task!r}, not of {TASK}")
    meta = (spec.metadata or {}).get("packetbench")
    if not isinstance(meta, dict) or not isinstance(meta.get("packets"), list):
        raise BadInput(f"{log}: records no packetbench metadata (not written by {TASK})")
    samples = evaluation.samples or []
    if not samples:
        raise BadInput(f"{log}: holds no samples (status {evaluation.status})")
    epochs = sorted({s.epoch for s in samples})
    if epochs != [1]:
        raise BadInput(
            f"{log}: {len(epochs)} epochs; a run folder holds one answer per document "
            "(run the task with --epochs 1)"
        )
    packets = {p.packet_id: p for p in packets_of(packets_dir)}
    cap = int(meta.get("max_output_tokens") or 0)
    price = pricing.price(pricing.load(None), _model_name(spec.model))
    found: dict[tuple[str, str], ExtractionRecord] = {}
    with bars.bar("samples", "", len(samples), disable=not progress) as advance:
        for sample in samples:
            found.update(_converted(sample, packets, packets_dir, log, cap, price))
            advance(None)
    entries = _entries(meta["packets"], found, log)
    info = _info(evaluation, log, out, packets_dir, meta, entries, found, price)
    selected = [
        (packets[packet_id], _document(packets[packet_id], doc_id, log, None))
        for packet_id, doc_id in found
    ]
    provenance.verify(
        info, out, selected, hint=f"import the log with the packets {log.name} was made from"
    )
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    with hold(out):
        prepare_run(out, force)
        for extraction in found.values():
            write_record(out, extraction)
        write_run(out, info)
    assert info.documents is not None
    return Imported(out, len(found), info.documents.by_status, spec.model)


def _converted(
    sample: Any,
    packets: dict[str, Packet],
    packets_dir: Path,
    log: Path,
    cap: int,
    price: Any,
) -> dict[tuple[str, str], ExtractionRecord]:
    """One sample as the extraction record `packetbench extract` would have written."""
    metadata = sample.metadata or {}
    packet = packets.get(str(metadata.get("packet_id")))
    if packet is None:
        raise BadInput(
            f"{log}: sample {sample.id!r} is of packet {metadata.get('packet_id')!r}, "
            f"which {packets_dir} lacks"
        )
    doc = _document(packet, str(metadata.get("doc_id")), log, sample.id)
    error = sample.error.message.strip().splitlines()[0] if sample.error else None
    made = record(packet.packet_id, doc, answer_of(sample.output, error), cap)
    if price is not None:
        spent = made.usage
        spent.cost_usd = round(
            price.cost(spent.input_tokens, spent.output_tokens, spent.reasoning_tokens), 6
        )
    return {(packet.packet_id, doc.doc_id): made}


def _document(packet: Packet, doc_id: str, log: Path, sample: Any) -> DocInfo:
    for doc in packet.documents:
        if doc.doc_id == doc_id:
            return doc
    what = f"sample {sample!r} is of" if sample is not None else "names"
    raise BadInput(f"{log}: {what} document {doc_id!r}, which {packet.path} lacks")


def _entries(
    listed: list[Any], found: dict[tuple[str, str], ExtractionRecord], log: Path
) -> list[dict[str, Any]]:
    """The task's packet entries, each cut to the documents the log has a sample of (an eval
    run with --limit or --sample-id asks about some documents only)."""
    entries: list[dict[str, Any]] = []
    for entry in listed:
        if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), dict):
            raise BadInput(f"{log}: a packet entry of its packetbench metadata is damaged")
        packet_id = entry.get("packet_id")
        asked = [d for d in entry.get("documents") or [] if (packet_id, d) in found]
        if asked:
            entries.append(
                {
                    **entry,
                    "documents": asked,
                    "sha256": {d: entry["sha256"][d] for d in asked if d in entry["sha256"]},
                }
            )
    listed_ids = {(e["packet_id"], d) for e in entries for d in e["documents"]}
    stray = sorted(set(found) - listed_ids)
    if stray:
        raise BadInput(f"{log}: sample {'/'.join(stray[0])} is of no packet the task listed")
    return entries


def _info(
    evaluation: Any,
    log: Path,
    out: Path,
    packets_dir: Path,
    meta: dict[str, Any],
    entries: list[dict[str, Any]],
    found: dict[tuple[str, str], ExtractionRecord],
    price: pricing.Price | None,
) -> RunInfo:
    spec = evaluation.eval
    by_status = dict(sorted(Counter(r.status for r in found.values()).items()))
    usage: dict[str, Any] = {
        name: sum(getattr(r.usage, name) for r in found.values())
        for name in ("input_tokens", "output_tokens", "reasoning_tokens")
    }
    usage["cost_usd"] = round(sum(r.usage.cost_usd for r in found.values()), 6)
    mode = str(meta.get("input"))
    cap = meta.get("max_output_tokens")
    expected = sum(len(e["sha256"]) for e in meta["packets"] if isinstance(e, dict))
    try:
        inspect_version: str | None = version("inspect-ai")
    except PackageNotFoundError:
        inspect_version = None
    data = {
        "run_id": out.resolve().name,
        "provider": "inspect",
        "model": spec.model,
        "simulator": False,
        "parameters": {"reasoning": "default", "input": mode, "max_output_tokens": cap},
        "reasoning": "default",
        "input": mode,
        "max_output_tokens": cap,
        "pricing": price.describe() if price else None,
        "packets_dir": str(packets_dir.resolve()),
        "packets": entries,
        "schemas": meta.get("schemas"),
        "prompts": meta.get("prompts"),
        "schemas_sent": meta.get("schemas_sent"),
        "inspect": {
            "log": str(log.resolve()),
            "task": spec.task,
            "eval_id": spec.eval_id,
            "run_id": spec.run_id,
            "created": spec.created,
            "status": evaluation.status,
            "task_args": spec.task_args,
            "model_args": spec.model_args,
            "samples": len(found),
            "documents_in_task": expected,
            "extracted_with": meta.get("toolkit_version"),
            "packages": dict(spec.packages or {}),
        },
        "toolkit_version": __version__,
        "versions": {**versions(), "inspect-ai": inspect_version},
        "git": git(),
        "status": "complete" if evaluation.status == "success" else "incomplete",
        "documents": {"expected": len(found), "written": len(found), "by_status": by_status},
        "usage": usage,
    }
    try:
        return RunInfo.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "metadata"
        raise BadInput(
            f"{log}: its packetbench metadata is damaged ({where}: {first['msg']})"
        ) from None
