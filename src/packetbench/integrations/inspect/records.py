"""An inspect_ai answer as a packetbench extraction record, read as the harness reads one.

The same `answer.parse_reply` decides ok, invalid (not JSON, schema-invalid, cut at the
output-token cap, empty) or refused; a sample inspect_ai could not complete is an `error`
record with its message. Nothing here imports inspect_ai: the scorer and the log converter hand
in what they read from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from packetbench.benchmark.harness import answer
from packetbench.benchmark.providers.api import Reply
from packetbench.benchmark.records import ExtractionRecord, Usage
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.truth.packets import DocInfo

# inspect_ai's stop reasons for an answer cut short by a length limit.
CUT = frozenset({"max_tokens", "model_length"})


@dataclass(frozen=True)
class Answer:
    """What inspect_ai recorded of one sample's answer."""

    text: str | None
    stop_reason: str | None
    refusal: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0  # reasoning included, as inspect_ai counts them
    reasoning_tokens: int = 0
    error: str | None = None  # the sample's error: no answer at all
    latency_s: float = 0.0
    attempts: int = 1


def record(packet_id: str, doc: DocInfo, said: Answer, cap: int) -> ExtractionRecord:
    """The extraction record of `doc` from inspect_ai's answer `said`; `cap` is the output
    token cap the answer was asked under (named in a truncated answer's error)."""
    if said.error is not None:
        return ExtractionRecord(
            packet_id=packet_id,
            doc_id=doc.doc_id,
            doc_type=doc.doc_type,
            status="error",
            output=None,
            raw_text=None,
            attempts=said.attempts,
            latency_s=round(said.latency_s, 3),
            usage=Usage(),
            finish_reason=None,
            error=said.error,
        )
    reasoning = said.reasoning_tokens
    reply = Reply(
        text=said.text,
        finish_reason=said.stop_reason,
        truncated=said.stop_reason in CUT,
        refusal=said.refusal,
        input_tokens=said.input_tokens,
        output_tokens=max(0, said.output_tokens - reasoning),
        reasoning_tokens=reasoning,
    )
    parsed = answer.parse_reply(reply, DOC_TYPES[doc.schema].model, cap)
    return ExtractionRecord(
        packet_id=packet_id,
        doc_id=doc.doc_id,
        doc_type=doc.doc_type,
        status=parsed.status,
        output=parsed.output,
        raw_text=said.text,
        attempts=said.attempts,
        latency_s=round(said.latency_s, 3),
        usage=Usage(
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            reasoning_tokens=reply.reasoning_tokens,
        ),
        finish_reason=said.stop_reason,
        error=parsed.error,
    )


def answer_of(output: Any, error: str | None = None, attempts: int = 1) -> Answer:
    """The `Answer` in an inspect_ai `ModelOutput` (read by attribute, so that this module
    needs no inspect_ai): its text, stop reason, refusal and token counts. A refusal has no
    text, as the OpenAI provider reads one."""
    if error is not None or output is None:
        return Answer(None, None, error=error or "no output", attempts=attempts)
    refusal = None
    choices = getattr(output, "choices", None) or []
    content = choices[0].message.content if choices else None
    for part in content if isinstance(content, list) else []:
        if getattr(part, "type", None) == "text" and getattr(part, "refusal", None):
            refusal = part.text or "refused"
    usage = getattr(output, "usage", None)
    text = None if refusal else output.completion
    return Answer(
        text=text if text else None,
        stop_reason=output.stop_reason,
        refusal=refusal,
        input_tokens=(usage.input_tokens or 0) if usage else 0,
        output_tokens=(usage.output_tokens or 0) if usage else 0,
        reasoning_tokens=(usage.reasoning_tokens or 0) if usage else 0,
        latency_s=float(getattr(output, "time", None) or 0.0),
        attempts=attempts,
    )
