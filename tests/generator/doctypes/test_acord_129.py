"""The PB-129 vehicle schedule: every vehicle of the world, totals that are the sums of the
rows, agreement with the business auto section, and rendered read-back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_127.build import build as build_127
from packetbench.generator.doctypes.acord_129.model import VehicleSchedule
from tests.support.paths import TIERS
from tests.support.sections import cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 25, "N2": 25, "N3": 15, "N4": 8, "N5": 4}


@pytest.mark.parametrize("tier", TIERS)
def test_schedule_equals_the_world(tier: str) -> None:
    for case in cases("acord_129", tier, SEEDS[tier]):
        world, doc = case.world, case.doc
        assert isinstance(doc, VehicleSchedule)
        assert doc.vehicle_count == len(doc.vehicles) == len(world.vehicles)
        assert [v.vin for v in doc.vehicles] == [v.vin for v in world.vehicles]
        for row in doc.vehicles:
            assert cents(row.premium) == cents(row.liability_premium) + cents(
                row.physical_damage_premium
            )
            assert (row.comprehensive_deductible is None) == (
                cents(row.physical_damage_premium) == 0
            )
            garage = world.location(row.garage_location or 0)
            assert row.garage_state == garage.address.state
        assert cents(doc.totals.liability_premium) == sum(
            cents(v.liability_premium) for v in doc.vehicles
        )
        assert cents(doc.totals.total_premium) == sum(cents(v.premium) for v in doc.vehicles)
        # The auto section's vehicles are the schedule's first rows, premium for premium.
        section = build_127(world, random.Random(0), case.knobs)
        for block, row in zip(section.vehicles, doc.vehicles, strict=False):
            assert (block.vin, cents(block.premium), block.class_code) == (
                row.vin,
                cents(row.premium),
                row.class_code,
            )
        check_codes(doc)


@pytest.mark.parametrize("tier", ["N2", "N5"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_129", tier, tmp_path)
    assert fields["totals.total_premium"]["locations"][0]["page"] >= 1
