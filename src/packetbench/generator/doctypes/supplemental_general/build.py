"""Project the world onto the general supplemental application."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from packetbench.generator.doctypes.common import (
    address_of,
    answers_of,
    section_header,
    signature_of,
)
from packetbench.generator.doctypes.supplemental.build import years_in_business
from packetbench.generator.doctypes.supplemental_general.model import (
    PREMISES_ROWS,
    Applicant,
    Exposures,
    GeneralAnswers,
    GeneralSupplement,
    PremisesRow,
    PriorTerm,
)
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> GeneralSupplement:
    assert world.supplements is not None, "the general supplement needs the world's facts"
    facts = world.supplements.general
    insured = world.insured
    buildings = world.buildings()
    not_renewed = set(facts.non_renewed)
    return GeneralSupplement(
        header=section_header(world, world.policy.number),
        applicant=Applicant(
            dba=insured.dba,
            entity_type=insured.entity_type,
            fein=insured.fein,
            mailing_address=address_of(insured.mailing_address),
            phone=insured.phone,
            website=insured.website,
            nature_of_business=insured.nature_of_business,
            industry=insured.industry.capitalize(),
            sic=insured.sic,
            naics=insured.naics,
            business_start_date=insured.business_start_date,
            years_in_business=years_in_business(world),
            operations_description=insured.operations_description,
        ),
        exposures=Exposures(
            full_time_employees=insured.full_time_employees,
            part_time_employees=insured.part_time_employees,
            annual_revenue=insured.annual_revenue,
            location_count=len(world.locations),
            building_count=len(buildings),
        ),
        premises=[
            PremisesRow(
                location_number=b.location_number,
                building_number=b.building_number,
                street=b.address.street,
                city=b.address.city,
                state=b.address.state,
                interest=b.interest,
                occupancy=b.occupancy,
                construction=b.construction,
                year_built=b.year_built,
                stories=b.stories,
                square_feet=b.square_feet,
                sprinklered_percent=b.sprinklered_percent,
            )
            for b in buildings[:PREMISES_ROWS]
        ],
        answers=GeneralAnswers(**answers_of(facts.answers)),
        prior_insurance=[
            PriorTerm(
                policy_year=dt.date.fromisoformat(t.effective_date).year,
                line=t.line,
                carrier=t.carrier,
                policy_number=t.policy_number,
                effective_date=t.effective_date,
                expiration_date=t.expiration_date,
                premium=t.premium,
                claim_count=len(t.claims),
                incurred=sum(round(c.incurred * 100) for c in t.claims) / 100,
                non_renewed="Yes" if t.policy_number in not_renewed else "No",
            )
            for t in world.loss_history.terms
        ],
        signature=signature_of(world),
    )
