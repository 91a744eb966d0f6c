"""One invocation of an API extraction: check, plan, write run.json, run, complete run.json.

run.json is written before the first request (status "running") and completed after the
last; a killed run leaves "running" and every finished record, and `--resume` picks it up.
`dry_run` plans the same documents and estimates their tokens and dollars without sending or
writing anything.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from packetbench import __version__
from packetbench.benchmark import provenance
from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.harness import batch_log, estimate, inputs, prompts
from packetbench.benchmark.harness.batching import BatchRunner
from packetbench.benchmark.harness.cache import ResponseCache, default_folder, usable_folder
from packetbench.benchmark.harness.progress import ProgressBar, Reporter, Silent
from packetbench.benchmark.harness.redact import Redactor
from packetbench.benchmark.harness.retry import RetryPolicy
from packetbench.benchmark.harness.runner import LOG, Runner
from packetbench.benchmark.harness.worklist import (
    api_info,
    check_continuation,
    sent_schemas,
    work_list,
)
from packetbench.benchmark.providers import pricing
from packetbench.benchmark.providers.api import ApiProvider, ProviderStopped
from packetbench.benchmark.providers.batch import BatchProvider
from packetbench.benchmark.records import read_record, record_path
from packetbench.benchmark.run_folder import ExtractSummary, git, prepare_run
from packetbench.benchmark.runs import (
    DocumentCounts,
    Git,
    Invocation,
    RunInfo,
    UsageTotals,
    write_run,
)
from packetbench.core import stopping
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.versions import versions
from packetbench.generator.schema_files import all_schemas, schema_bytes
from packetbench.truth.packets import Packet


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _check(options: HarnessOptions, force: bool) -> None:
    if options.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    # NaN compares false with everything: a NaN cap would never stop a run.
    cost = options.max_cost_usd
    if cost is not None and (not math.isfinite(cost) or cost <= 0):
        raise UsageError(f"--max-cost must be a positive number of dollars (got {cost})")
    backoff = options.backoff_base_s
    if not math.isfinite(backoff) or backoff < 0:
        raise UsageError(f"--backoff must be a finite number of seconds, 0 or more (got {backoff})")
    poll = options.poll_interval_s
    if not math.isfinite(poll) or poll <= 0:
        raise UsageError(f"--poll-interval must be a positive number of seconds (got {poll})")
    if options.batch_size is not None and options.batch_size < 1:
        raise UsageError(f"--batch-size must be at least 1 (got {options.batch_size})")
    if force and (options.resume or options.retry_failed):
        raise UsageError(
            "--force starts the run over; it cannot be combined with --resume or --retry-failed"
        )


@dataclass(frozen=True)
class Setup:
    used: set[str]
    sent: dict[str, dict[str, Any]]
    price: pricing.Price | None
    info: RunInfo


def used_schemas(packets: list[Packet], packets_dir: Path) -> set[str]:
    """The schemas the documents of `packets` use, each known and with a prompt (BadInput
    naming `packets_dir` otherwise)."""
    used = {d.schema for p in packets for d in p.documents}
    unknown = sorted(used - set(all_schemas()))
    if unknown:
        raise BadInput(f"{packets_dir}: documents of unknown schema {unknown[0]!r}")
    prompts.check(used)
    return used


def _setup(
    provider: ApiProvider,
    packets: list[Packet],
    packets_dir: Path,
    out: Path,
    options: HarnessOptions,
) -> Setup:
    schemas = all_schemas()
    used = used_schemas(packets, packets_dir)
    sent = sent_schemas(provider, {name: schemas[name] for name in used})
    if options.batch and not isinstance(provider, BatchProvider):
        raise UsageError(f"--batch: provider {provider.name} has no batch API in packetbench")
    price = pricing.price(pricing.load(options.pricing), provider.model)
    if price is not None and options.batch:
        price = price.for_batch()
    if options.max_cost_usd is not None and price is None and not provider.reports_cost:
        raise UsageError(
            f"--max-cost needs a price for model {provider.model!r}, which the "
            "pricing table lacks (add it with --pricing FILE)"
        )
    policy = RetryPolicy(provider.retries, options.backoff_base_s, options.backoff_cap_s)
    repeat = options.repeat
    info: dict[str, Any] = {
        "run_id": out.resolve().name if repeat is None else repeat.run_id,
        "provider": provider.name,
        **provider.describe(),
        **({"repeat": repeat.describe()} if repeat is not None else {}),
        "retry": policy.describe(),
        **({"selection": chosen} if (chosen := options.selection.describe()) else {}),
        "concurrency": options.concurrency,
        "max_cost_usd": options.max_cost_usd,
        **(
            {
                "batch": {
                    "log": batch_log.NAME,
                    "poll_interval_s": options.poll_interval_s,
                    "batch_size": options.batch_size,
                }
            }
            if options.batch
            else {}
        ),
        "pricing": price.describe() if price else None,
        "cache": {
            "enabled": options.use_cache,
            "folder": str(options.cache_dir or default_folder()) if options.use_cache else None,
        },
        "packets_dir": str(packets_dir.resolve()),
        "packets": [provenance.packet_entry(p) for p in packets],
        "schemas": {
            name: hashlib.sha256(schema_bytes(schema)).hexdigest()
            for name, schema in schemas.items()
        },
        **api_info(provider, used, sent),
        "request_log": LOG,
        "toolkit_version": __version__,
        "versions": {**versions(), provider.sdk: provider.sdk_version()},
    }
    return Setup(used, sent, price, RunInfo.model_validate(info))


def run_api(
    provider: ApiProvider,
    packets: list[Packet],
    packets_dir: Path,
    out: Path,
    force: bool,
    options: HarnessOptions,
) -> ExtractSummary:
    _check(options, force)
    setup = _setup(provider, packets, packets_dir, out, options)
    provider.api_key()  # a missing key fails here, before anything is written
    cache = usable_folder(options.cache_dir or default_folder()) if options.use_cache else None
    redactor = Redactor(provider.secrets())
    info = setup.info
    continuing = options.resume or options.retry_failed
    if continuing:
        before = check_continuation(out, info, packets)
        invocations = list(before.invocations or [])
        info.git = before.git
    else:
        prepare_run(out, force)
        invocations = []
        info.git = Git.model_validate(git())  # at the start; each invocation records its own
    if continuing:
        # Read (and checked) before run.json changes: a damaged batch log changes nothing.
        documents = {(p.packet_id, d.doc_id) for p in packets for d in p.documents}
        if batch_log.load(out, documents).open_entries() and not options.batch:
            raise UsageError(
                f"{out}: the run has provider batches in flight "
                f"({batch_log.NAME}); continue it with --batch"
            )
    work = work_list(packets, out, resume=options.resume, retry_failed=options.retry_failed)
    mode = (
        "+".join(
            m
            for m, on in (("resume", options.resume), ("retry-failed", options.retry_failed))
            if on
        )
        or "new"
    )
    invocation = Invocation.model_validate(
        {"started_at": _now(), "mode": mode, "requested": len(work.jobs), "git": git()}
    )
    invocations.append(invocation)
    info.invocations = invocations
    info.status = "running"
    write_run(out, info, redactor.clean)
    reporter: Reporter = (
        ProgressBar(f"{provider.name} {provider.model}") if options.progress else Silent()
    )
    batched: dict[str, Any] = {}
    runner_class: type[Runner] = Runner
    if options.batch:
        runner_class = BatchRunner
        batched = {
            "poll_s": options.poll_interval_s,
            "batch_size": options.batch_size,
            "documents": {(p.packet_id, d.doc_id) for p in packets for d in p.documents},
        }
    runner = runner_class(
        provider,
        out,
        **batched,
        schemas=setup.sent,
        concurrency=options.concurrency,
        policy=RetryPolicy(provider.retries, options.backoff_base_s, options.backoff_cap_s),
        cache=ResponseCache(cache),
        price=setup.price,
        max_cost_usd=options.max_cost_usd,
        reporter=reporter,
        redactor=redactor,
        seed=options.seed,
        repeat=options.repeat.index if options.repeat is not None else 1,
    )
    outcome = stopping.run_async(runner.execute(work.jobs))
    tally = outcome.tally
    by_status, usage, written = _on_disk(packets, out)
    stopped = "fatal" if outcome.fatal else "max-cost" if outcome.budget_spent else None
    invocation.finished_at = _now()
    invocation.by_status = outcome.by_status
    invocation.cached = tally.cached
    invocation.requests = tally.requests
    invocation.retries = tally.retries
    if options.batch:
        invocation.batches = tally.batches
    invocation.spent_usd = round(tally.spent_usd, 6)
    invocation.not_started = outcome.not_started
    invocation.stopped = stopped
    invocation.fatal = outcome.fatal
    invocation.inputs_prepared_in = runner.preparation
    info.status = "complete" if written == work.documents else "incomplete"
    info.documents = DocumentCounts(expected=work.documents, written=written, by_status=by_status)
    info.usage = UsageTotals.model_validate(usage)
    write_run(out, info, redactor.clean)
    if outcome.fatal:
        raise ProviderStopped(
            f"{outcome.fatal} (the run stopped with {written} of "
            f"{work.documents} documents written; continue with --resume "
            "once fixed)"
        )
    return ExtractSummary(
        out,
        work.documents,
        written,
        by_status,
        requested=len(work.jobs),
        skipped=work.skipped_ok + work.skipped_failed,
        cached=tally.cached,
        requests=tally.requests,
        retries=tally.retries,
        cost_usd=tally.spent_usd,
        stopped=stopped,
        not_started=outcome.not_started,
        batches=tally.batches,
    )


def _on_disk(packets: list[Packet], out: Path) -> tuple[dict[str, int], dict[str, Any], int]:
    """Statuses and summed usage of every record of the run's packets now on disk."""
    by_status: dict[str, int] = {}
    totals = {"input_tokens": 0, "output_tokens": 0, "reasoning_tokens": 0, "cost_usd": 0.0}
    written = 0
    for packet in packets:
        for doc in packet.documents:
            path = record_path(out, packet.packet_id, doc.doc_id)
            if not path.is_file():
                continue
            try:
                record = read_record(path)
            except BadInput:
                continue
            written += 1
            by_status[record.status] = by_status.get(record.status, 0) + 1
            for name in ("input_tokens", "output_tokens", "reasoning_tokens"):
                totals[name] += getattr(record.usage, name)
            totals["cost_usd"] += record.usage.cost_usd
    totals["cost_usd"] = round(totals["cost_usd"], 6)
    return dict(sorted(by_status.items())), totals, written


