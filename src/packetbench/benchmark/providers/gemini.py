"""`gemini`: Google's Gemini API through the official google-genai SDK.

Structured output is ``response_mime_type="application/json"`` with the document schema as
``response_json_schema``, every object carrying an explicit ``propertyOrdering``. Reasoning
maps to ``thinking_config``: Gemini 3 and later take a thinking level (high -> HIGH, xhigh ->
XHIGH, the ceiling); Gemini 2.x models take a token budget (high -> 16,384; xhigh -> the
model's maximum, 32,768 for Pro and 24,576 for Flash). A model that refuses the setting
answers 400, reported as such.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from packetbench.benchmark.providers.api import (
    Part,
    PooledProvider,
    Prompt,
    ProviderFailure,
    Reply,
    parse_retry_after,
    status_failure,
)
from packetbench.benchmark.providers.batch import (
    BatchLimits,
    BatchPhase,
    BatchProvider,
    BatchStatus,
    ItemResult,
)
from packetbench.benchmark.providers.schema_clean import with_property_ordering, without_file_keys

if TYPE_CHECKING:
    from google.genai import Client
    from google.genai.types import GenerateContentResponse, HttpOptionsDict

Answer = TypeVar("Answer")
# Batch job states (the SDK's names for the API's BATCH_STATE_*) that end a batch.
_PHASES: dict[str, BatchPhase] = {
    "JOB_STATE_SUCCEEDED": "ended",
    "JOB_STATE_EXPIRED": "expired",
    "JOB_STATE_CANCELLED": "expired",
    "JOB_STATE_FAILED": "failed",
}

REFUSALS = {
    "SAFETY",
    "PROHIBITED_CONTENT",
    "BLOCKLIST",
    "SPII",
    "RECITATION",
    "IMAGE_SAFETY",
    "LANGUAGE",
}


def _content(part: Part) -> dict[str, Any]:
    if part.kind == "text":
        return {"text": part.text}
    mime = "application/pdf" if part.kind == "pdf" else "image/png"
    return {"inline_data": {"mime_type": mime, "data": part.data}}


class _Shared(dict[str, Any]):
    """A schema shared by every request: copying it yields itself.

    The SDK deep-copies each request's config, schema included (a few milliseconds for a
    document schema, per request); this one is never modified, so a copy is unnecessary.
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __copy__(self) -> _Shared:
        return self


def _name(value: Any) -> str | None:
    if value is None:
        return None
    return str(getattr(value, "value", value))


