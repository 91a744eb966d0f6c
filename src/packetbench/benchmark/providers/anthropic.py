"""`anthropic`: Claude's Messages API through the official SDK, with one extraction tool.

The document schema is the input schema of a single tool, `record_extraction`. Without
thinking the tool is forced (``tool_choice={"type": "tool", ...}``); the API refuses a forced
tool while thinking is on, so with `--reasoning high|xhigh` the choice is ``auto`` and the
prompt asks for the tool. Reasoning maps to extended thinking with a token budget (high:
16,000; xhigh, the ceiling: the whole cap but 16,000 tokens kept for the answer). For the
models whose SDK deprecates budgeted thinking in favour of adaptive thinking, the same levels
map to ``thinking={"type": "adaptive"}`` with ``output_config.effort`` high / max.

An answer that arrives wrapped in one extra single-key object ({"sov": {...}}) is unwrapped
by the harness when the wrapped object, not the wrapper, matches the schema.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any, ClassVar

from packetbench.benchmark.providers.api import (
    ApiSettings,
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
    BatchProvider,
    BatchStatus,
    ItemResult,
)
from packetbench.benchmark.providers.schema_clean import without_file_keys
from packetbench.core.errors import UsageError

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic
    from anthropic.types import Message

TOOL = "record_extraction"
TOOL_DESCRIPTION = (
    "Record every value extracted from the document, exactly as the document "
    "shows it; null for anything the document does not show."
)
CITE_SYSTEM = "You locate values in the attached document and cite the document for each of them."
HIGH_BUDGET = 16_000
ANSWER_ROOM = 16_000  # tokens kept for the tool call when thinking runs at the ceiling
MIN_BUDGET = 1_024  # the API's minimum thinking budget


def _adaptive_models() -> list[str]:
    """Models the installed SDK warns against budgeted thinking for (prefer adaptive)."""
    try:
        from anthropic.resources.messages import messages
    except ImportError:  # pragma: no cover - the SDK is a dependency
        return []
    return list(getattr(messages, "MODELS_TO_WARN_WITH_THINKING_ENABLED", []))


def _content(part: Part) -> dict[str, Any]:
    if part.kind == "text":
        return {"type": "text", "text": part.text}
    encoded = base64.b64encode(part.data).decode("ascii")
    if part.kind == "pdf":
        return {
            "type": "document",
            "title": part.label,
            "source": {"type": "base64", "media_type": "application/pdf", "data": encoded},
        }
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": encoded},
    }


class AnthropicProvider(PooledProvider["AsyncAnthropic"], BatchProvider):
    name = "anthropic"
    sdk = "anthropic"
    sdk_module = "anthropic"
    env_keys: ClassVar[tuple[str, ...]] = ("ANTHROPIC_API_KEY",)
    base_url_env: ClassVar[str | None] = "ANTHROPIC_BASE_URL"
    default_max_output_tokens = 32_000
    page_tokens = 1_600
    default_retries = 8  # 529 "overloaded" is common and passes
    reasoning_words = ("thinking", "budget_tokens", "effort", "adaptive")
    # Messages.create of the SDK packetbench uses takes no temperature, top_p or seed.
    sampling_names: ClassVar[dict[str, str]] = {}
    native_citations = True

    def __init__(self, settings: ApiSettings) -> None:
        super().__init__(settings)
        if self._budget() is not None and self.max_output_tokens <= self._budget_or_zero():
            raise UsageError(
                f"--reasoning {settings.reasoning} needs --max-output-tokens above "
                f"the thinking budget ({self._budget_or_zero():,})"
            )

    def _budget(self) -> int | None:
        level = self.settings.reasoning
        if level == "default" or self.model in _adaptive_models():
            return None
        if level == "high":
            return HIGH_BUDGET
        return max(MIN_BUDGET, self.max_output_tokens - ANSWER_ROOM)

    def _budget_or_zero(self) -> int:
        return self._budget() or 0

    def thinking(self) -> bool:
        return self.settings.reasoning != "default"

    def answer_instruction(self) -> str:
        return f"Call the {TOOL} tool exactly once with the extracted values."

    def reasoning_parameters(self) -> dict[str, Any]:
        level = self.settings.reasoning
        if level == "default":
            return {}
        if self.model in _adaptive_models():
            return {
                "thinking": {"type": "adaptive"},
                "output_config": {"effort": "high" if level == "high" else "max"},
            }
        return {"thinking": {"type": "enabled", "budget_tokens": self._budget_or_zero()}}

    def clean_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return without_file_keys(schema)

    def build_request(
        self, prompt: Prompt, schema_name: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        choice: dict[str, Any] = (
            {"type": "auto"}
            if self.thinking()  # a forced tool is refused with thinking on
            else {"type": "tool", "name": TOOL, "disable_parallel_tool_use": True}
        )
        return {
            "model": self.model,
            "max_tokens": self.max_output_tokens,
            "system": prompt.system,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        *(_content(p) for p in prompt.parts),
                        {"type": "text", "text": prompt.instructions},
                    ],
                }
            ],
            "tools": [{"name": TOOL, "description": TOOL_DESCRIPTION, "input_schema": schema}],
            "tool_choice": choice,
            **self.reasoning_parameters(),
            **self.sampling_parameters(),
        }

    def citation_request(self, prompt: Prompt, question: str) -> dict[str, Any]:
        """`--cite native`: the document again, with citations enabled, and `question`
        (the first answer's values, numbered). No tool: the API refuses citations with one;
        no thinking: quoting needs none."""
        parts = []
        for part in prompt.parts:
            block = _content(part)
            if block["type"] == "document":
                block["citations"] = {"enabled": True}
            parts.append(block)
        return {
            "model": self.model,
            "max_tokens": self.max_output_tokens,
            "system": CITE_SYSTEM,
            "messages": [{"role": "user", "content": [*parts, {"type": "text", "text": question}]}],
            **self.sampling_parameters(),
        }

    def _new_client(self) -> AsyncAnthropic:
        from anthropic import AsyncAnthropic, DefaultAsyncHttpxClient

        return AsyncAnthropic(
            api_key=self.api_key(),
            base_url=self.settings.base_url,
            max_retries=0,
            timeout=self.settings.timeout_s,
            http_client=DefaultAsyncHttpxClient(verify=self.tls()),
        )

    async def send(self, request: dict[str, Any]) -> Reply:
        import anthropic

        message = await stainless_call(self, anthropic, self._connect().messages.create(**request))
        return _reply(message)

    # -- Message Batches -----------------------------------------------------------------------

    # One batch holds at most 100,000 requests and 256 MB (Anthropic's batch processing guide).
    batch_limits = BatchLimits(requests=100_000, bytes=256 * 1024 * 1024)

    def batch_item(self, custom_id: str, request: dict[str, Any]) -> dict[str, Any]:
        return {"custom_id": custom_id, "params": request}

    async def submit_batch(self, items: list[dict[str, Any]]) -> str:
        import anthropic

        batches = self._connect().messages.batches
        batch = await stainless_call(self, anthropic, batches.create(requests=items))  # type: ignore[arg-type]
        return batch.id

    async def poll_batch(self, batch_id: str) -> BatchStatus:
        import anthropic

        batches = self._connect().messages.batches
        batch = await stainless_call(self, anthropic, batches.retrieve(batch_id))
        if batch.processing_status != "ended":
            return BatchStatus("running", batch.processing_status)
        counts = batch.request_counts
        if counts.expired or counts.canceled:
            # Ended with requests never run; the ones it ran are read all the same.
            return BatchStatus(
                "expired",
                "ended",
                f"{counts.expired} request(s) expired, {counts.canceled} cancelled",
            )
        return BatchStatus("ended", "ended")

    async def batch_results(self, batch_id: str) -> dict[str, ItemResult]:
        import anthropic

        batches = self._connect().messages.batches
        found: dict[str, ItemResult | None] = {}
        decoder = await stainless_call(self, anthropic, batches.results(batch_id))
        try:
            async for item in decoder:
                custom_id = getattr(item, "custom_id", None)
                if not isinstance(custom_id, str):
                    continue  # names no item: its document is reported as not processed
                try:
                    found[custom_id] = self._batch_item(item.result)
                except (ValueError, TypeError, KeyError, AttributeError) as problem:
                    # The provider's output is untrusted input: a malformed item ends its
                    # document with an error record, never the run.
                    found[custom_id] = ProviderFailure(
                        "rejected",
                        "the batch's output for this document is malformed "
                        f"({type(problem).__name__})",
                    )
        except (ValueError, RecursionError) as error:  # a line of the results is not JSON
            raise ProviderFailure(
                "server", f"the results of batch {batch_id} are not JSON lines ({error})"
            ) from None
        return {k: v for k, v in found.items() if v is not None}

    def _batch_item(self, result: Any) -> ItemResult | None:
        """A batch item's result (None: expired or canceled, never ran)."""
        if result.type == "succeeded":
            return _reply(result.message)
        if result.type == "errored":
            error = result.error.error
            return status_failure(
                _ERROR_STATUS.get(error.type, 500),
                str(error.message),
                None,
                self.reasoning_words,
                self.reasoning_parameters(),
                self.model,
            )
        return None  # expired and canceled items never ran: the harness reports them as such


# The HTTP status an errored batch item's error type stands for.
_ERROR_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}


