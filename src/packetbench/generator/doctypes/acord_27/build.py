"""Project the world onto the evidence of property for the mortgage on the least valuable
mortgaged building."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes._issue import issue_date, policy_term
from packetbench.generator.doctypes._parties import company_of, insured_of, interest_of, producer_of
from packetbench.generator.doctypes._recipients import small_mortgage
from packetbench.generator.doctypes.acord_24.build import coverages
from packetbench.generator.doctypes.acord_27.model import Coverage, Property, PropertyEvidence
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> PropertyEvidence:
    found = small_mortgage(world)
    if found is None:
        raise ValueError("no building carries a mortgage")
    interest, building = found
    return PropertyEvidence(
        evidence_date=issue_date(world),
        producer=producer_of(world),
        company=company_of(world),
        insured=insured_of(world),
        policy=policy_term(world, "property"),
        property=Property(
            location_number=building.location_number,
            building_number=building.building_number,
            address=address_of(building.address),
            description=building.description,
        ),
        causes_of_loss=building.causes_of_loss,
        coverages=[
            Coverage(subject=row.subject, limit=row.limit, deductible=row.deductible)
            for row in coverages(building)
        ],
        interest=interest_of(interest),
        authorized_representative=world.producer.contact_name,
    )
