"""Reading an answer: ok, or invalid / refused with the reason, never an exception.

A refusal is `refused`; an answer cut at the output-token cap, an empty answer, text that is
not a JSON object and an object that breaks the schema are `invalid`, each with a reason.
Two defensive readings, both recorded in the request log: a JSON object inside a single
Markdown code fence is read (local servers add them), and an object wrapped in one extra
single-key envelope ({"sov": {...}}) is unwrapped when the inner object, not the wrapper,
is valid.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from packetbench.benchmark.providers.api import Reply
from packetbench.benchmark.records import Status
from packetbench.core.leaves import DocModel
from packetbench.truth.normalize import INT_LIMIT
from packetbench.truth.validate import problem

FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n(.*?)\n?```\s*$", re.S)


@dataclass(frozen=True)
class Parsed:
    status: Status
    output: dict[str, Any] | None
    error: str | None
    reading: str | None = None  # "unwrapped envelope 'sov'", "read inside a code fence"
    evidence: Any = None  # a cited answer's evidence list, as the model gave it
    confidence: Any = None  # an answer's confidence list (extract --confidence), as given


# A number the record cannot carry (1e999, NaN, Infinity, an integer beyond 64 bits) is kept
# as the model's text: read as a float it would be written as null, an invented value
# turned into an omission.
def _float(text: str) -> float | str:
    value = float(text)
    return value if math.isfinite(value) else text


def _int(text: str) -> int | str:
    value = int(text)
    return value if abs(value) < INT_LIMIT else text


def parse_reply(
    reply: Reply, model: type[DocModel], cap: int, cited: bool = False, confident: bool = False
) -> Parsed:
    """What `reply` reads as. A `cited` answer (`extract --cite`) is an object holding the
    document's values under `values` and their evidence under `evidence`: the values are
    read as any answer is, the evidence is kept for the record as given. A `confident`
    answer (`extract --confidence`) holds its confidences under `confidence`, kept alike."""
    if reply.refusal:
        return Parsed("refused", None, f"refused: {reply.refusal}")
    if reply.truncated:
        used = reply.output_tokens + reply.reasoning_tokens
        return Parsed(
            "invalid",
            None,
            f"truncated at the output-token cap ({used:,} of "
            f"{cap:,} tokens used, finish_reason "
            f"{reply.finish_reason})",
        )
    text = reply.text
    if text is None or not text.strip():
        why = f"; {reply.note}" if reply.note else ""
        return Parsed("invalid", None, f"empty output (finish_reason {reply.finish_reason}{why})")
    reading = None
    fenced = FENCE.match(text)
    if fenced:
        text, reading = fenced.group(1), "read inside a code fence"
    try:
        data = json.loads(text, parse_float=_float, parse_int=_int, parse_constant=str)
    except json.JSONDecodeError as error:
        return Parsed(
            "invalid", None, f"not JSON ({error.msg} at line {error.lineno} column {error.colno})"
        )
    if not isinstance(data, dict):
        return Parsed("invalid", None, f"not a JSON object (a {type(data).__name__})")
    evidence = confidence = None
    if cited or confident:
        what = "a cited answer" if cited else "an answer with confidences"
        if not isinstance(data.get("values"), dict):
            return Parsed("invalid", data, f"schema-invalid: {what} has no values object")
        evidence = data.get("evidence")
        if cited and not isinstance(evidence, list):
            return Parsed("invalid", data, "schema-invalid: a cited answer has no evidence list")
        confidence = data.get("confidence")
        if confident and not isinstance(confidence, list):
            return Parsed("invalid", data, f"schema-invalid: {what} has no confidence list")
        data = data["values"]
    reason = problem(model, data)
    if reason is None:
        return Parsed("ok", data, None, reading, evidence, confidence)
    if len(data) == 1:
        ((key, inner),) = data.items()
        if isinstance(inner, dict) and problem(model, inner) is None:
            return Parsed("ok", inner, None, f"unwrapped envelope {key!r}", evidence, confidence)
    return Parsed("invalid", data, f"schema-invalid: {reason}", reading)
