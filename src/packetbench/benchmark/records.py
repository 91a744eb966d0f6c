"""Extraction records: one atomic file per document of a run (docs/design.md §6).

    RUN/extractions/<packet_id>/<doc_id>.json

A record says what one provider call on one document produced, whatever happened (`status`
ok, error, timeout, invalid or refused). It is written atomically as its document finishes
and read back defensively: a record filed under another document's path is not its record.
"""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from packetbench.benchmark.grounding.citations import Citation
from packetbench.benchmark.grounding.confidences import Confidence
from packetbench.core import ids, safe_read
from packetbench.core.errors import BadInput
from packetbench.core.memo import HashMemo
from packetbench.core.writing import write_json

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
    # `extract --cite`: each value's evidence, as cited and converted; absent otherwise.
    citations: list[Citation] | None = None
    # `extract --confidence`: each value's confidence as given; absent otherwise.
    confidences: list[Confidence] | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as written: without `citations` (`confidences`) when the run asked for
        none, so a record of a run without --cite is what it was before citations existed."""
        absent = {
            name
            for name, value in (("citations", self.citations), ("confidences", self.confidences))
            if value is None
        }
        return self.model_dump(mode="json", exclude=absent or None)


def record_path(run: Path, packet_id: str, doc_id: str) -> Path:
    return run / "extractions" / packet_id / f"{doc_id}.json"


def records_digest(run: Path, memo: HashMemo | None = None) -> str:
    """sha256 over the run's extraction records (their paths and bytes): what a results
    database was scored from, so a reader can tell records changed since it was scored.
    With `memo`, a record hashed before whose inode says it is unchanged is not read."""
    total = hashlib.sha256()
    folder = run / "extractions"
    base = os.path.join(folder, "")
    for name in _record_names(folder):
        if name.rsplit("/", 1)[-1].startswith("."):
            continue  # a writer's temporary file, not a record
        total.update(name.encode("utf-8") + b"\0")
        path = base + name
        try:
            if memo is not None:
                total.update(bytes.fromhex(memo.sha256(path, "record")))
            else:
                total.update(hashlib.sha256(Path(path).read_bytes()).digest())
        except OSError as error:
            raise BadInput(
                f"{path}: cannot read ({error.strerror or type(error).__name__})"
            ) from None
    return total.hexdigest()


def _record_names(folder: Path) -> list[str]:
    """Every entry named *.json under `folder` at any depth (symlinked folders not entered),
    as paths relative to it, in the order of their paths (part by part, as `Path` sorts)."""
    if not folder.is_dir():
        return []
    names: list[str] = []
    for top, folders, files in os.walk(folder):
        within = os.path.relpath(top, folder)
        prefix = "" if within == "." else within.replace(os.sep, "/") + "/"
        names.extend(prefix + n for n in (*folders, *files) if n.endswith(".json"))
    return sorted(names, key=lambda name: name.split("/"))


def write_record(run: Path, record: ExtractionRecord) -> None:
    """Write `record` under RUN/extractions/, its ids checked and its path resolved inside
    the run folder (a symlinked packet folder there must not send it elsewhere)."""
    source = f"the record of {record.packet_id!r}/{record.doc_id!r}"
    name = ids.check(record.doc_id, "doc_id", source) + ".json"
    packet_id = ids.check(record.packet_id, "packet_id", source)
    write_json(ids.inside(run, "extractions", packet_id, name), record.to_json())


def _carried(value: Any) -> Any:
    """`value` with every NaN or infinite number as its text ("NaN", "Infinity"), as the
    harness keeps a model's answer that JSON cannot carry: scored as the number it says,
    never dropped to null, never a crash of the whole scoring."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {key: _carried(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_carried(item) for item in value]
    return value


def read_record(path: Path) -> ExtractionRecord:
    """A record file, or BadInput naming the file when it is not a valid record of the
    document its path names (a record filed under another document is not its record)."""
    try:
        record = ExtractionRecord.model_validate_json(safe_read.read_bytes(path, "record"))
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error.strerror})") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise BadInput(f"{path}: not an extraction record ({where}: {first['msg']})") from None
    if record.output is not None:
        record.output = _carried(record.output)
    if (path.parent.name, path.stem) != (record.packet_id, record.doc_id):
        raise BadInput(
            f"{path}: the record of {record.packet_id}/{record.doc_id}, not of "
            f"{path.parent.name}/{path.stem}"
        )
    return record
