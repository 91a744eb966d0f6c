"""A folder of predictions (one JSON answer per document) as a run folder.

The layout (docs/schemas/predictions.schema.json, docs/own-system.md): ``DIR/<packet id>/
<document id>.json``, each file the answer to one document of the packets given, a JSON
object following that document's schema. Every answer is judged as the harness judges a
program's or a model's answer (`answer.parse_reply`): ok, or invalid with the reason. A
document without an answer gets no record (`score` counts it missing); an entry that is no
answer of the packets (another packet, another document, another file) is extra; a symlink, a
FIFO or anything but a regular file is never followed nor read, so nothing outside DIR is
read. Nothing is written until the whole folder has been read.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench import __version__
from packetbench.benchmark import provenance
from packetbench.benchmark.harness import answer
from packetbench.benchmark.providers.api import Reply
from packetbench.benchmark.records import ExtractionRecord, Status, Usage, write_record
from packetbench.benchmark.run_folder import git, prepare_run
from packetbench.benchmark.runs import RunInfo, write_run
from packetbench.benchmark.selection import Selection
from packetbench.core import safe_read
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.locking import hold
from packetbench.core.versions import versions
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.truth.packets import Packet, find_packets

SUFFIX = ".json"
MAX_ANSWER = 16 * 1024 * 1024  # an answer is kilobytes; a larger file is no answer
CAP = 32_000  # the output-token cap an answer is judged under (no answer is truncated)


@dataclass
class Imported:
    run: Path
    documents: int  # in the packets
    by_status: dict[str, int]
    missing: list[str] = field(default_factory=list)  # packet/document without an answer
    extra: list[str] = field(default_factory=list)  # entries of DIR that answer nothing
    invalid: list[str] = field(default_factory=list)  # "packet/document: why"
    refused: list[str] = field(default_factory=list)  # not read: symlinks, FIFOs, folders


def _kind(mode: int) -> str | None:
    """What an entry that is not a regular file is (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    return "not a regular file"


def _entries(folder: Path) -> list[tuple[str, int]]:
    """The names in `folder` with their modes, symlinks not followed."""
    return sorted((entry.name, os.lstat(entry.path).st_mode) for entry in os.scandir(folder))


def _read(path: Path) -> tuple[str | None, str | None]:
    """The text of an answer file, or why it cannot be one."""
    try:
        size = os.lstat(path).st_size
        if size > MAX_ANSWER:
            return None, f"{size:,} bytes, more than an answer may be ({MAX_ANSWER:,})"
        raw = safe_read.read_bytes(path, "record")
    except safe_read.UnsafeFile as error:
        return None, str(error).split(": ", 1)[-1]
    except OSError as error:
        return None, f"unreadable ({error.strerror})"
    if len(raw) > MAX_ANSWER:  # it grew while being read
        return None, f"more than {MAX_ANSWER:,} bytes"
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return None, f"not UTF-8 text (byte {error.start})"


def _record(packet: Packet, doc_id: str, text: str | None, why: str | None) -> ExtractionRecord:
    doc = next(d for d in packet.documents if d.doc_id == doc_id)
    status: Status = "invalid"
    output: dict[str, Any] | None = None
    error = why
    if text is not None:
        parsed = answer.parse_reply(
            Reply(text=text, finish_reason=None), DOC_TYPES[doc.schema].model, CAP
        )
        status, output, error = parsed.status, parsed.output, parsed.error
    return ExtractionRecord(
        packet_id=packet.packet_id,
        doc_id=doc.doc_id,
        doc_type=doc.doc_type,
        status=status,
        output=output,
        raw_text=text,
        attempts=1,
        latency_s=0.0,
        usage=Usage(),
        finish_reason=None,
        error=error,
    )


def read_predictions(
    folder: Path, packets: list[Packet]
) -> tuple[dict[tuple[str, str], ExtractionRecord], Imported]:
    """Every answer of `folder` as a record, and what was missing, extra or refused."""
    found: dict[tuple[str, str], ExtractionRecord] = {}
    result = Imported(folder, sum(len(p.documents) for p in packets), {})
    by_id = {p.packet_id: p for p in packets}
    for name, mode in _entries(folder):
        what = _kind(mode)
        packet = by_id.get(name)
        if packet is None:
            result.extra.append(name + ("/" if what == "a folder" else ""))
            continue
        if what != "a folder":
            result.refused.append(f"{name}: {what or 'a file'}, not a packet's folder")
            continue
        documents = {d.doc_id for d in packet.documents}
        for file, file_mode in _entries(folder / name):
            where = f"{name}/{file}"
            doc_id = file[: -len(SUFFIX)] if file.endswith(SUFFIX) else None
            if doc_id not in documents:
                result.extra.append(where)
                continue
            assert doc_id is not None
            kind = _kind(file_mode)
            text: str | None = None
            why: str | None = None
            if kind is not None:
                result.refused.append(f"{where}: {kind}, not read")
                why = f"{kind}, not read"
            else:
                text, why = _read(folder / name / file)
            made = _record(packet, doc_id, text, why)
            found[(packet.packet_id, doc_id)] = made
            if made.status != "ok":
                result.invalid.append(f"{name}/{doc_id}: {made.error}")
    for packet in packets:
        for doc in packet.documents:
            if (packet.packet_id, doc.doc_id) not in found:
                result.missing.append(f"{packet.packet_id}/{doc.doc_id}")
    return found, result


def import_predictions(
    folder: Path,
    packets_dir: Path,
    out: Path,
    *,
    name: str | None = None,
    force: bool = False,
    selection: Selection | None = None,
) -> Imported:
    """Write the run folder `out` from the predictions in `folder` of the packets in
    `packets_dir`; BadInput (exit 2) when the folder as a whole is not predictions of them."""
    if folder.is_symlink() or not folder.is_dir():
        raise BadInput(f"{folder}: not a folder of predictions (DIR/<packet id>/<doc id>.json)")
    chosen = selection or Selection()
    packets = chosen.apply(find_packets(packets_dir), str(packets_dir))
    found, result = read_predictions(folder, packets)
    if not found:
        ids = ", ".join(p.packet_id for p in packets[:3]) + (", ..." if len(packets) > 3 else "")
        raise BadInput(
            f"{folder}: holds no answer to a document of {packets_dir} (expected "
            f"<packet id>/<document id>.json, packets {ids})"
        )
    by_status: dict[str, int] = dict(sorted(Counter(str(r.status) for r in found.values()).items()))
    info = RunInfo.model_validate(
        {
            "run_id": out.resolve().name,
            "provider": "predictions",
            "model": name or folder.resolve().name,
            "simulator": False,
            "parameters": {"imported": "predictions"},
            "reasoning": "default",
            "imported_from": {
                "predictions": str(folder.resolve()),
                "answers": len(found),
                "missing": len(result.missing),
                "extra": len(result.extra),
                "invalid": len(result.invalid),
            },
            **({"selection": picked} if (picked := chosen.describe()) is not None else {}),
            "packets_dir": str(packets_dir.resolve()),
            "packets": [provenance.packet_entry(p) for p in packets],
            "toolkit_version": __version__,
            "versions": dict(versions()),
            "git": git(),
            "status": "complete" if not result.missing else "incomplete",
            "documents": {
                "expected": result.documents,
                "written": len(found),
                "by_status": by_status,
            },
            "usage": {
                "input_tokens": 0,
                "output_tokens": 0,
                "reasoning_tokens": 0,
                "cost_usd": 0.0,
            },
        }
    )
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    with hold(out):
        prepare_run(out, force)
        for record in found.values():
            write_record(out, record)
        write_run(out, info)
    result.run = out
    result.by_status = by_status
    return result
