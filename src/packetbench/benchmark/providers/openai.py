"""`openai`: OpenAI's Chat Completions through the official SDK, with strict Structured Outputs.

Chat Completions (not Responses) because OpenAI-compatible local servers (vLLM, llama.cpp,
Ollama) speak it too: `--base-url http://localhost:8000/v1` points this provider at them.
The schema goes in ``response_format={"type": "json_schema", "json_schema": {..., "strict":
true}}``; `--reasoning` sets ``reasoning_effort`` (high -> "high", xhigh -> "max", the highest
value the SDK documents; models that do not accept a value answer 400, reported as such).
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any, ClassVar

from packetbench.benchmark.providers.api import (
    Part,
    PooledProvider,
    Prompt,
    ProviderFailure,
    Reply,
    stainless_call,
    status_failure,
)
from packetbench.benchmark.providers.batch import (
    BatchLimits,
    BatchPhase,
    BatchProvider,
    BatchStatus,
    ItemResult,
)
from packetbench.benchmark.providers.schema_clean import without_file_keys

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletion

EFFORT = {"default": None, "high": "high", "xhigh": "max"}


def _content(part: Part) -> dict[str, Any]:
    if part.kind == "text":
        return {"type": "text", "text": part.text}
    encoded = base64.b64encode(part.data).decode("ascii")
    if part.kind == "pdf":
        return {
            "type": "file",
            "file": {"filename": part.label, "file_data": f"data:application/pdf;base64,{encoded}"},
        }
    return {
        "type": "image_url",
        "image_url": {"url": f"data:image/png;base64,{encoded}", "detail": "high"},
    }


def _reply(completion: ChatCompletion) -> Reply:
    """A chat completion in provider-neutral terms (an ordinary answer or a batch item's)."""
    if not completion.choices:
        return Reply(text=None, finish_reason=None, note="no choices in the response")
    choice = completion.choices[0]
    usage = completion.usage
    reasoning = 0
    completion_tokens = prompt_tokens = 0
    if usage is not None:
        prompt_tokens, completion_tokens = usage.prompt_tokens, usage.completion_tokens
        details = usage.completion_tokens_details
        reasoning = (details.reasoning_tokens or 0) if details else 0
    refusal = choice.message.refusal
    if refusal is None and choice.finish_reason == "content_filter":
        refusal = "stopped by the content filter"
    return Reply(
        text=choice.message.content,
        finish_reason=choice.finish_reason,
        truncated=choice.finish_reason == "length",
        refusal=refusal,
        input_tokens=prompt_tokens,
        output_tokens=max(0, completion_tokens - reasoning),
        reasoning_tokens=reasoning,
    )


# The Batch API's states; "expired" and "cancelled" batches still report the requests they ran.
_PHASES: dict[str, BatchPhase] = {
    "completed": "ended",
    "expired": "expired",
    "cancelled": "expired",
    "failed": "failed",
}


class OpenAIProvider(PooledProvider["AsyncOpenAI"], BatchProvider):
    name = "openai"
    sdk = "openai"
    sdk_module = "openai"
    env_keys: ClassVar[tuple[str, ...]] = ("OPENAI_API_KEY",)
    base_url_env: ClassVar[str | None] = "OPENAI_BASE_URL"
    default_max_output_tokens = 32_000
    page_tokens = 1_105
    default_retries = 6
    reasoning_words = ("reasoning_effort", "reasoning", "effort")
    sampling_names: ClassVar[dict[str, str]] = {
        "temperature": "temperature",
        "top_p": "top_p",
        "seed": "seed",
    }

    def reasoning_parameters(self) -> dict[str, Any]:
        effort = EFFORT[self.settings.reasoning]
        return {"reasoning_effort": effort} if effort else {}

    def clean_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return without_file_keys(schema)

    def build_request(
        self, prompt: Prompt, schema_name: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [
                {"role": "system", "content": prompt.system},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": prompt.instructions},
                        *(_content(p) for p in prompt.parts),
                    ],
                },
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "strict": True, "schema": schema},
            },
            "max_completion_tokens": self.max_output_tokens,
            **self.reasoning_parameters(),
            **self.sampling_parameters(),
        }

    def _new_client(self) -> AsyncOpenAI:
        from openai import AsyncOpenAI, DefaultAsyncHttpxClient

        # Retries are the harness's (counted, logged, budgeted): the SDK makes one attempt.
        return AsyncOpenAI(
            api_key=self.api_key(),
            base_url=self.settings.base_url,
            max_retries=0,
            timeout=self.settings.timeout_s,
            http_client=DefaultAsyncHttpxClient(verify=self.tls()),
        )

    async def send(self, request: dict[str, Any]) -> Reply:
        import openai
        from openai.types.chat import ChatCompletion

        # The request is already in the API's wire form, so it goes out through the SDK's
        # generic `post` (what `chat.completions.create` calls after re-walking every key
        # against its typed parameters, a millisecond a request for a document schema).
        completion = await stainless_call(
            self,
            openai,
            self._connect().post("/chat/completions", body=request, cast_to=ChatCompletion),
        )
        return _reply(completion)

    # -- the Batch API -------------------------------------------------------------------------

    # One input file holds at most 50,000 requests and 200 MB (OpenAI's batch guide).
    batch_limits = BatchLimits(requests=50_000, bytes=200 * 1024 * 1024)

    def batch_item(self, custom_id: str, request: dict[str, Any]) -> dict[str, Any]:
        return {
            "custom_id": custom_id,
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": request,
        }

    async def submit_batch(self, items: list[dict[str, Any]]) -> str:
        import openai

        client = self._connect()
        lines = "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)
        uploaded = await stainless_call(
            self,
            openai,
            client.files.create(
                file=("batch.jsonl", lines.encode("utf-8"), "application/jsonl"),
                purpose="batch",
            ),
        )
        batch = await stainless_call(
            self,
            openai,
            client.batches.create(
                input_file_id=uploaded.id,
                endpoint="/v1/chat/completions",
                completion_window="24h",
            ),
        )
        return batch.id

    async def poll_batch(self, batch_id: str) -> BatchStatus:
        import openai

        batch = await stainless_call(self, openai, self._connect().batches.retrieve(batch_id))
        errors = batch.errors.data if batch.errors and batch.errors.data else []
        message = "; ".join(e.message or e.code or "" for e in errors) or None
        phase = _PHASES.get(batch.status, "running")
        return BatchStatus(phase, batch.status, message)

    async def batch_results(self, batch_id: str) -> dict[str, ItemResult]:
        import openai

        client = self._connect()
        batch = await stainless_call(self, openai, client.batches.retrieve(batch_id))
        found: dict[str, ItemResult] = {}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            content = await stainless_call(self, openai, client.files.content(file_id))
            for line in content.text.splitlines():
                read = self._batch_line(line)
                if read is not None:
                    found[read[0]] = read[1]
        return found

    def _batch_line(self, line: str) -> tuple[str, ItemResult] | None:
        """(custom id, result) of one line of a batch's output file, which the provider
        wrote and we read as untrusted input: a line that names no item is skipped (its
        document is reported as not processed), an item whose line is malformed is a
        `rejected` failure naming what is wrong, never an exception out of the run."""
        from openai.types.chat import ChatCompletion

        if not line.strip():
            return None
        try:
            item = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            return None
        custom_id = item.get("custom_id") if isinstance(item, dict) else None
        if not isinstance(custom_id, str):
            return None
        try:
            error = item.get("error") or {}
            if not isinstance(error, dict):
                error = {"message": str(error)}
            if error.get("code") == "batch_expired":
                return None  # never run: reported as expired by the harness
            response = item.get("response") or {}
            if not isinstance(response, dict):
                raise TypeError(f"its response is a {type(response).__name__}, not an object")
            raw_status = response.get("status_code") or 0
            if type(raw_status) is not int:
                raise TypeError(f"its status_code {str(raw_status)[:40]!r} is not a number")
            status = raw_status
            body = response.get("body")
            if status == 200:
                if not isinstance(body, dict):
                    raise TypeError("a 200 whose body is not a completion")
                return custom_id, _reply(ChatCompletion.model_validate(body))
            if status:
                return custom_id, status_failure(
                    status,
                    _body_message(body),
                    None,
                    self.reasoning_words,
                    self.reasoning_parameters(),
                    self.model,
                )
            return custom_id, ProviderFailure(
                "server", f"batch item failed: {str(error.get('message') or error)[:500]}"
            )
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as problem:
            reason = str(problem).splitlines()[0][:200] if str(problem) else type(problem).__name__
            return custom_id, ProviderFailure(
                "rejected", f"the batch's output for this document is malformed ({reason})"
            )


def _body_message(body: Any) -> str:
    """The API's message in a failed batch item's response body."""
    inner = body.get("error", body) if isinstance(body, dict) else None
    if isinstance(inner, dict) and isinstance(inner.get("message"), str):
        return str(inner["message"])
    return f"batch item failed: {body}"
