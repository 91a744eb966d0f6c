"""The PB-160 businessowners section: the premises of the statement of values at its values,
premium arithmetic, the knob that caps the listed premises, and rendered read-back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_160.model import BusinessownersSection
from packetbench.generator.doctypes.sov.build import build as build_sov
from tests.support.paths import TIERS
from tests.support.sections import cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 25, "N2": 25, "N3": 15, "N4": 6, "N5": 3}


@pytest.mark.parametrize("tier", TIERS)
def test_premises_carry_the_schedule_values(tier: str) -> None:
    for case in cases("acord_160", tier, SEEDS[tier], lines=False):
        world, doc, knobs = case.world, case.doc, case.knobs
        assert isinstance(doc, BusinessownersSection)
        buildings = world.buildings()
        assert doc.premises_count == len(buildings)
        assert len(doc.premises) == min(knobs["acord_160.max_premises"], len(buildings))
        sov = {
            (r.location_number, r.building_number): r
            for r in build_sov(world, random.Random(0), knobs).buildings
        }
        for row in doc.premises:
            scheduled = sov[(row.location_number, row.building_number)]
            assert cents(row.building_limit) == cents(scheduled.building_value)
            assert cents(row.bpp_limit) == cents(scheduled.contents_value)
            assert (row.construction, row.year_built, row.square_feet) == (
                scheduled.construction,
                scheduled.year_built,
                scheduled.square_feet,
            )
        p = doc.premiums
        assert cents(p.total_premium) == cents(p.property) + cents(p.liability) + cents(
            p.optional_coverages
        )
        assert cents(p.optional_coverages) == sum(cents(o.premium) for o in doc.optional_coverages)
        if len(doc.premises) == len(buildings):
            assert cents(p.property) == sum(cents(r.premium) for r in doc.premises)
        assert {doc.policy.standard, doc.policy.special} == {"Yes", "No"}
        listed = {(r.location_number, r.building_number) for r in doc.premises}
        assert {(m.location_number, m.building_number) for m in doc.mortgagees} == {
            (b.location_number, b.building_number)
            for b in buildings
            if b.mortgagee and (b.location_number, b.building_number) in listed
        }
        check_codes(doc)


@pytest.mark.parametrize("tier", ["N1", "N4"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_160", tier, tmp_path)
    # Location and building numbers are drawn in both premises tables.
    assert len(fields["premises[0].location_number"]["locations"]) == 2
