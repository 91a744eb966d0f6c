"""The cited schema of every document schema is strict on all three providers."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from packetbench.benchmark.grounding.schema import cited_schema
from packetbench.benchmark.harness.stub.strict import cite_mode, strict_problem
from packetbench.benchmark.providers.anthropic import AnthropicProvider
from packetbench.benchmark.providers.api import ApiSettings
from packetbench.benchmark.providers.gemini import GeminiProvider
from packetbench.benchmark.providers.openai import OpenAIProvider
from packetbench.generator.schema_files import all_schemas
from tests.support.schemas import strictness_problems

PROVIDERS = (OpenAIProvider, AnthropicProvider, GeminiProvider)


@pytest.mark.parametrize("mode", ["page", "box"])
def test_every_cited_schema_is_strict_for_every_provider(mode: str) -> None:
    for name, schema in all_schemas().items():
        wrapped = cited_schema(schema, mode)
        assert strictness_problems(wrapped, name) == []
        assert wrapped["properties"]["values"] == {
            k: v for k, v in schema.items() if k not in ("$schema", "$id")
        }
        for cls in PROVIDERS:
            sent = cls(ApiSettings(model="m", cite=mode)).clean_schema(wrapped)
            assert strict_problem(sent) is None, (cls.name, name)
            assert cite_mode(sent) == mode
    # the plain schemas are no cited schemas
    assert all(cite_mode(s) is None for s in all_schemas().values())


def test_the_stub_rules_refuse_what_strict_modes_refuse() -> None:
    wrapped = cited_schema(all_schemas()["sov"], "box")
    assert strict_problem(wrapped) is None

    def entry(schema: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = schema["properties"]["evidence"]["items"]
        return found

    def min_items(schema: dict[str, Any]) -> None:
        schema["properties"]["evidence"]["minItems"] = 1

    def open_entry(schema: dict[str, Any]) -> None:
        entry(schema)["additionalProperties"] = True

    def optional(schema: dict[str, Any]) -> None:
        entry(schema)["required"].pop()

    def union(schema: dict[str, Any]) -> None:
        entry(schema)["properties"]["x0"]["type"] = ["number", "string", "null"]

    cases: dict[str, Callable[[dict[str, Any]], None]] = {
        "minItems": min_items,
        "additionalProperties": open_entry,
        "be required": optional,
        "type": union,
    }
    for word, breaking in cases.items():
        broken = copy.deepcopy(wrapped)
        breaking(broken)
        problem = strict_problem(broken)
        assert problem is not None and word in problem, (word, problem)
    assert strict_problem({"type": "array", "items": {"type": "string"}}) is not None
    assert json.dumps(wrapped)  # serialisable as sent
