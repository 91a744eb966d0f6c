"""Reading answers: every bad answer becomes a status and a reason, never an exception."""

from __future__ import annotations

import json
from typing import Any

import pytest

from packetbench.benchmark.harness.answer import parse_reply
from packetbench.benchmark.providers.api import Reply
from packetbench.generator.doctypes.base import DOC_TYPES
from tests.support.paths import PACKETS

SOV = DOC_TYPES["sov"].model
TRUTH: dict[str, Any] = json.loads(
    (PACKETS / "N1-000001" / "document_truth_sov_pdf.json").read_text()
)["truth"]


def _reply(text: str | None, **fields: Any) -> Reply:
    return Reply(text=text, finish_reason=fields.pop("finish_reason", "stop"), **fields)


def test_a_valid_answer_is_ok() -> None:
    parsed = parse_reply(_reply(json.dumps(TRUTH)), SOV, 1000)
    assert (parsed.status, parsed.output, parsed.error) == ("ok", TRUTH, None)


@pytest.mark.parametrize(
    ("text", "fields", "status", "reason"),
    [
        (None, {"refusal": "no"}, "refused", "refused: no"),
        (
            '{"insured_name": "A',
            {
                "truncated": True,
                "output_tokens": 990,
                "reasoning_tokens": 10,
                "finish_reason": "length",
            },
            "invalid",
            "truncated at the output-token cap (1,000 of 1,000 tokens used, finish_reason length)",
        ),
        ("", {}, "invalid", "empty output (finish_reason stop)"),
        ("   ", {"note": "no tool call"}, "invalid", "empty output (finish_reason stop; no tool"),
        ("The insured is Acme.", {}, "invalid", "not JSON (Expecting value at line 1 column 1)"),
        ("[1, 2]", {}, "invalid", "not a JSON object (a list)"),
        (
            '{"insured_name": "A"}',
            {},
            "invalid",
            "schema-invalid: (root): 'prepared_by' is a required property",
        ),
    ],
)
def test_bad_answers_are_explained(
    text: str | None, fields: dict[str, Any], status: str, reason: str
) -> None:
    parsed = parse_reply(_reply(text, **fields), SOV, 1000)
    assert parsed.status == status and parsed.error is not None
    assert parsed.error.startswith(reason), parsed.error


def test_defensive_readings_are_recorded() -> None:
    wrapped = parse_reply(_reply(json.dumps({"statement": TRUTH})), SOV, 1000)
    assert (wrapped.status, wrapped.output, wrapped.reading) == (
        "ok",
        TRUTH,
        "unwrapped envelope 'statement'",
    )
    fenced = parse_reply(_reply(f"```json\n{json.dumps(TRUTH)}\n```"), SOV, 1000)
    assert (fenced.status, fenced.output, fenced.reading) == (
        "ok",
        TRUTH,
        "read inside a code fence",
    )
    # Two keys are no envelope; an envelope around an invalid object is still invalid.
    assert parse_reply(_reply(json.dumps({"a": TRUTH, "b": 1})), SOV, 1000).status == "invalid"
    assert parse_reply(_reply(json.dumps({"a": {"x": 1}})), SOV, 1000).status == "invalid"


def test_numbers_json_cannot_carry_are_kept_as_the_models_text() -> None:
    # 1e999 and NaN read as floats were written as null: an invented value turned omission.
    text = json.dumps(TRUTH)
    building = TRUTH["buildings"][0]
    for key, sent in (
        ("building_value", "1e999"),
        ("contents_value", "NaN"),
        ("business_income_value", "-Infinity"),
        ("square_feet", "123456789012345678901234567890"),
    ):
        text = text.replace(f'"{key}": {json.dumps(building[key])}', f'"{key}": {sent}', 1)
    parsed = parse_reply(_reply(text), SOV, 1000)
    assert parsed.status == "ok", parsed.error
    kept = parsed.output["buildings"][0] if parsed.output else {}
    assert [kept[k] for k in ("building_value", "contents_value", "business_income_value")] == [
        "1e999",
        "NaN",
        "-Infinity",
    ]
    assert kept["square_feet"] == "123456789012345678901234567890"
    # a string that is no number stays invalid at a number leaf
    bad = json.dumps(TRUTH).replace(
        f'"building_value": {json.dumps(building["building_value"])}', '"building_value": "lots"'
    )
    assert parse_reply(_reply(bad), SOV, 1000).status == "invalid"
