"""The model-walking validator agrees with jsonschema on the committed schemas."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from packetbench.benchmark.score import validate
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.json_schema import document_schema
from tests.support.paths import PACKETS

SCHEMA = {
    "acord_125": "acord_125",
    "acord_140": "acord_140",
    "sov_pdf": "sov",
    "loss_run_pdf": "loss_run",
    "driver_schedule_pdf": "driver_schedule",
    "financial_statement_pdf": "financial_statement",
    "acord_25": "acord_25",
    "acord_75": "acord_75",
}


def _first_truth(doc: str) -> Any:
    """The truth of `doc`, or of another format of its type (a packet's cap on documents may
    leave one format out), in the first canonical packet from N2 on that carries it."""
    for packet in ("N2-000001", "N3-000001", "N4-000001", "N5-000001"):
        for path in sorted((PACKETS / packet).glob("document_truth_*.json")):
            document = json.loads(path.read_text())
            if document["doc_id"] == doc or (
                document["schema"] == SCHEMA[doc] and document["doc_id"].startswith(SCHEMA[doc])
            ):
                return document["truth"]
    raise AssertionError(f"no canonical packet carries {doc} or another format of its type")


TRUTHS = {doc: _first_truth(doc) for doc in SCHEMA}
REPLACEMENTS: list[Any] = [None, "text", 12, 12.5, 3.0, True, [], {}, "Open", "Not a code"]


def _nodes(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _nodes(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _nodes(value, (*path, index))
    return found


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, Any]:
    doc = draw(st.sampled_from(sorted(TRUTHS)))
    data = copy.deepcopy(TRUTHS[doc])
    for _ in range(draw(st.integers(0, 2))):
        nodes = _nodes(data)
        path = draw(st.sampled_from(nodes[1:]))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "delete", "extra"]))
        if action == "replace":
            parent[path[-1]] = draw(st.sampled_from(REPLACEMENTS))
        elif action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "extra" and isinstance(parent, dict):
            parent["unexpected"] = 1
    return doc, data


@settings(max_examples=300, deadline=None)
@given(mutated())
def test_validator_agrees_with_jsonschema(case: tuple[str, Any]) -> None:
    doc, data = case
    schema = SCHEMA[doc]
    jsonschema_ok = Draft202012Validator(document_schema(schema, DOC_TYPES[schema].model)).is_valid(
        data
    )
    problem = validate.problem(DOC_TYPES[schema].model, data)
    assert (problem is None) == jsonschema_ok, problem


def test_truths_are_valid() -> None:
    for doc, truth in TRUTHS.items():
        assert validate.problem(DOC_TYPES[SCHEMA[doc]].model, truth) is None
