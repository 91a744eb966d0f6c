"""Project the world onto the commercial evidence for the mortgage on the most valuable
mortgaged building."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes._issue import issue_date, policy_term
from packetbench.generator.doctypes._parties import (
    company_of,
    insured_of,
    interest_of,
    producer_of,
    yes_no,
)
from packetbench.generator.doctypes._recipients import commercial_mortgage
from packetbench.generator.doctypes.acord_24.build import coverages
from packetbench.generator.doctypes.acord_28.model import (
    CommercialPropertyEvidence,
    Conditions,
    Coverage,
    Premises,
)
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> CommercialPropertyEvidence:
    found = commercial_mortgage(world)
    if found is None:
        raise ValueError("no building carries a mortgage")
    interest, b = found
    income = b.business_income_value
    return CommercialPropertyEvidence(
        evidence_date=issue_date(world),
        producer=producer_of(world),
        company=company_of(world),
        insured=insured_of(world),
        policy=policy_term(world, "property"),
        premises=Premises(
            location_number=b.location_number,
            building_number=b.building_number,
            address=address_of(b.address),
            construction=b.construction,
            occupancy=b.occupancy,
            year_built=b.year_built,
            stories=b.stories,
            floor_area=b.square_feet,
        ),
        causes_of_loss=b.causes_of_loss,
        building_covered=yes_no(b.building_value > 0),
        personal_property_covered=yes_no(b.contents_value > 0),
        coverages=[
            Coverage(
                subject=row.subject,
                limit=row.limit,
                coinsurance_percent=row.coinsurance_percent,
                valuation=row.valuation,
                deductible=row.deductible,
            )
            for row in coverages(b)
        ],
        conditions=Conditions(
            business_income=yes_no(income > 0),
            business_income_limit=income if income > 0 else None,
            replacement_cost=yes_no(b.valuation == "Replacement Cost"),
            agreed_value=yes_no(b.valuation == "Agreed Amount"),
            coinsurance_percent=b.coinsurance_percent,
        ),
        interest=interest_of(interest),
        authorized_representative=world.producer.contact_name,
    )
