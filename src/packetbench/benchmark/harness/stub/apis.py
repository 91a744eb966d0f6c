"""The HTTP subset of each provider's API that its SDK uses, answered from document truth.

Each API checks the request the way the real API would reject it (a forced tool with
thinking on is a 400 at Anthropic, as it is there), then answers: a correct extraction, or
the fault it was told to inject, in that API's own response and error shapes. Usage figures
are derived from sizes (four bytes of request a token, three characters of answer a token).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from packetbench.benchmark.harness.stub.http import HANG, Request, Response

REASONING_TOKENS = 120  # reported when the request asked for reasoning
REFUSAL = "I'm sorry, but I can't help with that request."


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.capitalize() for word in rest)


def _half(text: str) -> str:
    return text[: max(1, len(text) // 2)]


class StubApi(ABC):
    name: ClassVar[str]

    @abstractmethod
    def serves(self, request: Request) -> bool: ...

    @abstractmethod
    def key(self, request: Request) -> str | None: ...

    @abstractmethod
    def problem(self, body: dict[str, Any]) -> str | None:
        """Why the real API would refuse this request (None: it is well formed)."""

    @abstractmethod
    def cap(self, body: dict[str, Any]) -> int: ...

    @abstractmethod
    def schema(self, body: dict[str, Any]) -> Any:
        """The output schema the request carries."""

    @abstractmethod
    def reasoning(self, body: dict[str, Any]) -> bool: ...

    @abstractmethod
    def error(self, status: int, message: str, kind: str) -> Response: ...

    @abstractmethod
    def reply(
        self,
        body: dict[str, Any],
        text: str | None,
        *,
        payload: Any,
        finish: str,
        input_tokens: int,
        output_tokens: int,
        refusal: bool,
    ) -> Response: ...

    def citing(self, body: dict[str, Any]) -> bool:
        """Whether `body` asks for the API's own document citations (`--cite native`)."""
        return False

    def cited_reply(self, body: dict[str, Any], blocks: list[dict[str, Any]]) -> Response:
        """An answer made of text `blocks`, some with citations."""
        raise NotImplementedError(f"the {self.name} stub has no document citations")

    def answer(
        self,
        request: Request,
        body: dict[str, Any],
        truth: dict[str, Any],
        fault: str | None,
        retry_after: float,
    ) -> Response | object:
        key = self.key(request) or ""
        if fault == "rate_limit":
            limited = self.error(
                429, "Rate limit reached for requests; please retry later.", "rate_limit"
            )
            limited.headers["retry-after"] = f"{retry_after:g}"
            return limited
        if fault in ("server_500", "server_503"):
            status = 500 if fault == "server_500" else 503
            # A careless upstream echoes the credentials it was sent: the harness must
            # keep them out of every file anyway.
            return self.error(status, f"upstream failure while serving credentials {key}", "server")
        if fault == "hang":
            return HANG
        text = json.dumps(truth, ensure_ascii=False)
        tokens_in = len(request.body) // 4
        tokens_out = len(text) // 3
        cap = self.cap(body)
        if fault == "malformed":
            broken = f"Here are the values I found: {_half(text)}"
            return self.reply(
                body,
                broken,
                payload=None,
                finish="stop",
                input_tokens=tokens_in,
                output_tokens=len(broken) // 3,
                refusal=False,
            )
        if fault == "envelope":
            wrapped = {"document": truth}
            return self.reply(
                body,
                json.dumps(wrapped),
                payload=wrapped,
                finish="stop",
                input_tokens=tokens_in,
                output_tokens=tokens_out,
                refusal=False,
            )
        if fault == "truncated":
            return self.reply(
                body,
                _half(text),
                payload={},
                finish="length",
                input_tokens=tokens_in,
                output_tokens=cap - self._reasoning(body),
                refusal=False,
            )
        if fault == "refusal":
            return self.reply(
                body,
                None,
                payload=None,
                finish="refusal",
                input_tokens=tokens_in,
                output_tokens=12,
                refusal=True,
            )
        if fault == "long":
            tokens_out = max(tokens_out, int(cap * 0.97) - self._reasoning(body))
        return self.reply(
            body,
            text,
            payload=truth,
            finish="stop",
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            refusal=False,
        )

    def _reasoning(self, body: dict[str, Any]) -> int:
        return REASONING_TOKENS if self.reasoning(body) else 0