@dataclass(frozen=True)
class DryRun:
    documents: int
    requested: int
    input_tokens: int
    output_tokens: int  # a perfect answer's size, reasoning excluded
    cap: int  # output-token cap per completion
    price: pricing.Price | None
    model: str

    @property
    def cost_usd(self) -> float | None:
        if self.price is None:
            return None
        return self.price.cost(self.input_tokens, self.output_tokens, 0)

    @property
    def ceiling_usd(self) -> float | None:
        """If every completion used its whole cap (billed at the reasoning rate when it is
        the higher one)."""
        if self.price is None:
            return None
        rate = max(self.price.output, self.price.reasoning)
        return (
            self.input_tokens * self.price.input + self.requested * self.cap * rate
        ) / pricing.PER


def dry_run(
    provider: ApiProvider,
    packets: list[Packet],
    packets_dir: Path,
    out: Path,
    options: HarnessOptions,
) -> DryRun:
    """What a run would request and cost, without sending or writing anything."""
    _check(options, force=False)  # the options a real run would refuse are refused here too
    setup = _setup(provider, packets, packets_dir, out, options)
    if options.resume or options.retry_failed:
        check_continuation(out, setup.info, packets)
    work = work_list(packets, out, resume=options.resume, retry_failed=options.retry_failed)
    tokens_in = tokens_out = 0
    for job in work.jobs:
        document = inputs.build(
            job.packet,
            job.doc,
            provider.settings.input_mode,
            provider.accepts_native_pdf,
            provider.image_dpi,
        )
        schema = setup.sent[job.doc.schema]
        prompt = prompts.render(
            job.doc.schema,
            schema,
            document,
            provider.answer_instruction(),
            provider.settings.evidence,
            job.doc.format,
            provider.settings.confidence,
        )
        tokens_in += estimate.input_tokens(prompt, document, schema, provider.page_tokens)
        tokens_out += estimate.output_tokens(job.packet.truth(job.doc.doc_id))
    return DryRun(
        work.documents,
        len(work.jobs),
        tokens_in,
        tokens_out,
        provider.max_output_tokens,
        setup.price,
        provider.model,
    )
