"""The report of runs of one's own documents: no truth, so no scores; what a judge estimates.

A run of `extract --documents` has nothing to score against. Its report lists the run's
configuration, every document with its schema and how that schema was chosen (`--schema`,
`--schema-map`, a classifier) and its extraction status, and for each judge that labelled
the run (`packetbench verify`) its verdict mix, its raw hallucination rate (claims labelled
anything but supported) and, when verify was given a calibration, the rate corrected for the
judge's measured error with its interval and the calibration it rests on
(``RUN/judge/<judge_id>/estimate.json``). Everything comes from files in the run folder; no
path of the machine is printed, so the same runs give byte-identical reports.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from packetbench import __version__
from packetbench.benchmark.documents import is_documents_run, own_entries, packet_from_entry
from packetbench.benchmark.records import read_record, record_path
from packetbench.benchmark.runs import is_run, read_run
from packetbench.core import ids, safe_read
from packetbench.core.errors import BadInput
from packetbench.core.packet_files import read_json


def is_documents(run: Path) -> bool:
    """Whether the run folder `run` is a run of one's own documents."""
    return is_run(run) and is_documents_run(read_run(run))


def _labels(path: Path) -> tuple[int, int]:
    """(claims, claims labelled anything but supported) of a judge's labels.jsonl."""
    claims = flagged = 0
    try:
        data = safe_read.read_bytes(path, "scores")
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error})") from None
    for line in data.splitlines():
        if line.strip():
            claims += 1
            flagged += orjson.loads(line).get("verdict") != "supported"
    return claims, flagged


def _judges(run: Path) -> list[dict[str, Any]]:
    folder = run / "judge"
    found: list[dict[str, Any]] = []
    for place in sorted(folder.iterdir() if folder.is_dir() else [], key=lambda p: p.name):
        about = read_json(place / "judge.json", "run") if (place / "judge.json").is_file() else None
        if not isinstance(about, dict):
            continue
        judge_id = ids.check(place.name, "judge_id", folder)
        entry: dict[str, Any] = {
            "judge_id": judge_id,
            "judge": about.get("judge"),
            "model": about.get("model"),
            "simulator": bool(about.get("simulator")),
            "status": about.get("status"),
            "by_verdict": about.get("by_verdict") or {},
            "claims": None,
            "flagged": None,
            "estimate": None,
        }
        if about.get("status") == "complete" and (place / "labels.jsonl").is_file():
            entry["claims"], entry["flagged"] = _labels(place / "labels.jsonl")
            estimate = place / "estimate.json"
            if estimate.is_file():
                data = read_json(estimate, "scores")
                entry["estimate"] = data if isinstance(data, dict) else None
        found.append(entry)
    return found


def run_context(run: Path) -> dict[str, Any]:
    info = read_run(run)
    packet = packet_from_entry(own_entries(info)[0], run)
    how = (packet.own or {}).get("chosen_by") or {}
    documents = []
    statuses: Counter[str] = Counter()
    for doc in packet.documents:
        path = record_path(run, packet.packet_id, doc.doc_id)
        status = read_record(path).status if path.is_file() else "missing"
        statuses[status] += 1
        documents.append(
            {
                "doc_id": doc.doc_id,
                "file": doc.file,
                "doc_type": doc.doc_type,
                "chosen_by": how.get(doc.doc_id, "–"),
                "status": status,
            }
        )
    classifier = (packet.own or {}).get("classifier") or {}
    return {
        "name": info.run_id or run.name,
        "provider": info.provider,
        "model": info.model,
        "simulator": info.simulator,
        "label": info.label,
        "parameters": orjson.dumps(info.parameters, option=orjson.OPT_SORT_KEYS).decode(),
        "status": info.status,
        "folder": packet.packet_id,
        "classifier": classifier.get("provider")
        and (f"{classifier.get('provider')} {classifier.get('model') or ''}".strip()),
        "documents": documents,
        "statuses": dict(sorted(statuses.items())),
        "skipped": list((packet.own or {}).get("skipped") or []),
        "judges": _judges(run),
    }


def documents_context(runs: Sequence[Path]) -> dict[str, Any]:
    return {"version": __version__, "runs": [run_context(run) for run in runs]}