class OpenAIApi(StubApi):
    name = "openai"

    def serves(self, request: Request) -> bool:
        return request.method == "POST" and request.path.endswith("/chat/completions")

    def key(self, request: Request) -> str | None:
        value = request.headers.get("authorization", "")
        return value.removeprefix("Bearer ").strip() or None

    def problem(self, body: dict[str, Any]) -> str | None:
        fmt = body.get("response_format") or {}
        schema = fmt.get("json_schema") or {}
        if fmt.get("type") != "json_schema" or schema.get("strict") is not True:
            return "response_format must be a strict json_schema"
        if not isinstance(schema.get("schema"), dict) or "$schema" in schema["schema"]:
            return "response_format.json_schema.schema must be a cleaned JSON Schema object"
        effort = body.get("reasoning_effort")
        if effort is not None and effort not in (
            "none",
            "minimal",
            "low",
            "medium",
            "high",
            "xhigh",
            "max",
        ):
            return f"Unsupported value: 'reasoning_effort' does not support {effort!r}"
        if not isinstance(body.get("max_completion_tokens"), int):
            return "max_completion_tokens is required by this stub"
        return None

    def cap(self, body: dict[str, Any]) -> int:
        return int(body["max_completion_tokens"])

    def schema(self, body: dict[str, Any]) -> Any:
        return ((body.get("response_format") or {}).get("json_schema") or {}).get("schema")

    def reasoning(self, body: dict[str, Any]) -> bool:
        return body.get("reasoning_effort") is not None

    def error(self, status: int, message: str, kind: str) -> Response:
        types = {"rate_limit": "rate_limit_exceeded", "server": "server_error"}
        return Response(
            status,
            {
                "error": {
                    "message": message,
                    "type": types.get(kind, kind),
                    "param": None,
                    "code": None,
                }
            },
        )

    def reply(
        self,
        body: dict[str, Any],
        text: str | None,
        *,
        payload: Any,
        finish: str,
        input_tokens: int,
        output_tokens: int,
        refusal: bool,
    ) -> Response:
        reasoning = self._reasoning(body)
        message = {
            "role": "assistant",
            "content": None if refusal else text,
            "refusal": REFUSAL if refusal else None,
        }
        return Response(
            200,
            {
                "id": "chatcmpl-stub",
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": body.get("model"),
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "logprobs": None,
                        "finish_reason": "stop" if finish == "refusal" else finish,
                    }
                ],
                "usage": {
                    "prompt_tokens": input_tokens,
                    "completion_tokens": output_tokens + reasoning,
                    "total_tokens": input_tokens + output_tokens + reasoning,
                    "completion_tokens_details": {"reasoning_tokens": reasoning},
                },
            },
        )


