"""`packetbench extract`: run a provider over every document of a folder of packets.

run.json is written before the first document and completed after the last; each document's
record is written atomically as it finishes, so an interrupted run keeps every finished
document. The simulator runs here, in order; API providers run through the asynchronous
harness (`benchmark.harness`), which adds concurrency, retries, the response cache, cost
limits, `--resume` and `--retry-failed`.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench import __version__
from packetbench.benchmark import provenance
from packetbench.benchmark.errors import BadInput, UsageError
from packetbench.benchmark.packets import Packet, find_packets
from packetbench.benchmark.providers.api import ApiProvider
from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.providers.sim import LEDGER
from packetbench.benchmark.repeats import FOLDER as REPEATS_FOLDER
from packetbench.benchmark.repeats import Repeat, check_resume
from packetbench.benchmark.runs import (
    continuation,
    read_run,
    records_digest,
    write_json,
    write_record,
)
from packetbench.benchmark.selection import Selection
from packetbench.generator.schema_files import all_schemas, schema_bytes
from packetbench.generator.truth import versions
from packetbench.locking import LOCK_NAME, hold


@dataclass(frozen=True)
class ExtractSummary:
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
    def failures(self) -> dict[str, int]:
        """Documents of the run that `score` will leave out, by status ("missing": no
        record; "invalid" counts ok records whose output breaks its schema too)."""
        found = {status: n for status, n in self.by_status.items() if status != "ok"}
        if self.schema_broken:
            found["invalid"] = found.get("invalid", 0) + self.schema_broken
        if self.documents > self.written:
            found["missing"] = self.documents - self.written
        return dict(sorted(found.items()))


@dataclass(frozen=True)
class HarnessOptions:
    """How an API run is driven (the simulator takes none of these)."""

    resume: bool = False
    retry_failed: bool = False
    concurrency: int = 8
    max_cost_usd: float | None = None
    cache_dir: Path | None = None  # None: the default cache folder
    use_cache: bool = True
    pricing: Path | None = None  # a pricing table adding to / replacing the packaged one
    backoff_base_s: float = 1.0
    backoff_cap_s: float = 60.0
    progress: bool = False
    seed: int | None = None  # of the retry jitter (tests)
    batch: bool = False  # through the provider's batch API (`--batch`)
    poll_interval_s: float = 30.0  # between two polls of the batches in flight
    batch_size: int | None = None  # requests per batch at most (None: the provider's limit)
    selection: Selection = field(default_factory=Selection)  # --tiers, --doc-types, ..
    repeat: Repeat | None = None  # which repeat of a repeated run this is (--repeats)


def _selected(options: HarnessOptions | None) -> dict[str, Any]:
    """run.json's `selection`, present only when documents were filtered: an unfiltered run
    records what it always did."""
    described = (options or HarnessOptions()).selection.describe()
    return {} if described is None else {"selection": described}


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


# What must not change for `--resume` to continue a simulated run (its documents aside).
SIM_FINGERPRINT = ("provider", "model", "parameters", "selection")
# What the tool writes in a run folder; --force removes these and nothing else (a user's own
# notes.json beside them stays).
RUN_CONTENTS = (
    "run.json",
    "batches.json",
    LEDGER,
    "extractions",
    "scores",
    "results.duckdb",
    "requests.jsonl",
    REPEATS_FOLDER,
)


def check_run_folder(out: Path, force: bool) -> None:
    """Refuse an output that is neither new, empty, nor a run that `force` may replace."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    if not out.is_dir():
        return
    if (out / "run.json").exists():
        if not force:
            try:
                status = read_run(out, repeats=True).get("status")
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
    if (out / "run.json").exists():
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


def extract(
    provider: Provider,
    packets_dir: Path,
    out: Path,
    force: bool = False,
    options: HarnessOptions | None = None,
) -> ExtractSummary:
    """Extract every document of the packets in `packets_dir` into the run folder `out`,
    holding `out` for the whole run (a second writer is refused, naming this one)."""
    packets = (options or HarnessOptions()).selection.apply(
        find_packets(packets_dir), str(packets_dir)
    )
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    with hold(out):
        chosen = options or HarnessOptions()
        if (chosen.resume or chosen.retry_failed) and chosen.repeat is None:
            check_resume(out, 1)  # a repeated run is continued with its --repeats
        return _extract(provider, packets, packets_dir, out, force, options)


def check_harness(provider: Provider, options: HarnessOptions | None) -> None:
    """UsageError for harness options `provider` cannot take (before anything is written)."""
    if isinstance(provider, ApiProvider):
        if options is not None and options.batch and provider.settings.cite == "native":
            raise UsageError(
                "--cite native asks each document's citations in a second request after its "
                "answer, which a batch cannot do: use --cite page or box with --batch"
            )
        return
    if options is not None and options.batch:
        raise UsageError(
            f"--batch is for providers with a batch API (openai, anthropic, gemini); "
            f"{provider.name} has none"
        )
    if options is not None and options.retry_failed:
        raise UsageError(
            f"--retry-failed is for API providers: the failures of a "
            f"{provider.name} run are part of the run, and come back the same"
        )


def _extract(
    provider: Provider,
    packets: list[Packet],
    packets_dir: Path,
    out: Path,
    force: bool,
    options: HarnessOptions | None,
) -> ExtractSummary:
    check_harness(provider, options)
    if isinstance(provider, ApiProvider):
        from packetbench.benchmark.harness.session import run_api

        return run_api(provider, packets, packets_dir, out, force, options or HarnessOptions())
    resume = options is not None and options.resume
    if resume and force:
        raise UsageError("--force starts the run over; it cannot be combined with --resume")
    if not resume:
        check_run_folder(out, force)
    repeat = options.repeat if options is not None else None
    info: dict[str, Any] = {
        "run_id": out.resolve().name if repeat is None else repeat.run_id,
        "provider": provider.name,
        **provider.describe(),
        **({"repeat": repeat.describe()} if repeat is not None else {}),
        "packets_dir": str(packets_dir.resolve()),
        "packets": [provenance.packet_entry(p) for p in packets],
        **_selected(options),
        "schemas": {
            name: hashlib.sha256(schema_bytes(schema)).hexdigest()
            for name, schema in all_schemas().items()
        },
        "toolkit_version": __version__,
        "versions": dict(versions()),
        "git": git(),
        "status": "running",
    }
    for packet in packets:
        provider.check(packet)
    if resume:
        # A simulated run is cheap and its ledger covers the whole run: continuing it is
        # making it again, once it is sure to be the same run (same settings, same documents).
        continuation(out, info, packets, SIM_FINGERPRINT)
    # After every packet proved whole: a broken one changes nothing. A resumed run keeps
    # its scores unless its records come out other than those they were scored from (the
    # database says which; without one, those the resume started from).
    before = records_digest(out) if resume else None
    if resume:
        from packetbench.benchmark.results.database import scored_digest

        before = scored_digest(out) or before
    if not resume:
        prepare_run(out, force)
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
    info.update(
        status="complete",
        documents={
            "expected": documents,
            "written": written,
            "by_status": dict(sorted(by_status.items())),
        },
    )
    write_json(out / "run.json", info)
    if before is not None and records_digest(out) != before:
        for stale in ("scores", "results.duckdb"):
            target = out / stale
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
    return ExtractSummary(
        out,
        documents,
        written,
        dict(sorted(by_status.items())),
        schema_broken=provider.schema_broken(),
    )