class GeminiProvider(PooledProvider["Client"], BatchProvider):
    name = "gemini"
    sdk = "google-genai"
    sdk_module = "google"
    env_keys: ClassVar[tuple[str, ...]] = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    base_url_env: ClassVar[str | None] = "GOOGLE_GEMINI_BASE_URL"
    default_max_output_tokens = 32_000
    page_tokens = 258
    default_retries = 6
    reasoning_words = ("thinking", "budget", "level")
    sampling_names: ClassVar[dict[str, str]] = {
        "temperature": "temperature",
        "top_p": "top_p",
        "seed": "seed",
    }

    def reasoning_parameters(self) -> dict[str, Any]:
        level = self.settings.reasoning
        if level == "default":
            return {}
        bare = self.model.rsplit("/", 1)[-1]
        if bare.startswith("gemini-2"):
            ceiling = 32_768 if "pro" in bare else 24_576
            return {"thinking_config": {"thinking_budget": 16_384 if level == "high" else ceiling}}
        return {"thinking_config": {"thinking_level": "HIGH" if level == "high" else "XHIGH"}}

    def clean_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        cleaned: dict[str, Any] = with_property_ordering(without_file_keys(schema))
        return cleaned

    def build_request(
        self, prompt: Prompt, schema_name: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "model": self.model,
            "contents": [
                {
                    "role": "user",
                    "parts": [*(_content(p) for p in prompt.parts), {"text": prompt.instructions}],
                }
            ],
            "config": {
                "system_instruction": prompt.system,
                "response_mime_type": "application/json",
                "response_json_schema": _Shared(schema),
                "max_output_tokens": self.max_output_tokens,
                **self.reasoning_parameters(),
                **self.sampling_parameters(),
            },
        }

    def _new_client(self) -> Client:
        from google.genai import Client

        options: HttpOptionsDict = {"timeout": int(self.settings.timeout_s * 1000)}
        if self.settings.base_url:
            options["base_url"] = self.settings.base_url
        # An httpx2 transport of our own keeps the SDK on httpx2: without one it sends
        # through aiohttp whenever aiohttp is installed (inspect-ai brings it), a transport
        # the harness's error handling and the tests do not cover.
        import httpx2

        options["async_client_args"] = {"transport": httpx2.AsyncHTTPTransport(verify=self.tls())}
        # No retry_options: the SDK then makes one attempt and the harness retries.
        return Client(api_key=self.api_key(), http_options=options)

    async def send(self, request: dict[str, Any]) -> Reply:
        from google.genai import types

        client = self._connect()
        # Typed models, not nested dicts: the SDK only renames the fields of its own types
        # to the API's camelCase (a dict thinking_config would go out as "thinking_level").
        config = types.GenerateContentConfig.model_validate(request["config"])
        contents = [types.Content.model_validate(c) for c in request["contents"]]
        response = await self._gemini_call(
            client.aio.models.generate_content(
                model=request["model"], contents=contents, config=config
            )
        )
        return _reply(response)

    # -- batch mode ----------------------------------------------------------------------------

    # Inlined requests: the whole batch request stays under 20 MB (Gemini's batch mode guide).
    batch_limits = BatchLimits(requests=100_000, bytes=20 * 1000 * 1000)

    def batch_item(self, custom_id: str, request: dict[str, Any]) -> dict[str, Any]:
        from google.genai import types

        # JSON (document bytes in base64), as its size counts against the limit; the
        # custom id rides in the request's metadata, which the answer carries back.
        item = types.InlinedRequest(
            model=request["model"],
            contents=[types.Content.model_validate(c) for c in request["contents"]],
            config=types.GenerateContentConfig.model_validate(request["config"]),
            metadata={"custom_id": custom_id},
        )
        found: dict[str, Any] = item.model_dump(mode="json", exclude_none=True)
        return found

    async def submit_batch(self, items: list[dict[str, Any]]) -> str:
        from google.genai import types

        requests = [types.InlinedRequest.model_validate_json(json.dumps(i)) for i in items]
        job = await self._gemini_call(
            self._connect().aio.batches.create(model=self.model, src=requests)
        )
        return str(job.name)

    async def poll_batch(self, batch_id: str) -> BatchStatus:
        job = await self._gemini_call(self._connect().aio.batches.get(name=batch_id))
        state = _name(job.state) or "JOB_STATE_UNSPECIFIED"
        message = job.error.message if job.error else None
        return BatchStatus(_PHASES.get(state, "running"), state, message)

    async def batch_results(self, batch_id: str) -> dict[str, ItemResult]:
        job = await self._gemini_call(self._connect().aio.batches.get(name=batch_id))
        found: dict[str, ItemResult] = {}
        answers = job.dest.inlined_responses if job.dest and job.dest.inlined_responses else []
        for answer in answers:
            custom_id = (answer.metadata or {}).get("custom_id")
            if not isinstance(custom_id, str):
                continue  # names no item: its document is reported as not processed
            try:
                if answer.response is not None:
                    found[custom_id] = _reply(answer.response)
                elif answer.error is not None:
                    found[custom_id] = status_failure(
                        int(answer.error.code or 500),
                        str(answer.error.message),
                        None,
                        self.reasoning_words,
                        self.reasoning_parameters(),
                        self.model,
                    )
            except (ValueError, TypeError, KeyError, AttributeError) as problem:
                # The provider's output is untrusted input: a malformed item ends its
                # document with an error record, never the run.
                found[custom_id] = ProviderFailure(
                    "rejected",
                    f"the batch's output for this document is malformed ({type(problem).__name__})",
                )
        return found

    async def _gemini_call(self, call: Awaitable[Answer]) -> Answer:
        """Await an SDK call, turning its errors into the ProviderFailure the harness handles."""
        import httpx2
        from google.genai import errors

        try:
            return await call
        except httpx2.TimeoutException:
            raise ProviderFailure(
                "timeout", f"no answer within {self.settings.timeout_s:g} s"
            ) from None
        except httpx2.TransportError as error:
            raise ProviderFailure("connection", f"connection failed: {error}") from None
        except errors.APIError as error:
            headers = getattr(error.response, "headers", None)
            raise status_failure(
                int(error.code or 0),
                str(error.message or error.status),
                parse_retry_after(headers),
                self.reasoning_words,
                self.reasoning_parameters(),
                self.model,
            ) from None

    async def _close_client(self, client: Client) -> None:
        await client.aio.aclose()


def _reply(response: GenerateContentResponse) -> Reply:
    """A response in provider-neutral terms (an ordinary answer or a batch item's)."""
    usage = response.usage_metadata
    input_tokens = output_tokens = reasoning = 0
    if usage is not None:
        input_tokens = usage.prompt_token_count or 0
        output_tokens = usage.candidates_token_count or 0
        reasoning = usage.thoughts_token_count or 0
    feedback = response.prompt_feedback
    if not response.candidates:
        blocked = _name(feedback.block_reason) if feedback else None
        return Reply(
            text=None,
            finish_reason=blocked,
            refusal=f"prompt blocked ({blocked})" if blocked else None,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            reasoning_tokens=reasoning,
            note="no candidates in the response",
        )
    candidate = response.candidates[0]
    finish = _name(candidate.finish_reason)
    parts = candidate.content.parts if candidate.content and candidate.content.parts else []
    text = "".join(p.text for p in parts if p.text and not p.thought) or None
    refusal = f"stopped for {finish}" if finish in REFUSALS else None
    return Reply(
        text=text,
        finish_reason=finish,
        truncated=finish == "MAX_TOKENS",
        refusal=refusal,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        reasoning_tokens=reasoning,
    )
