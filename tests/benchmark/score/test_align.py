"""Record alignment and record counts on hand-built lists."""

from __future__ import annotations

import copy
from typing import Any

from packetbench.benchmark.score.align import align
from packetbench.benchmark.score.field_view import compare
from packetbench.generator.doctypes.acord_125.model import Loss
from packetbench.generator.doctypes.loss_run.model import LossRun, LossRunClaim


def claim(number: str, paid: float, status: str = "Closed") -> dict[str, Any]:
    return {
        "claim_number": number,
        "loss_date": "2024-05-01",
        "report_date": "2024-05-03",
        "closed_date": None,
        "claimant": "Ann Lee",
        "description": "Water damage",
        "location_number": None,
        "status": status,
        "paid": paid,
        "reserve": 0.0,
        "incurred": paid,
    }


def test_keyed_records_align_by_key_in_any_order_and_spelling() -> None:
    truths = [claim("CL-2024-00001", 10.0), claim("CL-2024-00002", 20.0)]
    outputs = [claim("CL202400002", 20.0), claim("CL-2024-00001", 99.0)]
    result = align(LossRunClaim, truths, outputs)
    assert result.pairs == [(0, 1), (1, 0)]
    assert result.dropped == result.invented == []


def test_keyless_records_align_by_best_agreement() -> None:
    losses = [
        {
            "loss_date": f"2024-0{m}-01",
            "line": "General Liability",
            "description": d,
            "paid": p,
            "reserved": 0.0,
            "open": "No",
        }
        for m, d, p in (
            (1, "Slip and fall", 100.0),
            (2, "Cut hand", 200.0),
            (3, "Roof leak", 300.0),
        )
    ]
    shuffled = [losses[2], losses[0], losses[1]]
    assert align(Loss, losses, shuffled).pairs == [(0, 1), (1, 2), (2, 0)]


def test_a_record_agreeing_on_less_than_half_is_invented_not_matched() -> None:
    truth = [claim("CL-2024-00001", 10.0)]
    stranger: dict[str, Any] = dict.fromkeys(truth[0])
    stranger.update(claim_number="Q9999XYZ", status="Closed", paid=5.0)
    result = align(LossRunClaim, truth, [stranger])
    assert result.pairs == [] and result.dropped == [0] and result.invented == [0]


def test_dropped_and_invented_records_count_their_nested_records() -> None:
    policy = {
        "carrier": "Acme",
        "policy_number": "CPP1234567-01",
        "line_of_business": "General Liability",
        "effective_date": "2024-01-01",
        "expiration_date": "2025-01-01",
        "claims": [claim("CL-2024-00001", 10.0), claim("CL-2024-00002", 20.0)],
        "totals": {
            "claim_count": 2,
            "open_claims": 0,
            "paid": 30.0,
            "reserve": 0.0,
            "incurred": 30.0,
        },
    }
    truth: dict[str, Any] = {
        "insured_name": "Acme LLC",
        "agency_name": None,
        "valuation_date": None,
        "run_date": None,
        "policies": [policy],
        "grand_totals": {},
    }
    output = copy.deepcopy(truth)
    output["policies"] = []
    counts = compare(LossRun, truth, output).counts
    assert counts.dropped_records == 3  # the policy and its two claims
    assert counts.omitted == counts.gt_fields - 1  # everything but the insured name
    invented = copy.deepcopy(truth)
    invented["policies"].append(
        {
            **copy.deepcopy(policy),
            "policy_number": "ZZZ0000001",
            "carrier": "Nobody",
            "line_of_business": "Umbrella",
            "effective_date": "1999-01-01",
            "expiration_date": None,
            "totals": {},
            "claims": [claim("CL-1999-00009", 1.0)],
        }
    )
    counts = compare(LossRun, truth, invented).counts
    assert counts.invented_records == 2 and counts.dropped_records == 0
    assert counts.correct == counts.gt_fields