def _reply(message: Message) -> Reply:
    """A message in provider-neutral terms (an ordinary answer or a batch item's)."""
    tool_input: Any = None
    texts: list[str] = []
    blocks: list[dict[str, Any]] = []  # text blocks with their citations (--cite native)
    for block in message.content:
        if block.type == "tool_use" and block.name == TOOL and tool_input is None:
            tool_input = block.input
        elif block.type == "text":
            texts.append(block.text)
            cited = [c.model_dump(mode="json") for c in block.citations or []]
            blocks.append({"text": block.text, "citations": cited})
    usage = message.usage
    details = usage.output_tokens_details
    thinking = details.thinking_tokens if details is not None else 0
    refusal = None
    if message.stop_reason == "refusal":
        explanation = message.stop_details.explanation if message.stop_details else None
        refusal = explanation or " ".join(texts).strip() or "the model refused"
    note = None
    if tool_input is not None:
        text: str | None = json.dumps(tool_input, ensure_ascii=False)
    else:
        text = "".join(texts) or None
        if text is not None:
            note = f"no {TOOL} tool call; the text answer was read instead"
    return Reply(
        text=text,
        finish_reason=message.stop_reason,
        truncated=message.stop_reason == "max_tokens",
        refusal=refusal,
        input_tokens=usage.input_tokens
        + (usage.cache_read_input_tokens or 0)
        + (usage.cache_creation_input_tokens or 0),
        output_tokens=max(0, usage.output_tokens - thinking),
        reasoning_tokens=thinking,
        note=note,
        cited=blocks if any(b["citations"] for b in blocks) else None,
    )
