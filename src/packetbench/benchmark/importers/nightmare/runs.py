"""One run folder per cohort of the corpus: its extraction files as our extraction records.

An extraction file is the model's parsed output, or a stub ``{error, packet_id, doc_type}``
when the call failed (status ``error``, with its message); a document with no file is left
without a record (the scorer lists it as missing). Usage, latency and cost come from the
cohort's run_summary.json where it has an entry for the document; the corpus records no
reasoning tokens, so they stay 0. run.json names the model and the effort and, like every run
of ours, the sha256 of everything it was extracted from.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from packetbench import __version__
from packetbench.benchmark import provenance
from packetbench.benchmark.importers.nightmare.corpus import (
    MODEL_NAMES,
    PROVIDERS,
    Cohort,
    Corpus,
    CorpusPacket,
)
from packetbench.benchmark.records import ExtractionRecord, Usage, write_record
from packetbench.benchmark.runs import RunInfo, write_run
from packetbench.core import safe_read
from packetbench.truth.packets import Packet

STUB_KEYS = frozenset({"error", "packet_id", "doc_type"})


def _summary(cohort: Cohort) -> dict[tuple[str, str], dict[str, Any]]:
    path = cohort.folder / "run_summary.json"
    try:
        data = safe_read.load_json(path, "record")
    except (OSError, ValueError):
        return {}
    found = {}
    for entry in data.get("results") or [] if isinstance(data, dict) else []:
        if isinstance(entry, dict):
            found[(str(entry.get("packet_id")), str(entry.get("doc_type")))] = entry
    return found


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def record(
    packet_id: str, doc_id: str, doc_type: str, path: Path, usage: dict[str, Any] | None
) -> ExtractionRecord | None:
    """Our record of one extraction file (None when the file is absent)."""
    if not os.path.lexists(path):
        return None
    raw = safe_read.read_bytes(path, "record")  # checked, with every corpus file, before
    text = raw.decode("utf-8", errors="replace")
    problem: str | None = None
    try:
        data = safe_read.parse_json(raw)
    except ValueError as error:
        data, problem = None, f"not JSON ({error})"
    stub = isinstance(data, dict) and "error" in data and set(data) <= STUB_KEYS
    if stub:
        problem = str(data.get("error"))
    elif not isinstance(data, dict) and problem is None:
        problem = "not a JSON object"
    used = usage or {}
    return ExtractionRecord(
        packet_id=packet_id,
        doc_id=doc_id,
        doc_type=doc_type,
        status="error" if problem else "ok",
        output=None if problem else data,
        raw_text=None if stub else text,
        attempts=1,
        latency_s=round(_number(used.get("elapsed_s")), 3),
        usage=Usage(
            input_tokens=int(_number(used.get("input_tokens"))),
            output_tokens=int(_number(used.get("output_tokens"))),
            cost_usd=_number(used.get("cost_usd")),
        ),
        finish_reason=None,
        error=problem,
    )


def convert_cohort(
    corpus: Corpus, cohort: Cohort, packets: list[tuple[CorpusPacket, Packet]], out: Path
) -> dict[str, int]:
    """Write run folder `out` for `cohort`; the number of records by status."""
    usage = _summary(cohort)
    by_status: dict[str, int] = {}
    for source, packet in packets:
        for doc in source.documents:
            path = cohort.folder / f"extraction_{source.name}_{doc.doc_id}.json"
            if path in corpus.damaged:
                continue  # --partial: no record (scored as missing), listed in import.json
            made = record(
                packet.packet_id,
                doc.doc_id,
                doc.doc_type,
                path,
                usage.get((source.name, doc.doc_type)),
            )
            if made is None:
                continue
            write_record(out, made)
            by_status[made.status] = by_status.get(made.status, 0) + 1
    info = RunInfo.model_validate(
        {
            "run_id": out.name,
            "provider": PROVIDERS.get(cohort.base, "unknown"),
            "model": MODEL_NAMES.get(cohort.base, cohort.base),
            "simulator": False,
            "label": cohort.name,
            "parameters": {"reasoning": cohort.effort},
            "reasoning": cohort.effort,
            "imported_from": {
                "corpus": "nightmare",
                "cohort": cohort.name,
                "commit": corpus.commit,
            },
            "toolkit_version": __version__,
            "packets_dir": "../../packets",
            "packets": [provenance.packet_entry(packet) for _, packet in packets],
            "status": "complete",
            "documents": {
                "expected": sum(len(p.documents) for _, p in packets),
                "written": sum(by_status.values()),
                "by_status": dict(sorted(by_status.items())),
            },
        }
    )
    write_run(out, info)
    return dict(sorted(by_status.items()))
