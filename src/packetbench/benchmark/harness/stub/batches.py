"""The batch endpoints of the stub APIs, enough of them for the real SDKs' batch calls.

OpenAI: ``POST /v1/files`` (multipart upload of the JSONL input), ``POST /v1/batches``,
``GET /v1/batches/{id}``, ``GET /v1/files/{id}/content``. Anthropic: ``POST
/v1/messages/batches``, ``GET /v1/messages/batches/{id}`` and ``.../results`` (JSONL).

A batch's items are answered when it is created, each exactly as the ordinary endpoint would
answer that request (faults included: a transient fault becomes a failed item); the batch
reads as in progress until `delay_s` has passed, then as ended, or as expired (no item run)
when its creation number is in `expire`. The stub counts creations, so a test can prove a
resumed run created no batch twice.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from packetbench.benchmark.harness.stub.http import Request, Response

# Answers one ordinary request (a synthetic Request of the item's body): what the stub's
# ordinary endpoint would have answered, or None for a hung response.
Answer = Callable[[Request], Awaitable[Response | None]]
EPOCH = 1_700_000_000


@dataclass
class StubBatch:
    id: str
    number: int  # 1-based creation order
    created: float  # time.monotonic()
    custom_ids: list[str]
    results: list[tuple[str, Response | None]]  # custom id -> answer (None: hung)
    expire: bool
    polls: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class BatchRoutes(ABC):
    def __init__(self, delay_s: float, expire: tuple[int, ...]) -> None:
        self.delay_s = delay_s
        self.expire = expire
        self.batches: dict[str, StubBatch] = {}
        self.created = 0
        # A test's hostile output file: the output lines (as objects) -> the lines written.
        self.rewrite: Callable[[list[dict[str, Any]]], list[str]] | None = None

    def ended(self, batch: StubBatch) -> bool:
        return time.monotonic() - batch.created >= self.delay_s

    async def make(
        self, request: Request, items: list[tuple[str, dict[str, Any]]], answer: Answer, path: str
    ) -> StubBatch:
        self.created += 1
        number = self.created
        expire = number in self.expire
        results: list[tuple[str, Response | None]] = []
        if not expire:
            for custom_id, body in items:
                item = Request("POST", path, "", request.headers, json.dumps(body).encode("utf-8"))
                results.append((custom_id, await answer(item)))
        batch = StubBatch(
            f"{self.prefix}{number:04d}",
            number,
            time.monotonic(),
            [c for c, _ in items],
            results,
            expire,
        )
        self.batches[batch.id] = batch
        return batch

    prefix = "batch_stub_"

    @abstractmethod
    def serves(self, request: Request) -> bool: ...

    @abstractmethod
    async def handle(self, request: Request, answer: Answer, url: str) -> Response: ...


def _not_found(what: str) -> Response:
    return Response(404, {"error": {"message": f"no {what}", "type": "not_found_error"}})


def _multipart_file(request: Request) -> bytes | None:
    """The `file` part of a multipart/form-data body."""
    kind = request.headers.get("content-type", "")
    if "boundary=" not in kind:
        return None
    boundary = kind.split("boundary=", 1)[1].split(";")[0].strip().strip('"').encode()
    for part in request.body.split(b"--" + boundary):
        head, _, content = part.partition(b"\r\n\r\n")
        if b'name="file"' in head:
            return content.removesuffix(b"\r\n")
    return None


class OpenAIBatches(BatchRoutes):
    def __init__(self, delay_s: float, expire: tuple[int, ...]) -> None:
        super().__init__(delay_s, expire)
        self.files: dict[str, bytes] = {}

    def serves(self, request: Request) -> bool:
        return "/v1/files" in request.path or "/v1/batches" in request.path

    def _file(self, data: bytes, name: str, purpose: str) -> dict[str, Any]:
        file_id = f"file-stub{len(self.files) + 1:04d}"
        self.files[file_id] = data
        return {
            "id": file_id,
            "object": "file",
            "bytes": len(data),
            "created_at": EPOCH,
            "filename": name,
            "purpose": purpose,
            "status": "processed",
        }

    async def handle(self, request: Request, answer: Answer, url: str) -> Response:
        path = request.path.split("/v1", 1)[1]
        if request.method == "POST" and path == "/files":
            data = _multipart_file(request)
            if data is None:
                return Response(400, {"error": {"message": "no file part", "type": "invalid"}})
            return Response(200, self._file(data, "batch.jsonl", "batch"))
        if request.method == "GET" and path.startswith("/files/") and path.endswith("/content"):
            file_id = path.removeprefix("/files/").removesuffix("/content")
            if file_id not in self.files:
                return _not_found(f"file {file_id}")
            return Response(200, None, raw=self.files[file_id])
        if request.method == "POST" and path == "/batches":
            body = request.json()
            data = self.files.get(body.get("input_file_id", ""))
            if data is None or body.get("endpoint") != "/v1/chat/completions":
                return Response(400, {"error": {"message": "bad batch", "type": "invalid"}})
            items = []
            for line in data.decode("utf-8").splitlines():
                entry = json.loads(line)
                if entry.get("url") != "/v1/chat/completions" or entry.get("method") != "POST":
                    return Response(400, {"error": {"message": "bad line", "type": "invalid"}})
                items.append((entry["custom_id"], entry["body"]))
            batch = await self.make(request, items, answer, "/v1/chat/completions")
            return Response(200, self._batch(batch, body["input_file_id"]))
        if request.method == "GET" and path.startswith("/batches/"):
            batch_id = path.removeprefix("/batches/")
            found = self.batches.get(batch_id)
            if found is None:
                return _not_found(f"batch {batch_id}")
            found.polls += 1
            return Response(200, self._batch(found, found.extra.get("input", "")))
        return _not_found(f"route {request.method} {request.path}")

    def _batch(self, batch: StubBatch, input_file: str) -> dict[str, Any]:
        batch.extra.setdefault("input", input_file)
        status = "in_progress"
        output = error = None
        done = failed = 0
        if self.ended(batch):
            status = "expired" if batch.expire else "completed"
            if "output" not in batch.extra:
                good: list[dict[str, Any]] = []
                bad: list[dict[str, Any]] = []
                for custom_id, response in batch.results:
                    line = {
                        "id": f"batch_req_{custom_id}",
                        "custom_id": custom_id,
                        "response": {
                            "status_code": 500 if response is None else response.status,
                            "request_id": "req_stub",
                            "body": {"error": {"message": "hung"}}
                            if response is None
                            else response.body,
                        },
                        "error": None,
                    }
                    (good if response is not None and response.status == 200 else bad).append(line)
                if batch.expire:
                    bad += [
                        {
                            "id": f"batch_req_{c}",
                            "custom_id": c,
                            "response": None,
                            "error": {
                                "code": "batch_expired",
                                "message": "This request could not be executed before the "
                                "completion window expired.",
                            },
                        }
                        for c in batch.custom_ids
                    ]

                def store(lines: list[dict[str, Any]]) -> str | None:
                    if not lines:
                        return None
                    written = (
                        self.rewrite(lines) if self.rewrite else [json.dumps(x) for x in lines]
                    )
                    data = "".join(x + "\n" for x in written).encode("utf-8")
                    return str(self._file(data, "output.jsonl", "batch_output")["id"])

                batch.extra["output"] = store(good)
                batch.extra["error"] = store(bad)
                batch.extra["counts"] = (len(good), len(bad))
            output, error = batch.extra["output"], batch.extra["error"]
            done, failed = batch.extra["counts"]
        return {
            "id": batch.id,
            "object": "batch",
            "endpoint": "/v1/chat/completions",
            "errors": None,
            "input_file_id": input_file,
            "completion_window": "24h",
            "status": status,
            "output_file_id": output,
            "error_file_id": error,
            "created_at": EPOCH,
            "request_counts": {
                "total": len(batch.custom_ids),
                "completed": done,
                "failed": failed,
            },
        }


class AnthropicBatches(BatchRoutes):
    prefix = "msgbatch_stub"

    def serves(self, request: Request) -> bool:
        return "/v1/messages/batches" in request.path

    async def handle(self, request: Request, answer: Answer, url: str) -> Response:
        path = request.path.split("/v1/messages/batches", 1)[1]
        if request.method == "POST" and path == "":
            body = request.json()
            items = [(r["custom_id"], r["params"]) for r in body.get("requests") or []]
            if not items:
                return Response(
                    400,
                    {
                        "type": "error",
                        "error": {"type": "invalid_request_error", "message": "no requests"},
                    },
                )
            batch = await self.make(request, items, answer, "/v1/messages")
            return Response(200, self._batch(batch, url))
        batch_id, _, rest = path.removeprefix("/").partition("/")
        found = self.batches.get(batch_id)
        if found is None or request.method != "GET":
            return _not_found(f"message batch {batch_id}")
        if rest == "results":
            if not self.ended(found):
                return _not_found("results yet")
            lines = "".join(json.dumps(line) + "\n" for line in self._results(found))
            return Response(200, None, raw=lines.encode("utf-8"))
        found.polls += 1
        return Response(200, self._batch(found, url))

    def _results(self, batch: StubBatch) -> list[dict[str, Any]]:
        if batch.expire:
            return [{"custom_id": c, "result": {"type": "expired"}} for c in batch.custom_ids]
        lines = []
        for custom_id, response in batch.results:
            if response is not None and response.status == 200:
                result: dict[str, Any] = {"type": "succeeded", "message": response.body}
            else:
                error = (
                    {"type": "api_error", "message": "hung"}
                    if response is None
                    else response.body["error"]
                )
                result = {"type": "errored", "error": {"type": "error", "error": error}}
            lines.append({"custom_id": custom_id, "result": result})
        return lines

    def _batch(self, batch: StubBatch, url: str) -> dict[str, Any]:
        created = datetime.fromtimestamp(EPOCH, UTC)
        ended = self.ended(batch)
        counts = {"processing": 0, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        if not ended:
            counts["processing"] = len(batch.custom_ids)
        else:
            for line in self._results(batch):
                counts[line["result"]["type"]] += 1
        return {
            "id": batch.id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": counts,
            "created_at": created.isoformat(),
            "expires_at": (created + timedelta(days=1)).isoformat(),
            "ended_at": created.isoformat() if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{url}/v1/messages/batches/{batch.id}/results" if ended else None,
        }


class GeminiBatches(BatchRoutes):
    """Gemini's batch mode with inlined requests: the created batch and every poll answer
    with the batch resource (state, and once it succeeded its inlined responses)."""

    prefix = "batches/stub"

    def serves(self, request: Request) -> bool:
        return request.path.endswith(":batchGenerateContent") or "/batches/" in request.path

    async def handle(self, request: Request, answer: Answer, url: str) -> Response:
        if request.method == "POST" and request.path.endswith(":batchGenerateContent"):
            model = request.path.rsplit("/", 1)[-1].removesuffix(":batchGenerateContent")
            body = request.json()
            entries = body["batch"]["inputConfig"]["requests"]["requests"]
            items = [(e["metadata"]["custom_id"], e["request"]) for e in entries]
            path = f"/v1beta/models/{model}:generateContent"
            batch = await self.make(request, items, answer, path)
            batch.extra["metadata"] = [e.get("metadata") for e in entries]
            return Response(200, self._batch(batch))
        name = "batches/" + request.path.split("/batches/", 1)[1]
        found = self.batches.get(name)
        if found is None or request.method != "GET":
            return Response(
                404, {"error": {"code": 404, "message": f"no {name}", "status": "NOT_FOUND"}}
            )
        found.polls += 1
        return Response(200, self._batch(found))

    def _batch(self, batch: StubBatch) -> dict[str, Any]:
        state = "BATCH_STATE_RUNNING"
        metadata: dict[str, Any] = {
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch",
            "name": batch.id,
            "createTime": "2023-11-14T22:13:20Z",
        }
        if self.ended(batch):
            state = "BATCH_STATE_EXPIRED" if batch.expire else "BATCH_STATE_SUCCEEDED"
            if not batch.expire:
                responses = []
                for (_, response), meta in zip(batch.results, batch.extra["metadata"], strict=True):
                    entry: dict[str, Any] = {"metadata": meta}
                    if response is not None and response.status == 200:
                        entry["response"] = response.body
                    else:
                        error = {"code": 500, "message": "hung", "status": "INTERNAL"}
                        entry["error"] = error if response is None else response.body["error"]
                    responses.append(entry)
                metadata["output"] = {"inlinedResponses": {"inlinedResponses": responses}}
        metadata["state"] = state
        return {"name": batch.id, "metadata": metadata}


ROUTES: dict[str, type[BatchRoutes]] = {
    "openai": OpenAIBatches,
    "anthropic": AnthropicBatches,
    "gemini": GeminiBatches,
}
