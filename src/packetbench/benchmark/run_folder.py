"""A run folder as a whole: what the tool writes in it, when it may be replaced or continued,
which documents it covers, and what an extraction into it came to.

`check_run_folder` refuses an output that is neither new, empty, nor a run `--force` may
replace; `prepare_run` clears what a new run rewrites (and nothing else: a user's notes.json
beside a run stays); `continuation` proves a continued run is the same run (settings and
documents); `listed_documents` gives the documents run.json lists, found in the packets.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.benchmark import provenance
from packetbench.benchmark.runs import REPEATS_FOLDER, RUN_FILE, RunInfo, is_run, read_run
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.locking import LOCK_NAME
from packetbench.truth.packets import DocInfo, Packet

LEDGER = "sim_injections.json"  # the simulator's ledger of what it injected
BATCH_LOG = "batches.json"  # the provider batches an API run submitted (--batch)
REQUEST_LOG = "requests.jsonl"
# What the tool writes in a run folder; --force removes these and nothing else (a user's own
# notes.json beside them stays).
RUN_CONTENTS = (
    RUN_FILE,
    BATCH_LOG,
    LEDGER,
    "extractions",
    "scores",
    "results.duckdb",
    REQUEST_LOG,
    REPEATS_FOLDER,
)


@dataclass(frozen=True)
class ExtractSummary:
    """What one extraction into a run folder came to."""

    run: Path
    documents: int
    written: int
    by_status: dict[str, int]
    requested: int = 0  # documents this invocation set out to extract
    skipped: int = 0  # documents left alone because they had finished before
    cached: int = 0  # answered from the response cache
    requests: int = 0  # HTTP requests sent
    retries: int = 0
    cost_usd: float = 0.0  # spent by this invocation
    stopped: str | None = None  # why new requests stopped early ("max-cost")
    not_started: int = 0  # documents left for --resume
    batches: int = 0  # provider batches created (--batch)
    # ok records whose output breaks its schema (the simulator's injected ones): `score`
    # leaves them out, so they count among the failures as `invalid`
    schema_broken: int = 0

    @property
    def ok(self) -> int:
        """Documents `score` will score: ok records whose output fits its schema."""
        return self.by_status.get("ok", 0) - self.schema_broken

    @property
    def statuses(self) -> dict[str, int]:
        """The written records by status as `score` counts them: an ok record whose output
        breaks its schema is invalid, not ok."""
        found = dict(self.by_status)
        if self.schema_broken:
            found["ok"] = self.ok
            found["invalid"] = found.get("invalid", 0) + self.schema_broken
        return {status: n for status, n in sorted(found.items()) if n}

    @property
    def failures(self) -> dict[str, int]:
        """Documents of the run that `score` will leave out, by status ("missing": no
        record; "invalid" counts ok records whose output breaks its schema too)."""
        found = {status: n for status, n in self.by_status.items() if status != "ok"}
        if self.schema_broken:
            found["invalid"] = found.get("invalid", 0) + self.schema_broken
        if self.documents > self.written:
            found["missing"] = self.documents - self.written
        return dict(sorted(found.items()))


def git() -> dict[str, Any]:
    """The commit of the packetbench checkout running this (None outside a checkout)."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": bool(dirty)}


def check_run_folder(out: Path, force: bool) -> None:
    """Refuse an output that is neither new, empty, nor a run that `force` may replace."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    if not out.is_dir():
        return
    if (out / RUN_FILE).exists():
        if not force:
            try:
                status = read_run(out, repeats=True).status
            except BadInput:
                status = None
            unfinished = (
                "continue it with --resume, or replace it with --force"
                if status in ("running", "incomplete")
                else "use --force to replace it"
            )
            raise UsageError(f"{out}: a run already exists here ({unfinished})")
        return
    held = sorted(p.name for p in out.iterdir() if p.name != LOCK_NAME)
    if held:
        raise UsageError(
            f"{out}: not a run folder (it holds {held[0]} and no run.json); "
            "write the run into a new or empty folder"
        )


def prepare_run(out: Path, force: bool) -> None:
    """Refuse what `check_run_folder` refuses; with `force`, clear what a new run rewrites."""
    check_run_folder(out, force)
    if (out / RUN_FILE).exists():
        for name in RUN_CONTENTS:
            target = out / name
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{out}: cannot create the run folder ({error.strerror})") from None


def listed_documents(
    info: RunInfo,
    run: Path,
    packets: list[Packet],
) -> list[tuple[Packet, DocInfo]]:
    """The documents `run.json` (read as `info`) lists, in packet and document order, each
    found in `packets`; BadInput naming run.json otherwise."""
    by_id = {p.packet_id: p for p in packets}
    if info.packets is None:
        raise BadInput(f"{run / RUN_FILE}: no packets list")
    selected: list[tuple[Packet, DocInfo]] = []
    for entry in info.packets:
        packet = by_id.get(entry.packet_id)
        if packet is None:
            raise BadInput(
                f"{run / RUN_FILE}: packet {entry.model_dump(exclude_unset=True)!r} is not in "
                "the packets folder"
            )
        wanted = set(entry.documents or [d.doc_id for d in packet.documents])
        selected += [(packet, doc) for doc in packet.documents if doc.doc_id in wanted]
    return selected


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def continuation(
    run: Path, info: RunInfo, packets: list[Packet], fingerprint: tuple[str, ...]
) -> RunInfo:
    """The run.json of the run `run` continues, after checking that every `fingerprint` key
    of it equals the new run's `info` and that `packets` are the documents it was extracted
    from (a continued run must be one run, not two stitched together)."""
    if not is_run(run):
        raise UsageError(
            f"{run}: no run to continue (no run.json); start it without --resume / --retry-failed"
        )
    before = read_run(run)
    was, now = before.to_json(), info.to_json()
    for name in fingerprint:
        if name == "delivery" and name not in was:
            continue  # recorded before deliveries were: it continues as recorded
        if was.get(name) != now.get(name):
            raise UsageError(
                f"{run}: cannot continue a run made with different settings "
                f"({name} was {_short(was.get(name))}, now "
                f"{_short(now.get(name))}); use a new --out or --force"
            )
    provenance.verify(
        before,
        run,
        [(p, d) for p in packets for d in p.documents],
        hint="continue the run with the packets it was extracted from",
    )
    return before
