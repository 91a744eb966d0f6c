"""The PB-133 assigned-risk section: carried only in the assigned-risk market, declinations by
other carriers before the application, and rendered read-back."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_133.model import AssignedRiskSection
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.world.build import build_world
from tests.support.paths import TIERS, plain
from tests.support.sections import ALL_LINES, cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 20, "N2": 20, "N3": 15, "N4": 8, "N5": 4}


@pytest.mark.parametrize("tier", TIERS)
def test_section_equals_the_world(tier: str) -> None:
    for case in cases("acord_133", tier, SEEDS[tier]):
        world, doc = case.world, case.doc
        assert isinstance(doc, AssignedRiskSection)
        wc = world.workers_comp
        assert wc is not None and wc.market == "Assigned Risk"
        assert doc.highest_payroll_state == wc.states[0].state
        assert [s.state for s in doc.states] == [s.state for s in wc.states]
        assert 2 <= len(doc.declinations) <= 3
        completion = dt.date.fromisoformat(world.policy.completion_date)
        for declination in doc.declinations:
            assert declination.insurer != world.carrier.name
            assert dt.date.fromisoformat(declination.declined_date or "") <= completion
        assert cents(doc.estimated_annual_premium) == cents(wc.premium)
        assert cents(doc.deposit_premium) == cents(wc.deposit_premium)
        check_codes(doc)


def test_carried_only_in_the_assigned_risk_market() -> None:
    knobs = plain("N3", ALL_LINES)
    kind = DOC_TYPES["acord_133"]
    seen = set()
    for seed in range(1, 40):
        world = build_world(seed, knobs)
        market = world.workers_comp.market if world.workers_comp else None
        assert kind.carried_by(world) == (market == "Assigned Risk")
        seen.add(market)
    assert {"Voluntary", "Assigned Risk"} <= seen


@pytest.mark.parametrize("tier", ["N2", "N4"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_133", tier, tmp_path)
    assert "declinations[0].insurer" in fields
