"""The PB-130 WC application: the world's rating worksheet and premiums, locations of covered
states only, prior WC coverage from the loss history, and rendered read-back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_125.build import build as build_125
from packetbench.generator.doctypes.acord_130.model import WorkersCompApplication
from tests.support.paths import TIERS
from tests.support.sections import cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 25, "N2": 25, "N3": 20, "N4": 10, "N5": 5}


@pytest.mark.parametrize("tier", TIERS)
def test_application_equals_the_world(tier: str) -> None:
    for case in cases("acord_130", tier, SEEDS[tier]):
        world, doc = case.world, case.doc
        assert isinstance(doc, WorkersCompApplication)
        wc = world.workers_comp
        assert wc is not None
        states = [s.state for s in doc.state_premiums]
        assert states == [s.state for s in wc.states]
        assert {loc.address.state for loc in doc.locations} == set(states)
        assert {e.state for e in doc.excluded_states}.isdisjoint(states)
        for state in doc.state_premiums:
            rows = [r for r in doc.rating if r.state == state.state]
            assert cents(state.manual_premium) == sum(cents(r.manual_premium) for r in rows)
            assert cents(state.estimated_premium) == (
                cents(state.modified_premium)
                - cents(state.premium_discount)
                + cents(state.expense_constant)
                + cents(state.terrorism_premium)
            )
        total = sum(cents(s.estimated_premium) for s in doc.state_premiums)
        assert cents(doc.premium.estimated_annual_premium) == total
        app = build_125(world, random.Random(0), case.knobs)
        assert cents(app.lines_of_business.workers_compensation.premium) == total
        assert sum(cents(r.payroll) for r in doc.rating) == sum(
            cents(p.payroll) for p in world.payroll if p.state in states
        ) + sum(cents(p.remuneration) for p in world.principals if p.wc_included)
        included = [i for i in doc.individuals if i.inclusion == "Included"]
        assert len(included) == sum(p.wc_included for p in world.principals)
        assert (doc.status.voluntary == "Yes") == (wc.market == "Voluntary")
        wc_terms = [t for t in world.loss_history.terms if t.line == "Workers Compensation"]
        assert {p.policy_number for p in doc.prior_coverage} == {t.policy_number for t in wc_terms}
        for prior in doc.prior_coverage:
            term = next(t for t in wc_terms if t.policy_number == prior.policy_number)
            assert prior.claim_count == len(term.claims)
            assert cents(prior.amount_paid) == sum(cents(c.paid) for c in term.claims)
        check_codes(doc)


@pytest.mark.parametrize("tier", ["N1", "N3", "N5"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_130", tier, tmp_path)
    assert fields["rating[0].rate"]["rendered_as"].replace(".", "").isdigit()
