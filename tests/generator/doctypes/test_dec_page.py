"""The expiring policy's declarations: the incumbent's current terms, premiums that add up,
limits equal to the schedule, and every drawn value read back where it was drawn."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from packetbench.core import codes
from packetbench.generator.doctypes.dec_page.build import SCHEDULED, build
from packetbench.generator.doctypes.dec_page.model import DeclarationsPage
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.rendered import render
from tests.support.sections import check_codes
from tests.support.values import cents

TIERS = tuple(PRESETS)


def check(world: World, doc: DeclarationsPage, knobs: dict[str, Any]) -> None:
    expiring = world.expiring
    assert expiring is not None
    policy = doc.policy
    # The expiring term ends when the new program starts; the loss runs show the same terms.
    assert policy.expiration_date == world.policy.effective_date
    assert str(policy.issued_date) < str(policy.effective_date) < str(policy.expiration_date)
    latest = [
        t for t in world.loss_history.terms if t.expiration_date == world.policy.effective_date
    ]
    assert [(p.line, p.policy_number, cents(p.premium)) for p in doc.coverage_parts] == [
        (t.line, t.policy_number, cents(t.premium)) for t in latest
    ]
    assert policy.carrier_name == latest[0].carrier
    assert policy.policy_number == doc.coverage_parts[0].policy_number
    if expiring.carrier == world.carrier.name:
        assert policy.naic_code == world.carrier.naic
    premium = doc.premium
    assert cents(premium.coverage_premium) == sum(cents(p.premium) for p in doc.coverage_parts)
    assert cents(premium.amount_due) == cents(premium.coverage_premium) + cents(
        premium.taxes_and_fees
    )
    assert doc.named_insured.name == world.insured.name
    lines = {p.line for p in doc.coverage_parts}
    # Each coverage part's limits are present exactly when the policy has the part.
    prop = doc.property_part
    assert (prop.premises_count is not None) == ("Commercial Property" in lines)
    if prop.premises_count is not None:
        buildings = world.buildings()
        assert prop.premises_count == len(buildings)
        assert cents(prop.building_limit) == sum(cents(b.building_value) for b in buildings)
        assert cents(prop.contents_limit) == sum(cents(b.contents_value) for b in buildings)
        assert len(prop.premises) == min(SCHEDULED, len(buildings))
        by_key: dict[tuple[int | None, int | None], Any] = {
            (b.location_number, b.building_number): b for b in buildings
        }
        for row in prop.coverages:
            b = by_key[(row.premises_number, row.building_number)]
            limit = {
                "Building": b.building_value,
                "Business Personal Property": b.contents_value,
            }.get(str(row.coverage), b.business_income_value)
            assert cents(row.limit) == cents(limit) > 0
            assert row.valuation == b.valuation and cents(row.deductible) == cents(b.deductible)
        shown = {(p.premises_number, p.building_number) for p in prop.premises}
        assert {(r.premises_number, r.building_number) for r in prop.coverages} == shown
    assert (doc.liability_part.each_occurrence is not None) == ("General Liability" in lines)
    assert (doc.auto_part.combined_single_limit is not None) == ("Commercial Auto" in lines)
    assert (doc.workers_comp_part.each_accident is not None) == ("Workers Compensation" in lines)
    assert (doc.cargo_part.limit_per_occurrence is not None) == ("Motor Truck Cargo" in lines)
    gl = world.general_liability
    if gl is not None and doc.liability_part.each_occurrence is not None:
        assert cents(doc.liability_part.general_aggregate) == cents(gl.general_aggregate)
    # The forms are the program's schedule, for the parts this policy has.
    ids = {v: k for k, v in codes.LINE_IDS.items()}
    assert [(f.line, f.form_number) for f in doc.forms] == [
        (codes.LINE_IDS[e.line], e.form_number)
        for e in world.endorsements
        if codes.LINE_IDS[e.line] in lines
    ]
    assert {ids[str(f.line)] for f in doc.forms} == {ids[str(line)] for line in lines}


@pytest.mark.parametrize("tier", TIERS)
def test_model_validates_and_enums_are_in_their_code_lists(tier: str) -> None:
    knobs = plain(tier)
    check_codes(build(build_world(2, knobs), random.Random(0), knobs))


@pytest.mark.parametrize("tier", TIERS)
def test_every_value_reads_back_and_the_truth_is_the_model(tier: str, tmp_path: Path) -> None:
    rendered = render("dec_page", tier, 3, tmp_path)
    check(rendered.world, rendered.doc, plain(tier))  # type: ignore[arg-type]
    # The policy number heads every page.
    number = rendered.fields["policy.policy_number"]
    assert sorted({loc["page"] for loc in number["locations"]}) == list(
        range(1, rendered.pages + 1)
    )


def test_a_large_schedule_is_summarized() -> None:
    knobs = plain("N4")
    world = build_world(5, knobs)
    doc = build(world, random.Random(0), knobs)
    assert doc.property_part.premises_count == len(world.buildings()) > SCHEDULED
    assert len(doc.property_part.premises) == SCHEDULED
