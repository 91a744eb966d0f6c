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
from pathlib import Path

from packetbench import __version__
from packetbench.benchmark import provenance
from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.providers import batch_providers, listed
from packetbench.benchmark.providers.api import ApiProvider
from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.records import records_digest, write_record
from packetbench.benchmark.run_folder import (
    ExtractSummary,
    check_run_folder,
    continuation,
    git,
    prepare_run,
)
from packetbench.benchmark.runs import DocumentCounts, RunInfo, check_resume, write_run
from packetbench.core.errors import UsageError
from packetbench.core.locking import hold
from packetbench.core.versions import versions
from packetbench.generator.schema_files import all_schemas, schema_bytes
from packetbench.truth.packets import Packet, find_packets

# What must not change for `--resume` to continue a simulated run (its documents aside).
SIM_FINGERPRINT = ("provider", "model", "parameters", "selection")


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
            f"--batch is for providers with a batch API ({listed(batch_providers(), False)}); "
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
    selection = (options or HarnessOptions()).selection.describe()
    info = RunInfo.model_validate(
        {
            "run_id": out.resolve().name if repeat is None else repeat.run_id,
            "provider": provider.name,
            **provider.describe(),
            **({"repeat": repeat.describe()} if repeat is not None else {}),
            "packets_dir": str(packets_dir.resolve()),
            "packets": [provenance.packet_entry(p) for p in packets],
            # present only when documents were filtered: an unfiltered run records what it
            # always did
            **({"selection": selection} if selection is not None else {}),
            "schemas": {
                name: hashlib.sha256(schema_bytes(schema)).hexdigest()
                for name, schema in all_schemas().items()
            },
            "toolkit_version": __version__,
            "versions": dict(versions()),
            "git": git(),
            "status": "running",
        }
    )
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
    write_run(out, info)
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
    info.status = "complete"
    info.documents = DocumentCounts(
        expected=documents, written=written, by_status=dict(sorted(by_status.items()))
    )
    write_run(out, info)
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
