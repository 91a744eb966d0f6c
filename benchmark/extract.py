"""`packetbench extract`: run a provider over every document of a folder of packets.

run.json is written before the first document and completed after the last; each document's
record is written atomically as it finishes, so an interrupted run keeps every finished
document.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.errors import UsageError
from benchmark.packets import find_packets
from benchmark.providers.base import Provider
from benchmark.runs import write_json, write_record
from generator import __version__
from generator.schemas import all_schemas, schema_bytes
from generator.truth import versions


@dataclass(frozen=True)
class ExtractSummary:
    run: Path
    documents: int
    written: int
    by_status: dict[str, int]


def _git() -> dict[str, Any]:
    """The commit of the packetbench checkout running this (None outside a checkout)."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": bool(dirty)}


def prepare_run(out: Path, force: bool) -> None:
    """Refuse an existing run unless `force`; with it, clear what a new run rewrites."""
    if (out / "run.json").exists():
        if not force:
            raise UsageError(f"{out}: a run already exists here (use --force to replace it)")
        for name in ("extractions", "scores"):
            shutil.rmtree(out / name, ignore_errors=True)
        for file in out.glob("*.json"):
            file.unlink()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{out}: cannot create the run folder ({error.strerror})") from None


def extract(provider: Provider, packets_dir: Path, out: Path, force: bool = False,
            ) -> ExtractSummary:
    packets = find_packets(packets_dir)
    prepare_run(out, force)
    info: dict[str, Any] = {
        "run_id": out.resolve().name,
        "provider": provider.name,
        **provider.describe(),
        "packets_dir": str(packets_dir.resolve()),
        "packets": [{"packet_id": p.packet_id, "tier": p.tier,
                     "documents": [d.doc_id for d in p.documents]} for p in packets],
        "schemas": {name: hashlib.sha256(schema_bytes(schema)).hexdigest()
                    for name, schema in all_schemas().items()},
        "toolkit_version": __version__,
        "versions": dict(versions()),
        "git": _git(),
        "status": "running",
    }
    write_json(out / "run.json", info)
    by_status: dict[str, int] = {}
    documents = written = 0
    for packet in packets:
        provider.prepare(packet)
        for doc in packet.documents:
            documents += 1
            record = provider.extract(packet, doc)
            if record is None:
                continue
            write_record(out, record)
            written += 1
            by_status[record.status] = by_status.get(record.status, 0) + 1
    provider.finish(out)
    info.update(status="complete", documents={"expected": documents, "written": written,
                                              "by_status": dict(sorted(by_status.items()))})
    write_json(out / "run.json", info)
    return ExtractSummary(out, documents, written, dict(sorted(by_status.items())))
