"""`openai`: OpenAI's Chat Completions through the official SDK, with strict Structured Outputs.

Chat Completions (not Responses) because OpenAI-compatible local servers (vLLM, llama.cpp,
Ollama) speak it too: `--base-url http://localhost:8000/v1` points this provider at them.
The schema goes in ``response_format={"type": "json_schema", "json_schema": {..., "strict":
true}}``; `--reasoning` sets ``reasoning_effort`` (high -> "high", xhigh -> "max", the highest
value the SDK documents; models that do not accept a value answer 400, reported as such).
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, ClassVar

from packetbench.benchmark.providers.api import (
    Part,
    PooledProvider,
    Prompt,
    Reply,
    stainless_call,
)
from packetbench.benchmark.providers.schema_clean import without_file_keys

if TYPE_CHECKING:
    from openai import AsyncOpenAI

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


class OpenAIProvider(PooledProvider["AsyncOpenAI"]):
    name = "openai"
    sdk = "openai"
    env_keys: ClassVar[tuple[str, ...]] = ("OPENAI_API_KEY",)
    default_max_output_tokens = 32_000
    page_tokens = 1_105
    default_retries = 6
    reasoning_words = ("reasoning_effort", "reasoning", "effort")

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
