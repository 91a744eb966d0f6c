"""The async runner: every job's request, retries, cache, cost and record.

One coroutine per worker (`--concurrency` of them) takes the next job, prepares its input (in
one helper thread: pdfium is not thread-safe), asks the cache, then sends the request through
the adaptive limiter, retrying transient failures within the provider's budget. Whatever
happens, a document that finished gets one record, written atomically before the next job
starts; a fatal failure (bad key, unknown model, refused reasoning level) or a spent
`--max-cost` stops new requests, lets those in flight finish, and leaves the rest for
`--resume`. Every attempt is one line of ``RUN/requests.jsonl``.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from packetbench.benchmark.grounding import citations, confidences
from packetbench.benchmark.grounding import native as native_cite
from packetbench.benchmark.grounding.schema import NATIVE
from packetbench.benchmark.harness import answer, estimate, inputs, prompts
from packetbench.benchmark.harness.budget import Budget
from packetbench.benchmark.harness.cache import ResponseCache, key
from packetbench.benchmark.harness.limiter import AdaptiveLimiter
from packetbench.benchmark.harness.progress import Reporter, Tally
from packetbench.benchmark.harness.redact import Redactor
from packetbench.benchmark.harness.retry import RetryPolicy
from packetbench.benchmark.providers.api import ApiProvider, Prompt, ProviderFailure, Reply
from packetbench.benchmark.providers.pricing import Price
from packetbench.benchmark.records import ExtractionRecord, Status, Usage
from packetbench.benchmark.records import record_path as _record_path
from packetbench.core import stopping
from packetbench.core.errors import BadInput
from packetbench.core.worker_pool import worker_pool
from packetbench.core.writing import write_json
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.truth.packets import DocInfo, Packet

LOG = "requests.jsonl"
GRACE_S = 10.0  # beyond the SDK's own timeout, the runner's backstop
# From this many documents on, inputs are prepared in worker processes: reading workbooks and
# rendering pages is CPU work that would otherwise hold the event loop's interpreter (a few
# milliseconds a workbook, tens a rendered page); below it, starting processes costs more.
PROCESS_INPUTS_FROM = 40


def _preparer(jobs: int) -> tuple[Executor, str]:
    """Where inputs are prepared, and how run.json says so.

    Worker processes are forked, which is instant, and only from a process with no other
    thread (forking a threaded process can deadlock the child); otherwise, and for small runs,
    one helper thread (one: pdfium is not thread-safe). The workers die with the run: a forked
    worker holds its own copy of the task pipe, so after a `kill -9` of the run it would wait
    for work forever (core.worker_pool).
    """
    cores = os.cpu_count() or 1
    if (
        jobs >= PROCESS_INPUTS_FROM
        and cores > 1
        and stopping.alone()
        and "fork" in multiprocessing.get_all_start_methods()
    ):
        workers = min(4, cores - 1)
        return (
            worker_pool(workers, "fork"),
            f"{workers} worker process{'es' if workers > 1 else ''}",
        )
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="pb-input"), "one thread"


@dataclass(frozen=True)
class Job:
    packet: Packet
    doc: DocInfo
    fresh: bool = False  # ignore the cache (re-requesting a failed document)
    earlier: int = 0  # attempts it already had (an item a batch failed on), for its record


@dataclass(frozen=True)
class Built:
    """One document made ready to send."""

    request: dict[str, Any]
    digest: str  # its response-cache key
    prompt: Prompt
    document: inputs.DocumentInput
    schema: dict[str, Any]


@dataclass(frozen=True)
class Native:
    """What `--cite native`'s second request of a document gave."""

    citations: list[citations.Citation]
    reply: Reply | None  # None: nothing was asked, or the request failed
    cached: bool


@dataclass
class Outcome:
    tally: Tally
    fatal: str | None = None
    budget_spent: bool = False
    not_started: int = 0
    by_status: dict[str, int] = field(default_factory=dict)


