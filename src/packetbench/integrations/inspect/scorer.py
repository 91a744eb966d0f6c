"""packetbench's scorer as an inspect_ai scorer, and its rates as an inspect_ai metric.

A sample's answer becomes the extraction record `packetbench import inspect` writes for it
(`records`), and is scored as `packetbench score` scores that record (`scores`): the score's
value holds the document's counts, its metadata every field outcome, claim verdict and
hallucination flag. The metric pools them as `score` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from packetbench.core.errors import BadInput
from packetbench.integrations.inspect.records import answer_of, record
from packetbench.integrations.inspect.scores import rates, score
from packetbench.truth.packets import load_packet


@metric
def packetbench_rates() -> Metric:
    """Hallucination rates (numbers, strings; packet and document universe; micro and
    macro), faithfulness, recall and over-refusal over the scored documents."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = [s.score.value for s in scores if isinstance(s.score.value, dict)]
        return {name: v for name, v in rates(values).items() if v is not None}

    return compute


@scorer(metrics=[packetbench_rates()])
def packetbench_scorer() -> Scorer:
    async def score_sample(state: TaskState, target: Target) -> Score:
        meta: dict[str, Any] = state.metadata
        packet = load_packet(Path(meta["packet"]))
        doc = next((d for d in packet.documents if d.doc_id == meta["doc_id"]), None)
        if doc is None:
            raise BadInput(f"{packet.path}: no document {meta['doc_id']!r}")
        said = record(packet.packet_id, doc, answer_of(state.output), meta["max_output_tokens"])
        value, about = score(packet, doc, said)
        return Score(
            value=value,
            answer=said.status,
            explanation=about.get("excluded"),
            metadata=about,
        )

    return score_sample
