"""The PB-823 additional premises schedule: exactly the locations past the application's four
rows, carried only when there are some, and rendered read-back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_125.build import build as build_125
from packetbench.generator.doctypes.acord_125.model import PREMISES_ROWS
from packetbench.generator.doctypes.acord_823.model import AdditionalPremisesSchedule
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.world.build import build_world
from tests.support.paths import TIERS, plain
from tests.support.sections import cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 10, "N2": 20, "N3": 15, "N4": 6, "N5": 3}


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_schedule_continues_the_application(tier: str) -> None:
    for case in cases("acord_823", tier, SEEDS[tier], lines=False):
        world, doc = case.world, case.doc
        assert isinstance(doc, AdditionalPremisesSchedule)
        app = build_125(world, random.Random(0), case.knobs)
        assert doc.premises_count == app.premises_count == len(world.locations)
        numbers = [p.location_number for p in app.premises] + [
            p.location_number for p in doc.premises
        ]
        assert numbers == [loc.number for loc in world.locations]
        for row in doc.premises:
            location = world.location(row.location_number or 0)
            assert row.address.street == location.address.street
            assert cents(row.annual_revenue) == cents(location.annual_revenue)
            assert row.occupied_area == sum(b.square_feet for b in location.buildings)
            assert row.interest == location.buildings[0].interest
        check_codes(doc)


def test_carried_exactly_when_the_application_overflows() -> None:
    knobs = plain("N2")
    kind = DOC_TYPES["acord_823"]
    seen = set()
    for seed in range(1, 40):
        world = build_world(seed, knobs)
        overflow = len(world.locations) > PREMISES_ROWS
        assert kind.carried_by(world) == overflow
        seen.add(overflow)
    assert seen == {True, False}


@pytest.mark.parametrize("tier", ["N2", "N4"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_823", tier, tmp_path)
    assert fields["premises[0].location_number"]["rendered_as"] == str(PREMISES_ROWS + 1)