class Runner:
    def __init__(
        self,
        provider: ApiProvider,
        run: Path,
        *,
        schemas: dict[str, dict[str, Any]],
        concurrency: int,
        policy: RetryPolicy,
        cache: ResponseCache,
        price: Price | None,
        max_cost_usd: float | None,
        reporter: Reporter,
        redactor: Redactor,
        seed: int | None = None,
        repeat: int = 1,
    ) -> None:
        self.provider = provider
        # Which repeat of a repeated run (--repeats) this is: a repeat past the first has
        # cache keys of its own, or every repeat would be the first one's answers again.
        self.repeat = repeat
        self.run = run
        self.schemas = schemas  # schema name -> schema as sent to this provider
        self.concurrency = concurrency
        self.policy = policy
        self.cache = cache
        self.price = price
        self.max_cost_usd = max_cost_usd
        self.reporter = reporter
        self.redact = redactor
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.fatal: str | None = None
        self.started = time.monotonic()
        self._log: IO[str] | None = None
        self._limiter: AdaptiveLimiter | None = None
        self._budget: Budget | None = None
        self._prep: Executor | None = None
        self.preparation = ""
        self._template_key = key({"parameters": provider.request_template()})
        self._schema_keys = {name: key({"schema": schema}) for name, schema in schemas.items()}
        self._by_status: dict[str, int] = {}
        self._abandoned = 0  # started, then stopped by a fatal failure: no record

    # -- the run -----------------------------------------------------------------------------

    async def execute(self, jobs: list[Job]) -> Outcome:
        self._limiter = AdaptiveLimiter(self.concurrency)
        self._budget = Budget(self.max_cost_usd)
        self.tally.total = len(jobs)
        self.provider.concurrency = self.concurrency
        self._prep, self.preparation = _preparer(len(jobs))
        queue: asyncio.Queue[Job] = asyncio.Queue()
        for job in jobs:
            queue.put_nowait(job)
        self.reporter.start(len(jobs))
        with open(self.run / LOG, "a", encoding="utf-8") as self._log:
            try:
                await self._drive(queue, len(jobs))
            finally:
                self.reporter.stop()
                self._prep.shutdown(wait=True, cancel_futures=True)
                await self.provider.aclose()
        return Outcome(
            self.tally,
            self.fatal,
            self._budget.exhausted,
            queue.qsize() + self._abandoned,
            dict(sorted(self._by_status.items())),
        )

    async def _drive(self, queue: asyncio.Queue[Job], jobs: int) -> None:
        """Work the queue down: `--concurrency` workers, one request each at a time."""
        workers = [
            asyncio.create_task(self._worker(queue))
            for _ in range(min(self.concurrency, max(1, jobs)))
        ]
        await asyncio.gather(*workers)

    def _stopping(self) -> bool:
        assert self._budget is not None
        return self.fatal is not None or self._budget.exhausted

    async def _worker(self, queue: asyncio.Queue[Job]) -> None:
        while not self._stopping():
            try:
                job = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                started = await self._job(job)
            except BadInput as error:  # the document itself cannot be read
                started = True
                self._write(
                    job,
                    self._record(
                        job, "error", None, None, 0, 0.0, None, f"unreadable document: {error}"
                    ),
                    None,
                )
            except Exception as error:  # a bug or an SDK surprise: record it, keep running
                started = True
                self._write(
                    job,
                    self._record(
                        job,
                        "error",
                        None,
                        None,
                        0,
                        0.0,
                        None,
                        f"harness failure: {type(error).__name__}: {error}",
                    ),
                    None,
                )
            if not started:
                queue.put_nowait(job)  # never sent: left for --resume
                return

    # -- one document --------------------------------------------------------------------------

    async def _job(self, job: Job) -> bool:
        """Process one document; False when it was not started (the run is stopping)."""
        assert self._budget is not None
        built = await self._build(job)
        request, digest = built.request, built.digest
        if not job.fresh and (cached := self.cache.get(digest)) is not None:
            self._event(job, event="attempt", attempt=0, result="cache hit", cache=digest)
            native = await self._native(job, built, digest, cached)
            self._finish(job, cached, attempts=0, latency=0.0, cached=True, native=native)
            return True
        reserve = self._estimate(job, built)
        if self._stopping() or not await self._budget.admit(reserve):
            return False
        spent = 0.0
        try:
            reply, attempts, latency, failure = await self._send(job, request)
            attempts += job.earlier
            if reply is not None:
                # Cached before --cite native's second request, which may fail or be cut off.
                self._cache(digest, reply)
                native = await self._native(job, built, digest, reply)
                spent = self._finish(
                    job, reply, attempts=attempts, latency=latency, cached=False, native=native
                )
            elif failure is not None:
                self._failed(job, failure, attempts, latency)
        finally:
            await self._budget.settle(reserve, spent)
        return True

    def _cache(self, digest: str, reply: Reply) -> None:
        provider = self.provider
        self.cache.put(digest, reply, {"provider": provider.name, "model": provider.model})

    def _answered(
        self, job: Job, digest: str, reply: Reply, attempts: int, latency: float
    ) -> float:
        """Cache a fresh reply and write its record; the dollars it cost (a batch's items)."""
        self._cache(digest, reply)
        return self._finish(job, reply, attempts=attempts, latency=latency, cached=False)

    async def _native(self, job: Job, built: Built, digest: str, reply: Reply) -> Native | None:
        """`--cite native`: the second request of a PDF document whose first answer was read,
        asking the provider to cite the document for each value it gave (`grounding.native`).
        None when there is nothing to ask (another mode, another format, no answer)."""
        provider = self.provider
        if provider.settings.cite != NATIVE or job.doc.format != "pdf":
            return None
        parsed = answer.parse_reply(
            reply, DOC_TYPES[job.doc.schema].model, provider.max_output_tokens
        )
        if parsed.status != "ok" or parsed.output is None:
            return None
        values = native_cite.leaves(parsed.output)
        if not values:
            return Native([], None, cached=False)
        listing = native_cite.question(values)
        request = provider.citation_request(built.prompt, prompts.native_question(listing))
        second = key({"native_citations": digest, "listing": listing})
        if not job.fresh and (cached := self.cache.get(second)) is not None:
            self._event(job, event="citations", result="cache hit", cache=second)
            found = native_cite.read(cached.cited or [], values, built.document.pages or 0)
            return Native(found, cached, cached=True)
        got, attempts, _, failure = await self._send(job, request)
        if got is None:
            assert failure is not None
            self._event(job, event="citations", result=failure.kind, message=failure.message)
            return Native([], None, cached=False)  # its values count as uncited
        self._cache(second, got)
        self._event(job, event="citations", result="answer", attempts=attempts)
        found = native_cite.read(got.cited or [], values, built.document.pages or 0)
        return Native(found, got, cached=False)

    def _failed(self, job: Job, failure: ProviderFailure, attempts: int, latency: float) -> None:
        """A request that got no answer: a fatal failure stops the run (no record); any
        other is the document's record."""
        if failure.kind == "fatal":
            self.fatal = self.fatal or self.redact.text(f"{self.provider.name}: {failure.message}")
            self._abandoned += 1
            return
        status: Status = "timeout" if failure.kind == "timeout" else "error"
        self._write(
            job,
            self._record(job, status, None, None, attempts, latency, None, failure.message),
            None,
        )

    def _estimate(self, job: Job, built: Built) -> float:
        """The dollars `--max-cost` reserves for a request (0 without a cap)."""
        assert self._budget is not None
        if self.price is None or self._budget.max_usd is None:
            return 0.0
        # One's own documents have no truth to size a perfect answer by: the cap bounds it.
        output = (
            self.provider.max_output_tokens
            if job.packet.truthless
            else estimate.output_tokens(job.packet.truth(job.doc.doc_id))
        )
        return self.price.cost(
            estimate.input_tokens(
                built.prompt, built.document, built.schema, self.provider.page_tokens
            ),
            output,
            0,
        )

    async def _build(self, job: Job) -> Built:
        """The document's input, prompt, request and cache key."""
        loop = asyncio.get_running_loop()
        provider, doc = self.provider, job.doc
        document = await loop.run_in_executor(
            self._prep,
            inputs.build_file,
            job.packet.path / doc.file,
            provider.settings.input_mode,
            provider.accepts_native_pdf,
            provider.image_dpi,
        )
        schema = self.schemas[doc.schema]
        prompt = prompts.render(
            doc.schema,
            schema,
            document,
            provider.answer_instruction(),
            provider.settings.evidence,
            doc.format,
            provider.settings.confidence,
        )
        request = provider.document_request(prompt, doc.schema, schema, job.packet, doc)
        digest = key(
            {
                "provider": provider.name,
                "model": provider.model,
                "base_url": provider.settings.base_url,
                "parameters": self._template_key,
                "prompt": prompts.digest(prompt),
                "schema": self._schema_keys[doc.schema],
                "document": document.sha256,
                "input": document.describe(),
                **({"repeat": self.repeat} if self.repeat > 1 else {}),
            }
        )
        self._event(job, event="input", **document.describe())
        return Built(request, digest, prompt, document, schema)

    async def _send(
        self,
        job: Job,
        request: dict[str, Any],
    ) -> tuple[Reply | None, int, float, ProviderFailure | None]:
        """The reply, or the last failure when the budget ran out or it cannot be retried."""
        assert self._limiter is not None
        attempts, latency, history = 0, 0.0, []
        timeout = self.provider.settings.timeout_s
        while True:
            await self._limiter.acquire()
            attempts += 1
            self.tally.requests += 1
            clock = time.monotonic()
            failure: ProviderFailure | None = None
            reply: Reply | None = None
            try:
                reply = await asyncio.wait_for(self.provider.send(request), timeout + GRACE_S)
            except ProviderFailure as caught:
                failure = caught
            except TimeoutError:
                failure = ProviderFailure("timeout", f"no answer within {timeout:g} s")
            finally:
                elapsed = time.monotonic() - clock
                latency += elapsed
                await self._limiter.release(ok=reply is not None)
            if reply is not None:
                self._event(
                    job,
                    event="attempt",
                    attempt=attempts,
                    result="answer",
                    latency_s=round(elapsed, 3),
                    finish_reason=reply.finish_reason,
                )
                return reply, attempts, latency, None
            assert failure is not None
            history.append(str(failure.status or failure.kind))
            if failure.kind == "rate_limit":
                await self._limiter.throttle(failure.retry_after)
            retry = failure.transient and attempts <= self.policy.retries and not self._fatal_now()
            wait = self.policy.delay(attempts, failure.retry_after, self.rng) if retry else None
            self._event(
                job,
                event="attempt",
                attempt=attempts,
                result=failure.kind,
                http_status=failure.status,
                retry_after=failure.retry_after,
                wait_s=None if wait is None else round(wait, 3),
                latency_s=round(elapsed, 3),
                message=failure.message,
            )
            if wait is None:
                if failure.transient:
                    failure.message = (
                        f"gave up after {attempts} attempt"
                        f"{'s' if attempts > 1 else ''} "
                        f"({', '.join(history)}): {failure.message}"
                    )
                return None, attempts, latency, failure
            self.tally.retries += 1
            await asyncio.sleep(wait)

    def _fatal_now(self) -> bool:
        return self.fatal is not None

    def _finish(
        self,
        job: Job,
        reply: Reply,
        *,
        attempts: int,
        latency: float,
        cached: bool,
        native: Native | None = None,
    ) -> float:
        """Judge a reply and write its record; returns the dollars it cost this run. With
        `native` (--cite native), its citations are the record's, and its request's tokens
        and cost count in the record's usage and the run's tally."""
        cap = self.provider.max_output_tokens
        cite = self.provider.settings.evidence
        confident = self.provider.settings.confidence
        parsed = answer.parse_reply(
            reply, DOC_TYPES[job.doc.schema].model, cap, cited=cite is not None, confident=confident
        )
        cost = self._cost(reply)
        record = self._record(
            job,
            parsed.status,
            parsed.output,
            reply.text,
            attempts,
            latency,
            reply,
            parsed.error,
            cost,
        )
        if cite is not None and parsed.status == "ok":
            record.citations = citations.convert(
                parsed.evidence, job.doc.format, cite, job.packet.path / job.doc.file
            )
        if confident and parsed.status == "ok":
            record.confidences = confidences.convert(parsed.confidence)
        spent = self._count(reply, cost, cached)
        if native is not None and parsed.status == "ok":
            record.citations = native.citations
            if native.reply is not None:
                more = native.reply
                extra = (
                    self.price.cost(more.input_tokens, more.output_tokens, more.reasoning_tokens)
                    if self.price
                    else 0.0
                )
                usage = record.usage
                usage.input_tokens += more.input_tokens
                usage.output_tokens += more.output_tokens
                usage.reasoning_tokens += more.reasoning_tokens
                usage.cost_usd = round(usage.cost_usd + extra, 6)
                spent += self._count(more, extra, native.cached, document=False)
        self._write(job, record, parsed.reading or reply.note)
        return spent

    def _cost(self, reply: Reply) -> float:
        """The dollars of one reply: as its answerer reported them, else priced."""
        if reply.cost_usd is not None:
            return reply.cost_usd
        if self.price is None:
            return 0.0
        return self.price.cost(reply.input_tokens, reply.output_tokens, reply.reasoning_tokens)

    def _count(self, reply: Reply, cost: float, cached: bool, document: bool = True) -> float:
        """Add a reply's tokens and cost to the tally; the dollars it cost this run. A
        `document`'s cached reply counts one cached document."""
        tally = self.tally
        tally.input_tokens += reply.input_tokens
        tally.output_tokens += reply.output_tokens
        tally.reasoning_tokens += reply.reasoning_tokens
        if cached:
            tally.cached += int(document)
            tally.cached_usd += cost
            return 0.0
        tally.spent_usd += cost
        return cost

    def _record(
        self,
        job: Job,
        status: Status,
        output: dict[str, Any] | None,
        raw_text: str | None,
        attempts: int,
        latency: float,
        reply: Reply | None,
        error: str | None,
        cost: float = 0.0,
    ) -> ExtractionRecord:
        usage = (
            Usage(
                input_tokens=reply.input_tokens,
                output_tokens=reply.output_tokens,
                reasoning_tokens=reply.reasoning_tokens,
                cost_usd=round(cost, 6),
            )
            if reply
            else Usage()
        )
        return ExtractionRecord(
            packet_id=job.packet.packet_id,
            doc_id=job.doc.doc_id,
            doc_type=job.doc.doc_type,
            status=status,
            output=output,
            raw_text=raw_text,
            attempts=attempts,
            latency_s=round(latency, 3),
            usage=usage,
            finish_reason=reply.finish_reason if reply else None,
            error=error,
        )

    def _write(self, job: Job, record: ExtractionRecord, reading: str | None) -> None:
        data = self.redact.clean(record.to_json())
        write_json(_record_path(self.run, job.packet.packet_id, job.doc.doc_id), data)
        self._event(
            job,
            event="record",
            status=record.status,
            attempts=record.attempts,
            reading=reading,
            error=record.error,
        )
        self._by_status[record.status] = self._by_status.get(record.status, 0) + 1
        self.tally.done += 1
        if record.status == "ok":
            self.tally.ok += 1
        else:
            self.tally.failed += 1
        self.reporter.update(self.tally)

    def _event(self, job: Job, **fields: Any) -> None:
        assert self._log is not None
        line = {
            "t": round(time.monotonic() - self.started, 3),
            "packet_id": job.packet.packet_id,
            "doc_id": job.doc.doc_id,
            **fields,
        }
        self._log.write(json.dumps(self.redact.clean(line), ensure_ascii=False) + "\n")
        self._log.flush()
