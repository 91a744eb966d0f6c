"""Run folders: `run.json`, one atomic record per document, and where scores go (docs/design.md §6).

runs/<run_id>/
  run.json
  extractions/<packet_id>/<doc_id>.json
  scores/
"""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import re
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from packetbench import ids, safe_read, stopping
from packetbench.benchmark import provenance
from packetbench.benchmark.errors import BadInput, UsageError
from packetbench.benchmark.grounding.citations import Citation
from packetbench.benchmark.grounding.confidences import Confidence
from packetbench.benchmark.packets import DocInfo, Packet
from packetbench.errors import WriteFailed
from packetbench.generator.worker_pool import alive

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


_UMASK_LOCK = threading.Lock()
# What a killed writer leaves: write_atomic's temporary files and load_run's scratch folders,
# named after the process that made them, so that another process can tell they are stale.
_LEFT_BEHIND = re.compile(r"^\.(?:.+\.tmp|results)-(\d+)-")
_OLD_SCRATCH = re.compile(r"^\.results-[a-z0-9_]{8}$")  # before they carried the process id


def umask() -> int:
    """The process umask, read without changing it where the system allows."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:  # elsewhere the only way to read it is to set it and put it back
        current = os.umask(0o022)
        os.umask(current)
    return current


def remove_left_behind(folder: Path, name: str = "") -> None:
    """Delete what killed writers left in `folder` (temporary files of target `name`, or of
    every target when `name` is empty, and scratch folders) when their process is gone."""
    pattern = f".{name}.tmp-*" if name else ".*"
    for entry in folder.glob(pattern):
        found = _LEFT_BEHIND.match(entry.name)
        stale = (
            found is not None
            and int(found.group(1)) != os.getpid()
            and not alive(int(found.group(1)))
        ) or bool(_OLD_SCRATCH.match(entry.name))
        if not stale:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


# What the machine, not the user, makes a write fail with: no space, no quota, a file size
# limit, a failing disk. DuckDB reports them in its message only.
_MACHINE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
_MACHINE_WORDS = ("No space left on device", "Disk quota exceeded", "File too large")


def machine_refused(error: BaseException) -> bool:
    """Whether `error` (an OSError, or a DuckDB error) is the machine refusing a write."""
    if isinstance(error, OSError):
        return error.errno in _MACHINE_ERRNOS
    return any(words in str(error) for words in _MACHINE_WORDS)


def refused_write(path: Path, error: BaseException) -> WriteFailed:
    """The one-line WriteFailed for a write of `path` the machine refused."""
    reason = (
        error.strerror
        if isinstance(error, OSError) and error.strerror
        else next((w for w in _MACHINE_WORDS if w in str(error)), type(error).__name__)
    )
    return WriteFailed(f"{path}: cannot write ({reason}); nothing half written is left")


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so a reader (or a crash) never sees a partial file.

    The file gets the mode an ordinary write would give it (0666 less the umask), not
    mkstemp's 0600. A temporary file of the same target left by a killed writer is removed.
    A path that cannot be written is BadInput naming it; a write the machine refuses (a full
    disk) is WriteFailed, and the temporary file is gone either way.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BadInput(
            f"{path.parent}: cannot create the folder ({error.strerror or type(error).__name__})"
        ) from None
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, cannot write a file there")
    remove_left_behind(path.parent, path.name)
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.tmp-{os.getpid()}-", dir=path.parent
        )
    except OSError as error:
        raise BadInput(f"{path}: cannot write ({error.strerror or type(error).__name__})") from None
    try:
        with os.fdopen(handle, "wb") as out:
            os.fchmod(out.fileno(), 0o666 & ~umask())
            out.write(data)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        if machine_refused(error):
            raise refused_write(path, error) from None
        raise BadInput(f"{path}: cannot write ({error.strerror or type(error).__name__})") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_together(files: dict[Path, bytes]) -> None:
    """Write several files that describe one thing (a report's Markdown and HTML): each to
    a temporary file first, then all renamed into place, so a write the machine refuses (a
    full disk) leaves every old file as it was, never a new one beside an old one."""
    written: dict[Path, Path] = {}
    try:
        for path, data in files.items():
            temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}-together")
            written[path] = temporary
            write_atomic(temporary, data)
        with stopping.no_signals():
            for path, temporary in written.items():
                os.replace(temporary, path)
    except WriteFailed as error:
        for temporary in written.values():
            temporary.unlink(missing_ok=True)
        message = str(error)
        for path, temporary in written.items():  # named as the file it was for
            message = message.replace(str(temporary), str(path))
        raise WriteFailed(message) from None
    except BaseException:
        for temporary in written.values():
            temporary.unlink(missing_ok=True)
        raise


def check_outputs(folder: Path, names: tuple[str, ...], force: bool, what: str) -> None:
    """The one policy for files a command writes: an existing one is replaced only with
    `force`, and never when something else (a folder) is in its place. `what` names the
    kind of file in the message ("report")."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: exists and is not a folder")
    for name in names:
        path = folder / name
        if path.is_dir():
            raise UsageError(f"{path}: is a folder, not a {what} (move it away first)")
        if path.exists() and not force:
            raise UsageError(f"{path}: already exists (use --force to replace it)")