class AnthropicApi(StubApi):
    name = "anthropic"

    def serves(self, request: Request) -> bool:
        return request.method == "POST" and request.path.endswith("/v1/messages")

    def key(self, request: Request) -> str | None:
        bearer = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        return request.headers.get("x-api-key") or bearer or None

    def citing(self, body: dict[str, Any]) -> bool:
        if body.get("tools"):
            return False
        return any(
            isinstance(block, dict)
            and block.get("type") == "document"
            and (block.get("citations") or {}).get("enabled") is True
            for message in body.get("messages") or []
            for block in message.get("content") or []
        )

    def cited_reply(self, body: dict[str, Any], blocks: list[dict[str, Any]]) -> Response:
        text = "".join(block["text"] for block in blocks)
        usage = {"input_tokens": len(json.dumps(body)) // 4, "output_tokens": len(text) // 3}
        content = [{"type": "text", **block} for block in blocks]
        return _message(body, content, "end_turn", usage)

    def problem(self, body: dict[str, Any]) -> str | None:
        if self.citing(body):
            # Citations and a forced tool do not mix: a citing request has neither tool nor
            # thinking here (as the harness sends it).
            if body.get("tool_choice") or body.get("thinking"):
                return "citations cannot be combined with tool_choice or thinking here"
            return None
        tools = body.get("tools") or []
        if len(tools) != 1 or not isinstance(tools[0].get("input_schema"), dict):
            return "expected exactly one tool with an input_schema"
        choice = body.get("tool_choice") or {}
        thinking = (body.get("thinking") or {}).get("type") in ("enabled", "adaptive")
        if thinking and choice.get("type") in ("any", "tool"):
            return "Thinking may not be enabled when tool_choice forces tool use."
        if not thinking and choice.get("type") != "tool":
            return "this stub expects the extraction tool to be forced without thinking"
        budget = (body.get("thinking") or {}).get("budget_tokens")
        if budget is not None and not 1024 <= budget < body.get("max_tokens", 0):
            return "thinking.budget_tokens must be >= 1024 and less than max_tokens"
        return None

    def cap(self, body: dict[str, Any]) -> int:
        return int(body["max_tokens"])

    def schema(self, body: dict[str, Any]) -> Any:
        return (body.get("tools") or [{}])[0].get("input_schema")

    def reasoning(self, body: dict[str, Any]) -> bool:
        return body.get("thinking") is not None

    def error(self, status: int, message: str, kind: str) -> Response:
        types = {"rate_limit": "rate_limit_error", "server": "api_error"}
        return Response(
            status, {"type": "error", "error": {"type": types.get(kind, kind), "message": message}}
        )

    def reply(
        self,
        body: dict[str, Any],
        text: str | None,
        *,
        payload: Any,
        finish: str,
        input_tokens: int,
        output_tokens: int,
        refusal: bool,
    ) -> Response:
        reasoning = self._reasoning(body)
        content: list[dict[str, Any]] = []
        if reasoning:
            content.append(
                {
                    "type": "thinking",
                    "thinking": "Reading the document.",
                    "signature": "stub-signature",
                }
            )
        tool = body["tools"][0]["name"]
        if refusal:
            content.append({"type": "text", "text": REFUSAL})
            stop = "refusal"
        elif finish == "length":
            content.append({"type": "tool_use", "id": "toolu_stub", "name": tool, "input": {}})
            stop = "max_tokens"
        elif payload is None:  # text that is not a tool call
            content.append({"type": "text", "text": text})
            stop = "end_turn"
        else:
            content.append({"type": "tool_use", "id": "toolu_stub", "name": tool, "input": payload})
            stop = "tool_use"
        usage = {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens + reasoning,
            "output_tokens_details": {"thinking_tokens": reasoning},
        }
        return _message(body, content, stop, usage)


def _message(
    body: dict[str, Any], content: list[dict[str, Any]], stop: str, usage: dict[str, Any]
) -> Response:
    """An Anthropic Messages API answer."""
    return Response(
        200,
        {
            "id": "msg_stub",
            "type": "message",
            "role": "assistant",
            "model": body.get("model"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        },
    )


class GeminiApi(StubApi):
    name = "gemini"

    def serves(self, request: Request) -> bool:
        return request.method == "POST" and request.path.endswith(":generateContent")

    def key(self, request: Request) -> str | None:
        query = dict(p.partition("=")[::2] for p in request.query.split("&") if p)
        return request.headers.get("x-goog-api-key") or query.get("key")

    def problem(self, body: dict[str, Any]) -> str | None:
        config = body.get("generationConfig") or {}
        if config.get("responseMimeType") != "application/json":
            return "generationConfig.responseMimeType must be application/json"
        schema = config.get("responseJsonSchema")
        if not isinstance(schema, dict) or "propertyOrdering" not in schema:
            return "generationConfig.responseJsonSchema must carry propertyOrdering"
        if "$schema" in schema:
            return "responseJsonSchema must not carry $schema"
        if not isinstance(config.get("maxOutputTokens"), int):
            return "generationConfig.maxOutputTokens is required by this stub"
        # The API's JSON parser takes proto field names in either case (the SDK sends nested
        # fields as snake_case).
        unknown = {_camel(k) for k in config.get("thinkingConfig") or {}} - {
            "thinkingLevel",
            "thinkingBudget",
            "includeThoughts",
        }
        if unknown:
            return f"Invalid JSON payload: unknown field {sorted(unknown)[0]!r} in thinkingConfig"
        return None

    def cap(self, body: dict[str, Any]) -> int:
        return int(body["generationConfig"]["maxOutputTokens"])

    def schema(self, body: dict[str, Any]) -> Any:
        return (body.get("generationConfig") or {}).get("responseJsonSchema")

    def reasoning(self, body: dict[str, Any]) -> bool:
        return bool((body.get("generationConfig") or {}).get("thinkingConfig"))

    def error(self, status: int, message: str, kind: str) -> Response:
        statuses = {
            429: "RESOURCE_EXHAUSTED",
            500: "INTERNAL",
            503: "UNAVAILABLE",
            400: "INVALID_ARGUMENT",
        }
        return Response(
            status,
            {
                "error": {
                    "code": status,
                    "message": message,
                    "status": statuses.get(status, "UNKNOWN"),
                }
            },
        )

    def reply(
        self,
        body: dict[str, Any],
        text: str | None,
        *,
        payload: Any,
        finish: str,
        input_tokens: int,
        output_tokens: int,
        refusal: bool,
    ) -> Response:
        reasoning = self._reasoning(body)
        usage = {
            "promptTokenCount": input_tokens,
            "candidatesTokenCount": output_tokens,
            "thoughtsTokenCount": reasoning,
            "totalTokenCount": input_tokens + output_tokens + reasoning,
        }
        if refusal:
            return Response(
                200, {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": usage}
            )
        return Response(
            200,
            {
                "candidates": [
                    {
                        "content": {"role": "model", "parts": [{"text": text}]},
                        "finishReason": "MAX_TOKENS" if finish == "length" else "STOP",
                        "index": 0,
                    }
                ],
                "usageMetadata": usage,
                "modelVersion": body.get("model", "stub"),
            },
        )


APIS: dict[str, type[StubApi]] = {f.name: f for f in (OpenAIApi, AnthropicApi, GeminiApi)}
