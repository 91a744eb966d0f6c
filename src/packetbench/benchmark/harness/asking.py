"""Questions about a document, asked through the extraction harness.

A judge's batch of claims (`packetbench verify`) and a classifier's "which type of document
is this" (`extract --documents`) are requests like an extraction's: the document as the
harness sends it (`--input`), instructions, a strict answer schema. `AskRunner` is the
extraction `Runner` with the document's record replaced by the question's, so they get the
same workers, input preparation, response cache, adaptive concurrency, retries with backoff,
`--max-cost` and request log. An answer is read by the asker (`Reader`: None when it is a
valid answer, else why not); only a valid answer is cached, so asking again after an
invalid one is a new request. A document asked several questions is read once while they
are in flight.

A question's record, written atomically to its own file as it finishes:
``{...about, status, answer, attempts, latency_s, usage, finish_reason, error}`` (plus
`raw_text` when the answer was not valid), `status` as an extraction record's.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench.benchmark.harness import estimate, inputs, prompts
from packetbench.benchmark.harness.answer import FENCE
from packetbench.benchmark.harness.cache import key
from packetbench.benchmark.harness.runner import Built, Job, Native, Outcome, Runner
from packetbench.benchmark.providers.api import ApiProvider, Prompt, Reply
from packetbench.benchmark.records import ExtractionRecord, Status
from packetbench.core.writing import write_json


@dataclass(frozen=True, kw_only=True)
class Ask(Job):
    """One question about the document `doc` of `packet`."""

    number: int  # its place among the questions about its document (a judge's batch)
    instructions: str  # sent after the document
    schema: str  # the name of its answer's schema (a key of the runner's schemas)
    target: Path  # where its record is written
    about: dict[str, Any] = field(default_factory=dict)  # what its record carries besides
    output_tokens: int = 0  # a valid answer's expected size (--max-cost reservations)


# Why an answer (a JSON object) is not a valid answer to its question; None when it is.
Reader = Callable[[Ask, dict[str, Any]], str | None]


def _ask(job: Job) -> Ask:
    assert isinstance(job, Ask), job
    return job


@dataclass(frozen=True)
class Read:
    status: Status
    answer: dict[str, Any] | None
    error: str | None


def read_reply(reply: Reply, ask: Ask, reader: Reader, cap: int) -> Read:
    """What a reply reads as: a refusal, a cut or empty answer, text that is no JSON object
    and an object the reader refuses are not answers (an object wrapped in one extra
    single-key envelope is unwrapped when the inner object is valid)."""
    if reply.refusal:
        return Read("refused", None, f"refused: {reply.refusal}")
    if reply.truncated:
        used = reply.output_tokens + reply.reasoning_tokens
        return Read("invalid", None, f"truncated at the output-token cap ({used:,} of {cap:,})")
    text = reply.text
    if text is None or not text.strip():
        return Read("invalid", None, f"empty output (finish_reason {reply.finish_reason})")
    fenced = FENCE.match(text)
    try:
        data = json.loads(fenced.group(1) if fenced else text)
    except json.JSONDecodeError as error:
        return Read("invalid", None, f"not JSON ({error.msg} at line {error.lineno})")
    if not isinstance(data, dict):
        return Read("invalid", None, f"not a JSON object (a {type(data).__name__})")
    problem = reader(ask, data)
    if problem is None:
        return Read("ok", data, None)
    if len(data) == 1:
        (inner,) = data.values()
        if isinstance(inner, dict) and reader(ask, inner) is None:
            return Read("ok", inner, None)
    return Read("invalid", None, problem)


class AskRunner(Runner):
    """The harness's runner over `Ask` jobs (see the module docstring)."""

    def __init__(
        self, provider: ApiProvider, folder: Path, *, system: str, read: Reader, **options: Any
    ) -> None:
        super().__init__(provider, folder, **options)
        self.system = system
        self.read = read
        self._inputs: dict[Path, asyncio.Future[inputs.DocumentInput]] = {}
        self._waiting: Counter[Path] = Counter()  # questions still to read each document

    async def execute(self, jobs: list[Job]) -> Outcome:
        for job in jobs:
            self._waiting[job.packet.path / job.doc.file] += 1
        return await super().execute(jobs)

    async def _document(self, job: Job) -> inputs.DocumentInput:
        """The document's input, prepared once for all its questions in flight."""
        path = job.packet.path / job.doc.file
        found = self._inputs.get(path)
        if found is None:
            provider = self.provider
            found = asyncio.get_running_loop().run_in_executor(
                self._prep,
                inputs.build_file,
                path,
                provider.settings.input_mode,
                provider.accepts_native_pdf,
                provider.image_dpi,
            )
            self._inputs[path] = found
        try:
            return await found
        finally:
            self._waiting[path] -= 1
            if self._waiting[path] <= 0:
                self._inputs.pop(path, None)

    async def _build(self, job: Job) -> Built:
        ask = _ask(job)
        provider = self.provider
        document = await self._document(ask)
        prompt = Prompt(system=self.system, instructions=ask.instructions, parts=document.parts)
        schema = self.schemas[ask.schema]
        request = provider.build_request(prompt, ask.schema, schema)
        digest = key(
            {
                "provider": provider.name,
                "model": provider.model,
                "base_url": provider.settings.base_url,
                "parameters": self._template_key,
                "prompt": prompts.digest(prompt),
                "schema": self._schema_keys[ask.schema],
                "document": document.sha256,
                "input": document.describe(),
            }
        )
        self._event(job, event="input", **document.describe())
        return Built(request, digest, prompt, document, schema)

    async def _job(self, job: Job) -> bool:
        assert self._budget is not None
        built = await self._build(job)
        if not job.fresh and (cached := self.cache.get(built.digest)) is not None:
            self._event(job, event="attempt", attempt=0, result="cache hit", cache=built.digest)
            self._finish(job, cached, attempts=0, latency=0.0, cached=True)
            return True
        reserve = self._estimate(job, built)
        if self._stopping() or not await self._budget.admit(reserve):
            return False
        spent = 0.0
        try:
            reply, attempts, latency, failure = await self._send(job, built.request)
            if reply is not None:
                spent = self._finish(
                    job,
                    reply,
                    attempts=attempts,
                    latency=latency,
                    cached=False,
                    digest=built.digest,
                )
            elif failure is not None:
                self._failed(job, failure, attempts, latency)
        finally:
            await self._budget.settle(reserve, spent)
        return True

    def _estimate(self, job: Job, built: Built) -> float:
        assert self._budget is not None
        if self.price is None or self._budget.max_usd is None:
            return 0.0
        tokens = estimate.input_tokens(
            built.prompt, built.document, built.schema, self.provider.page_tokens
        )
        return self.price.cost(tokens, _ask(job).output_tokens, 0)

    def _finish(
        self,
        job: Job,
        reply: Reply,
        *,
        attempts: int,
        latency: float,
        cached: bool,
        native: Native | None = None,
        digest: str | None = None,
    ) -> float:
        """Read a reply and write the question's record (a valid fresh answer is cached
        under `digest`); the dollars it cost this run."""
        found = read_reply(reply, _ask(job), self.read, self.provider.max_output_tokens)
        if found.status == "ok" and digest is not None:
            self._cache(digest, reply)
        price = self.price
        cost = (
            price.cost(reply.input_tokens, reply.output_tokens, reply.reasoning_tokens)
            if price
            else 0.0
        )
        record = self._record(
            job, found.status, found.answer, reply.text, attempts, latency, reply, found.error, cost
        )
        spent = self._count(reply, cost, cached)
        self._write(job, record, reply.note)
        return spent

    def _write(self, job: Job, record: ExtractionRecord, reading: str | None) -> None:
        ask = _ask(job)
        data: dict[str, Any] = {
            **ask.about,
            "status": record.status,
            "answer": record.output,
            "attempts": record.attempts,
            "latency_s": record.latency_s,
            "usage": record.usage.model_dump(),
            "finish_reason": record.finish_reason,
            "error": record.error,
        }
        if record.status != "ok":
            data["raw_text"] = record.raw_text
        write_json(ask.target, self.redact.clean(data))
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
        super()._event(job, question=_ask(job).number, **fields)