def write_json(path: Path, data: Any) -> None:
    # imported here: the generator's truth writer loads its renderers, which a reader of
    # runs (the viewer) has no use for
    from packetbench.generator.truth import dump_json

    write_atomic(path, dump_json(data))


def record_path(run: Path, packet_id: str, doc_id: str) -> Path:
    return run / "extractions" / packet_id / f"{doc_id}.json"


def records_digest(run: Path) -> str:
    """sha256 over the run's extraction records (their paths and bytes): what a results
    database was scored from, so a reader can tell records changed since it was scored."""
    total = hashlib.sha256()
    folder = run / "extractions"
    files = sorted(folder.rglob("*.json")) if folder.is_dir() else []
    for path in files:
        if path.name.startswith("."):
            continue  # a writer's temporary file, not a record
        total.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0")
        try:
            total.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError as error:
            raise BadInput(
                f"{path}: cannot read ({error.strerror or type(error).__name__})"
            ) from None
    return total.hexdigest()


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


def read_run(run: Path, repeats: bool = False) -> dict[str, Any]:
    """run.json of `run`, after checking the folders a run keeps are folders. A repeated
    run's (`--repeats`: its repeats are the runs) is refused in one line unless `repeats`."""
    path = run / "run.json"
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, not a run's record")
    if not path.is_file():
        raise BadInput(f"{path}: missing (not a run folder)")
    for name in ("extractions", "scores"):
        if (run / name).exists() and not (run / name).is_dir():
            raise BadInput(f"{run / name}: not a folder (a run keeps its {name} there)")
    try:
        raw = safe_read.read_bytes(path, "run")
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error})") from None
    try:
        # orjson reads the run.json of a 1,000-packet run (14 MB) in a third of json's time,
        # and refuses NaN and Infinity as json's parse_constant hook below does
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        try:  # json's words for the problem
            data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError) as error:
            raise BadInput(f"{path}: unreadable ({error})") from None
    if not isinstance(data, dict):
        raise BadInput(f"{path}: not a run's record (not a JSON object)")
    if "repeats" in data and not repeats:
        from packetbench.benchmark.repeats import refusal, repeat_runs

        raise refusal(run, len(repeat_runs(run) or []), "score, report or sql")
    return data


def _no_constant(name: str) -> Any:
    """json's NaN, Infinity and -Infinity are no JSON: refused (a NaN cost cap is no cap)."""
    raise ValueError(f"{name} is not a JSON number")


def listed_documents(
    info: dict[str, Any],
    run: Path,
    packets: list[Packet],
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


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def continuation(
    run: Path, info: dict[str, Any], packets: list[Packet], fingerprint: tuple[str, ...]
) -> dict[str, Any]:
    """The run.json of the run `run` continues, after checking that every `fingerprint` key
    of it equals the new run's `info` and that `packets` are the documents it was extracted
    from (a continued run must be one run, not two stitched together)."""
    if not (run / "run.json").is_file():
        raise UsageError(
            f"{run}: no run to continue (no run.json); start it without --resume / --retry-failed"
        )
    before = read_run(run)
    for name in fingerprint:
        if before.get(name) != info.get(name):
            raise UsageError(
                f"{run}: cannot continue a run made with different settings "
                f"({name} was {_short(before.get(name))}, now "
                f"{_short(info.get(name))}); use a new --out or --force"
            )
    provenance.verify(
        before,
        run,
        [(p, d) for p in packets for d in p.documents],
        hint="continue the run with the packets it was extracted from",
    )
    return before
