"""A claim knows both places: its aligned truth path and where the output holds it."""

from __future__ import annotations

import json

from packetbench.benchmark.score.field_view import compare
from packetbench.truth.namespaces.nightmare import scored_schema

SCHEMA = {
    "type": "object",
    "properties": {
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "claim_number": {"type": ["string", "null"]},
                    "paid": {"type": ["number", "null"]},
                },
            },
        }
    },
}


def test_reordered_records_keep_their_output_positions() -> None:
    model = scored_schema(json.dumps(SCHEMA).encode()).model
    truth = {
        "claims": [{"claim_number": "CL-1", "paid": 10.0}, {"claim_number": "CL-2", "paid": 20.0}]
    }
    output = {
        "claims": [
            {"claim_number": "CL-2", "paid": 20.0},
            {"claim_number": "CL-9", "paid": 99.0},
            {"claim_number": "CL-1", "paid": 10.0},
        ]
    }
    claims = compare(model, truth, output).claims
    assert [(c.path, c.source, c.value) for c in claims] == [
        ("claims[0].claim_number", "claims[2].claim_number", "CL-1"),
        ("claims[0].paid", "claims[2].paid", 10.0),
        ("claims[1].claim_number", "claims[0].claim_number", "CL-2"),
        ("claims[1].paid", "claims[0].paid", 20.0),
        ("claims[+1].claim_number", "claims[1].claim_number", "CL-9"),
        ("claims[+1].paid", "claims[1].paid", 99.0),
    ]
