"""Project the locations the application could not hold onto the additional premises form."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.acord_125.model import PREMISES_ROWS
from packetbench.generator.doctypes.acord_823.model import (
    AdditionalPremises,
    AdditionalPremisesSchedule,
)
from packetbench.generator.doctypes.common import address_of, section_header
from packetbench.generator.world.models import World


def overflows(world: World) -> bool:
    """Whether the application has more premises than its rows hold."""
    return len(world.locations) > PREMISES_ROWS


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> AdditionalPremisesSchedule:
    assert overflows(world), "the additional premises form continues a full application"
    return AdditionalPremisesSchedule(
        header=section_header(world, world.policy.number),
        premises_count=len(world.locations),
        premises=[
            AdditionalPremises(
                location_number=loc.number,
                building_number=loc.buildings[0].building_number,
                address=address_of(loc.address),
                county=loc.address.county,
                interest=loc.buildings[0].interest,
                full_time_employees=loc.full_time_employees,
                part_time_employees=loc.part_time_employees,
                annual_revenue=loc.annual_revenue,
                occupied_area=sum(b.square_feet for b in loc.buildings),
                operations=loc.operations,
            )
            for loc in world.locations[PREMISES_ROWS:]
        ],
    )
