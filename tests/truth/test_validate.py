"""The model-walking validator agrees with jsonschema on the committed schemas."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.json_schema import document_schema
from packetbench.truth import validate
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
@pytest.mark.slow
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


@settings(max_examples=200, deadline=None)
@given(mutated())
@pytest.mark.slow
def test_fit_leaves_a_valid_instance_and_keeps_a_valid_one(case: tuple[str, Any]) -> None:
    """`score --invalid salvage` scores `fit`'s output: always a valid instance, and a valid
    output comes back as it was, with nothing invented or unfit."""
    doc, data = case
    model = DOC_TYPES[SCHEMA[doc]].model
    fitted = validate.fit(model, copy.deepcopy(data))
    assert validate.problem(model, fitted.output) is None
    if validate.problem(model, data) is None:
        assert fitted.output == data
        assert (fitted.invented, fitted.unfit) == ([], [])
        assert fitted.keys == sum(
            len(node) for node in _walk_objects(data)
        )  # every key written where the schema describes an object


def _walk_objects(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        return [data, *(o for v in data.values() for o in _walk_objects(v))]
    if isinstance(data, list):
        return [o for v in data for o in _walk_objects(v)]
    return []


def test_fit_names_invented_keys_and_unfit_leaves() -> None:
    model = DOC_TYPES["sov"].model
    data = copy.deepcopy(TRUTHS["sov_pdf"])
    data["notes"] = {"free": "text"}  # a key the schema lacks, with leaves of its own
    data["buildings"][1]["wing"] = "B"
    data["insured_name"] = 12  # of the wrong type
    data["buildings"][0]["year_built"] = "1980"
    data["totals"] = "see attached"  # an object that is not one
    del data["as_of_date"]  # missing: null, neither invented nor unfit
    fitted = validate.fit(model, data)
    assert fitted.invented == ["notes", "buildings[1].wing"]
    assert fitted.unfit == ["insured_name", "buildings[0].year_built", "totals"]
    out = fitted.output
    assert out["insured_name"] is None and out["as_of_date"] is None
    assert set(out["totals"]) == set(TRUTHS["sov_pdf"]["totals"])
    assert not any(out["totals"].values())
    assert out["buildings"][0]["year_built"] is None
    assert out["buildings"][0]["tiv"] == TRUTHS["sov_pdf"]["buildings"][0]["tiv"]
    assert out["buildings"][1] == TRUTHS["sov_pdf"]["buildings"][1]
    assert out["prepared_by"] == TRUTHS["sov_pdf"]["prepared_by"]
