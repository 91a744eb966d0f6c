"""Project the world onto a statement of values."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.common import address_of
from packetbench.generator.doctypes.sov.model import SovBuilding, SovTotals, StatementOfValues
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> StatementOfValues:
    rows = [
        SovBuilding(
            location_number=b.location_number,
            building_number=b.building_number,
            address=address_of(b.address),
            occupancy=b.occupancy,
            construction=b.construction,
            year_built=b.year_built,
            stories=b.stories,
            square_feet=b.square_feet,
            sprinklered_percent=b.sprinklered_percent,
            protection_class=b.protection_class,
            building_value=b.building_value,
            contents_value=b.contents_value,
            business_income_value=b.business_income_value,
            tiv=b.tiv,
        )
        for b in world.buildings()
    ]

    def total(attribute: str) -> float:
        # Sum in cents so the total is exact at cent precision.
        return dollars(sum(round(getattr(r, attribute) * 100) for r in rows))

    return StatementOfValues(
        insured_name=world.insured.name,
        prepared_by=world.producer.agency_name,
        as_of_date=world.policy.completion_date,
        buildings=rows,
        totals=SovTotals(
            building_value=total("building_value"),
            contents_value=total("contents_value"),
            business_income_value=total("business_income_value"),
            tiv=total("tiv"),
        ),
    )
