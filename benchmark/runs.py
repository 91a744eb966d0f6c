"""Run folders: `run.json`, one atomic record per document, and where scores go (DESIGN §6).

    runs/<run_id>/
      run.json
      extractions/<packet_id>/<doc_id>.json
      scores/
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from benchmark.errors import BadInput
from benchmark.packets import DocInfo, Packet
from generator.truth import dump_json

Status = Literal["ok", "error", "timeout", "invalid", "refused"]


class Usage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0


class ExtractionRecord(BaseModel):
    """What one provider call on one document produced, whatever happened."""

    model_config = ConfigDict(extra="forbid")

    packet_id: str
    doc_id: str
    doc_type: str
    status: Status
    output: dict[str, Any] | None
    raw_text: str | None
    attempts: int
    latency_s: float
    usage: Usage
    finish_reason: str | None
    error: str | None


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so a reader (or a crash) never sees a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_json(path: Path, data: Any) -> None:
    write_atomic(path, dump_json(data))


def record_path(run: Path, packet_id: str, doc_id: str) -> Path:
    return run / "extractions" / packet_id / f"{doc_id}.json"


def write_record(run: Path, record: ExtractionRecord) -> None:
    write_json(record_path(run, record.packet_id, record.doc_id), record.model_dump(mode="json"))


def read_record(path: Path) -> ExtractionRecord:
    """A record file, or BadInput naming the file when it is not a valid record."""
    try:
        return ExtractionRecord.model_validate_json(path.read_bytes())
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error.strerror})") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise BadInput(f"{path}: not an extraction record ({where}: {first['msg']})") from None


def read_run(run: Path) -> dict[str, Any]:
    path = run / "run.json"
    if not path.is_file():
        raise BadInput(f"{path}: missing (not a run folder)")
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInput(f"{path}: unreadable ({error})") from None
    return data


def listed_documents(info: dict[str, Any], run: Path, packets: list[Packet],
                     ) -> list[tuple[Packet, DocInfo]]:
    """The documents `run.json` (read as `info`) lists, in packet and document order, each
    found in `packets`; BadInput naming run.json otherwise."""
    by_id = {p.packet_id: p for p in packets}
    listed = info.get("packets")
    if not isinstance(listed, list):
        raise BadInput(f"{run / 'run.json'}: no packets list")
    selected: list[tuple[Packet, DocInfo]] = []
    for entry in listed:
        packet = by_id.get(str(entry.get("packet_id"))) if isinstance(entry, dict) else None
        if packet is None:
            raise BadInput(f"{run / 'run.json'}: packet {entry!r} is not in the packets folder")
        wanted = set(entry.get("documents") or [d.doc_id for d in packet.documents])
        selected += [(packet, doc) for doc in packet.documents if doc.doc_id in wanted]
    return selected
