"""``packetbench/extract``: every document of a folder of packets as an inspect_ai sample.

    inspect eval packetbench/extract -T packets=DIR -T input=images --model openai/MODEL

A sample is one document, asked as `packetbench extract --input MODE` asks it: the same
system prompt, instructions and document parts (the PDF itself, its pages' text layers, or
its pages as PNG images; a workbook or CSV as text), and the same strict JSON schema, sent as
inspect_ai's structured output (`ResponseSchema`, strict). The scorer is packetbench's
(`scorer`). The task's metadata records what `packetbench import inspect` needs to turn the
log into a run folder: the sha256 of every document and truth file asked about, and the
prompt and schema hashes.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    Content,
    ContentDocument,
    ContentImage,
    ContentText,
    GenerateConfig,
    ResponseSchema,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import JSONSchema

from packetbench import __version__
from packetbench.benchmark import provenance
from packetbench.benchmark.providers.api import Part
from packetbench.integrations.inspect.documents import Ask, asks, check_mode, describe, packets_of
from packetbench.integrations.inspect.scorer import packetbench_scorer

DEFAULT_MAX_OUTPUT_TOKENS = 32_000  # the OpenAI provider's default cap


def _content(part: Part) -> Content:
    if part.kind == "text":
        return ContentText(text=part.text)
    encoded = base64.b64encode(part.data).decode("ascii")
    if part.kind == "pdf":
        return ContentDocument(
            document=f"data:application/pdf;base64,{encoded}",
            filename=part.label,
            mime_type="application/pdf",
        )
    return ContentImage(image=f"data:image/png;base64,{encoded}", detail="high")


def sample(ask: Ask, max_output_tokens: int) -> Sample:
    prompt = ask.prompt
    return Sample(
        id=ask.sample_id,
        input=[
            ChatMessageSystem(content=prompt.system),
            ChatMessageUser(
                content=[
                    ContentText(text=prompt.instructions),
                    *(_content(p) for p in prompt.parts),
                ]
            ),
        ],
        metadata={
            "packet": str(ask.packet.path.resolve()),
            "packet_id": ask.packet.packet_id,
            "doc_id": ask.doc.doc_id,
            "doc_type": ask.doc.doc_type,
            "schema_name": ask.doc.schema,
            "schema": ask.schema,
            "input": ask.document.describe(),
            "max_output_tokens": max_output_tokens,
        },
    )


@solver
def ask_with_schema() -> Solver:
    """Generate under the sample's own strict schema (each document type has its own)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        schema = ResponseSchema(
            name=state.metadata["schema_name"],
            json_schema=JSONSchema.model_validate(state.metadata["schema"]),
            strict=True,
        )
        return await generate(state, response_schema=schema)

    return solve


@task
def extract(
    packets: str,
    input: str = "native",
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS,
) -> Task:
    """Extract every document of the packets in `packets` (a folder of packets, or one
    packet); `input` is native, text or images, as `packetbench extract --input`."""
    check_mode(input)
    folder = Path(packets)
    found = packets_of(folder)
    info: dict[str, Any] = {
        "toolkit_version": __version__,
        "packets_dir": str(folder.resolve()),
        "input": input,
        "max_output_tokens": max_output_tokens,
        "packets": [provenance.packet_entry(p) for p in found],
        **describe(found),
    }
    return Task(
        dataset=MemoryDataset(
            [sample(a, max_output_tokens) for a in asks(found, input)],
            name=folder.resolve().name,
        ),
        solver=ask_with_schema(),
        scorer=packetbench_scorer(),
        config=GenerateConfig(max_tokens=max_output_tokens),
        metadata={"packetbench": info},
    )
