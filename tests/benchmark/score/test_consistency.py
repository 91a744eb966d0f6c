"""Arithmetic checks on extractions: each rule flags a broken sum and passes a correct one."""

from __future__ import annotations

import copy
import json
from typing import Any

from packetbench.benchmark.score import consistency
from packetbench.generator.doctypes.base import DOC_TYPES
from tests.support.paths import PACKETS


def truth(doc: str) -> dict[str, Any]:
    path = PACKETS / "N2-000001" / f"document_truth_{doc}.json"
    data: dict[str, Any] = json.loads(path.read_text())["truth"]
    return data


def flags(schema: str, data: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (c.rule, c.path)
        for c in consistency.check(schema, DOC_TYPES[schema].model, data)
        if not c.ok and not c.skipped
    ]


def test_truth_passes_every_rule() -> None:
    for doc, schema in (
        ("sov_pdf", "sov"),
        ("loss_run_pdf", "loss_run"),
        ("financial_statement_pdf", "financial_statement"),
        ("acord_125", "acord_125"),
        ("acord_140", "acord_140"),
    ):
        assert flags(schema, truth(doc)) == []


def test_financial_totals_flag_a_broken_sum() -> None:
    data = truth("financial_statement_pdf")
    broken = copy.deepcopy(data)
    broken["periods"][0]["balance_sheet"]["assets"]["current_assets"]["cash"] += 1
    assert flags("financial_statement", broken) == [
        (
            "total_equals_parts",
            "periods[0].balance_sheet.assets.current_assets.total_current_assets",
        )
    ]
    cents = copy.deepcopy(data)  # cent precision: 0.4 cent off still rounds to the same cent
    cents["periods"][0]["balance_sheet"]["assets"]["current_assets"]["cash"] += 0.004
    assert flags("financial_statement", cents) == []


def test_sov_and_loss_run_rules() -> None:
    sov = truth("sov_pdf")
    sov["buildings"][0]["tiv"] += 1000
    assert ("sov_row_tiv", "buildings[0].tiv") in flags("sov", sov)
    assert ("sov_column_total", "totals.tiv") in flags("sov", sov)
    loss = truth("loss_run_pdf")
    policy = next(i for i, p in enumerate(loss["policies"]) if p["claims"])
    loss["policies"][policy]["claims"][0]["paid"] += 5
    found = flags("loss_run", loss)
    assert ("incurred_equals_paid_plus_reserve", f"policies[{policy}].claims[0].incurred") in found
    assert ("paid_total", f"policies[{policy}].totals.paid") in found


def test_missing_inputs_skip_instead_of_passing() -> None:
    data = truth("sov_pdf")
    data["buildings"][0]["contents_value"] = None
    checks = consistency.check("sov", DOC_TYPES["sov"].model, data)
    row = next(c for c in checks if c.path == "buildings[0].tiv")
    assert row.skipped and not row.ok
