"""`extract --batch`: the run's requests go through the provider's batch API.

Each document's request is built exactly as an ordinary one (same prompt, schema, input and
cache key); a request the cache answers is not sent. The rest are cut into chunks within the
provider's documented limits (and `--batch-size`), each chunk recorded in ``batches.json``
before its batch is created and its id recorded as soon as the provider gives it, so a run
killed while it waits is resumed by polling the batches it submitted. An ended batch's results
are mapped back by custom id and judged like any answer; an item the batch failed on a
transient error (a 429, a 5xx) is sent again as an ordinary request; an item a batch never ran
(it expired, was cancelled, or the batch failed as a whole) gets an error record saying so,
which `--retry-failed` requests again.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, cast

from packetbench.benchmark.harness import batch_log
from packetbench.benchmark.harness.batch_log import BatchLog, Entry, Item
from packetbench.benchmark.harness.runner import Built, Job, Runner
from packetbench.benchmark.providers.api import ProviderFailure, Reply
from packetbench.benchmark.providers.batch import BatchProvider, BatchStatus, valid_batch_id
from packetbench.core.errors import BadInput

POLL_FAILURES = 20  # transient failures in a row before polling a batch is given up


@dataclass(frozen=True)
class Ready:
    job: Job
    built: Built
    item: dict[str, Any]  # the line of the provider's batch input
    size: int  # its bytes


def chunks(ready: list[Ready], max_requests: int, max_bytes: int) -> list[list[Ready]]:
    """`ready` in order, cut so no chunk passes either limit (an item alone always fits)."""
    found: list[list[Ready]] = []
    current: list[Ready] = []
    size = 0
    for entry in ready:
        if current and (len(current) >= max_requests or size + entry.size > max_bytes):
            found.append(current)
            current, size = [], 0
        current.append(entry)
        size += entry.size
    if current:
        found.append(current)
    return found


class BatchRunner(Runner):
    """A `Runner` whose requests go out as provider batches."""

    def __init__(
        self,
        *args: Any,
        poll_s: float,
        batch_size: int | None,
        documents: set[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.documents = documents  # (packet_id, doc_id) of every document of the run
        self.poll_s = poll_s
        self.batch_size = batch_size
        self.log: BatchLog | None = None
        self._pending: dict[str, Job] = {}  # custom id -> job, for documents still in batches
        self._retry: list[Job] = []  # batch items to send again as ordinary requests
        self._shown = ""
        self._unread: dict[int, int] = {}  # chunk -> failed reads of its results

    @property
    def batcher(self) -> BatchProvider:
        return cast(BatchProvider, self.provider)

    async def _drive(self, queue: asyncio.Queue[Job], jobs: int) -> None:
        assert self._budget is not None
        waiting = [queue.get_nowait() for _ in range(queue.qsize())]
        log = self.log = batch_log.load(self.run, self.documents)
        by_id = {batch_log.custom_id(j.packet.packet_id, j.doc.doc_id): j for j in waiting}
        for entry in log.open_entries():
            for item in entry.items:
                job = by_id.get(item.custom_id)
                if job is not None:  # still to be answered: its batch is polled, not redone
                    self._pending[item.custom_id] = job
        ready: list[Ready] = []
        spend = 0.0
        for job in waiting:
            custom = batch_log.custom_id(job.packet.packet_id, job.doc.doc_id)
            if custom in self._pending or self._stopping():
                if custom not in self._pending:
                    queue.put_nowait(job)
                continue
            try:
                built = await self._build(job)
            except BadInput as error:
                self._unreadable(job, error)
                continue
            if not job.fresh and (cached := self.cache.get(built.digest)) is not None:
                self._event(job, event="attempt", attempt=0, result="cache hit", cache=built.digest)
                self._finish(job, cached, attempts=0, latency=0.0, cached=True)
                continue
            # --max-cost: nothing settles until a batch ends, so the estimates of everything
            # submitted count against the cap; the first request always goes.
            reserve = self._estimate(job, built)
            cap = self._budget.max_usd
            if cap is not None and ready and spend + reserve > cap:
                self._budget.exhausted = True
                queue.put_nowait(job)
                continue
            spend += reserve
            line = self.batcher.batch_item(custom, built.request)
            ready.append(Ready(job, built, line, len(_line(line))))
            self._pending[custom] = job
        limits = self.batcher.batch_limits
        most = min(limits.requests, self.batch_size or limits.requests)
        # 1 % of the byte ceiling is left for the framing a provider adds around each line.
        for chunk in chunks(ready, most, limits.bytes * 99 // 100):
            if self.fatal is not None:  # never submitted: left for --resume
                for r in chunk:
                    del self._pending[batch_log.custom_id(r.job.packet.packet_id, r.job.doc.doc_id)]
                    queue.put_nowait(r.job)
                continue
            await self._submit(chunk)
        await self._wait()
        if self._retry:
            for job in self._retry:
                queue.put_nowait(job)
            await super()._drive(queue, len(self._retry))

    def _unreadable(self, job: Job, error: BadInput) -> None:
        self._write(
            job,
            self._record(job, "error", None, None, 0, 0.0, None, f"unreadable document: {error}"),
            None,
        )

    # -- submitting ---------------------------------------------------------------------------

    async def _submit(self, chunk: list[Ready]) -> None:
        assert self.log is not None
        items = [
            Item(
                batch_log.custom_id(r.job.packet.packet_id, r.job.doc.doc_id),
                r.job.packet.packet_id,
                r.job.doc.doc_id,
                r.built.digest,
            )
            for r in chunk
        ]
        entry = self.log.add(items)  # on disk before the batch exists
        attempts = 0
        while True:
            attempts += 1
            try:
                batch_id = await self.batcher.submit_batch([r.item for r in chunk])
                break
            except ProviderFailure as failure:
                if failure.transient and attempts <= self.policy.retries:
                    self.tally.retries += 1
                    await asyncio.sleep(self.policy.delay(attempts, failure.retry_after, self.rng))
                    continue
                self._refused(entry, chunk, failure)
                return
        if not valid_batch_id(batch_id):
            self._refused(
                entry,
                chunk,
                ProviderFailure(
                    "rejected", f"the provider answered a malformed batch id {batch_id!r}"
                ),
            )
            return
        entry.batch_id, entry.state = batch_id, "submitted"
        self.tally.batches += 1
        self.log.save()
        for r in chunk:
            self._event(r.job, event="batch", batch_id=batch_id, chunk=entry.chunk)
        self._show()

    def _refused(self, entry: Entry, chunk: list[Ready], failure: ProviderFailure) -> None:
        """A batch the provider would not create: a fatal refusal stops the run (its documents
        are left for --resume); any other is each document's error record."""
        assert self.log is not None
        entry.state, entry.message = "refused", self.redact.text(failure.message)
        self.log.save()
        for r in chunk:
            custom = batch_log.custom_id(r.job.packet.packet_id, r.job.doc.doc_id)
            del self._pending[custom]
            if failure.kind == "fatal":
                self.fatal = self.fatal or self.redact.text(
                    f"{self.provider.name}: {failure.message}"
                )
                self._abandoned += 1
            else:
                self._failed(
                    r.job,
                    ProviderFailure("rejected", f"batch not created: {failure.message}"),
                    1,
                    0.0,
                )

    # -- waiting and collecting ---------------------------------------------------------------

    async def _wait(self) -> None:
        assert self.log is not None
        misses: dict[int, int] = {}
        while True:
            # Only batches holding a document this invocation waits for: one whose documents
            # all have records (or are not requested now) stays open for a later --resume.
            mine = [
                e
                for e in self.log.open_entries()
                if any(i.custom_id in self._pending for i in e.items)
            ]
            waiting = [e for e in mine if e.batch_id is not None]
            waiting += [e for e in mine if e.batch_id is None]
            if not waiting:
                return
            for entry in waiting:
                if entry.batch_id is None:
                    # Killed between recording the chunk and learning its id: the batch may
                    # exist, but nothing can find it; its documents are sent again.
                    await self._resubmit(entry)
                    continue
                try:
                    status = await self.batcher.poll_batch(entry.batch_id)
                except ProviderFailure as failure:
                    if failure.kind == "fatal":
                        self.fatal = self.fatal or self.redact.text(
                            f"{self.provider.name}: {failure.message}"
                        )
                        return
                    misses[entry.chunk] = misses.get(entry.chunk, 0) + 1
                    if misses[entry.chunk] >= POLL_FAILURES:
                        self.fatal = self.redact.text(
                            f"{self.provider.name}: batch {entry.batch_id} could not be polled "
                            f"({failure.message}); continue with --resume --batch"
                        )
                        return
                    continue
                misses.pop(entry.chunk, None)
                if status.state != entry.provider_state:
                    entry.provider_state = status.state
                    if status.phase != "running":
                        entry.state = status.phase
                        entry.message = self.redact.text(status.message) if status.message else None
                    self.log.save()
                if status.phase != "running":
                    await self._collect(entry, status)
                    if self.fatal is not None:
                        return
            self._show()
            if any(e.state in batch_log.OPEN for e in waiting):
                await asyncio.sleep(self.poll_s)

    async def _resubmit(self, entry: Entry) -> None:
        assert self.log is not None
        entry.state, entry.message = "refused", "never given an id (the run was stopped)"
        self.log.save()
        again = [
            self._pending.pop(i.custom_id) for i in entry.items if i.custom_id in self._pending
        ]
        ready = []
        for job in again:
            built = await self._build(job)
            custom = batch_log.custom_id(job.packet.packet_id, job.doc.doc_id)
            item = self.batcher.batch_item(custom, built.request)
            ready.append(Ready(job, built, item, len(_line(item))))
            self._pending[custom] = job
        if ready:
            await self._submit(ready)

    async def _collect(self, entry: Entry, status: BatchStatus) -> None:
        assert self.log is not None and entry.batch_id is not None
        results: dict[str, Reply | ProviderFailure] = {}
        if status.phase in ("ended", "expired"):
            try:
                results = await self.batcher.batch_results(entry.batch_id)
            except ProviderFailure as failure:
                self._unread[entry.chunk] = self._unread.get(entry.chunk, 0) + 1
                if failure.kind == "fatal" or self._unread[entry.chunk] >= POLL_FAILURES:
                    self.fatal = self.redact.text(
                        f"{self.provider.name}: the results of batch {entry.batch_id} could "
                        f"not be read ({failure.message}); continue with --resume --batch"
                    )
                return  # read again at the next poll
        for item in entry.items:
            job = self._pending.pop(item.custom_id, None)
            if job is None:
                continue  # finished before (a resumed run), or not part of this invocation
            outcome = results.get(item.custom_id)
            if isinstance(outcome, Reply):
                self._event(
                    job, event="attempt", attempt=1, result="answer", batch_id=entry.batch_id
                )
                spent = (
                    self._answered(job, item.cache, outcome, 1, 0.0)
                    if item.cache
                    else self._finish(job, outcome, attempts=1, latency=0.0, cached=False)
                )
                self._budget_spend(spent)
            elif isinstance(outcome, ProviderFailure) and outcome.transient:
                self._event(
                    job,
                    event="attempt",
                    attempt=1,
                    result=outcome.kind,
                    batch_id=entry.batch_id,
                    message=outcome.message,
                )
                self._retry.append(Job(job.packet, job.doc, fresh=True, earlier=1))
            elif isinstance(outcome, ProviderFailure):
                self._failed(job, outcome, 1, 0.0)
            else:
                why = status.message or f"the batch {status.phase} without it"
                self._failed(
                    job,
                    ProviderFailure(
                        "rejected",
                        f"batch {entry.batch_id} {status.phase} ({status.state}) before this "
                        f"document was processed: {why}; request it again with --resume "
                        "--retry-failed",
                    ),
                    1,
                    0.0,
                )
        entry.state = "collected"
        self.log.save()

    def _budget_spend(self, spent: float) -> None:
        assert self._budget is not None
        self._budget.spent += spent

    def _show(self) -> None:
        """One progress line whenever the batches' counts change."""
        assert self.log is not None
        entries = [e for e in self.log.entries if e.batch_id is not None]
        done = sum(e.state == "collected" for e in entries)
        line = f"batches: {len(entries)} submitted, {len(entries) - done} in progress, {done} done"
        if line != self._shown:
            self._shown = line
            self.reporter.note(line)


def _line(item: dict[str, Any]) -> bytes:
    import json

    return (json.dumps(item, ensure_ascii=False) + "\n").encode("utf-8")
