"""Project the world's businessowners alternative onto the BOP section."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.acord_160.model import (
    BopPremises,
    BusinessownersSection,
    GeneralInformation,
    LiabilityLimits,
    Mortgagee,
    OptionalCoverage,
    PolicyTerms,
    Premiums,
)
from packetbench.generator.doctypes.common import (
    address_of,
    answers_of,
    section_header,
    signature_of,
    yes_no,
)
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> BusinessownersSection:
    bop = world.businessowners
    assert bop is not None, "the BOP section needs the businessowners alternative"
    listed = list(zip(world.buildings(), bop.premises, strict=True))
    listed = listed[: knobs["acord_160.max_premises"]]
    return BusinessownersSection(
        header=section_header(world, bop.quote_number),
        policy=PolicyTerms(
            standard=yes_no(bop.policy_type == "Standard"),
            special=yes_no(bop.policy_type == "Special"),
            property_deductible=bop.property_deductible,
        ),
        liability=LiabilityLimits(
            each_occurrence=bop.each_occurrence,
            general_aggregate=bop.general_aggregate,
            products_aggregate=bop.products_aggregate,
            personal_advertising=bop.personal_advertising,
            damage_to_rented_premises=bop.damage_to_premises,
            medical_expense=bop.medical_expense,
        ),
        premiums=Premiums(
            property=bop.property_premium,
            liability=bop.liability_premium,
            optional_coverages=bop.optional_premium,
            total_premium=bop.premium,
        ),
        premises_count=len(bop.premises),
        premises=[
            BopPremises(
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
                building_limit=p.building_limit,
                bpp_limit=p.bpp_limit,
                rate=p.rate,
                premium=p.premium,
            )
            for b, p in listed
        ],
        optional_coverages=[
            OptionalCoverage(
                coverage=o.coverage, limit=o.limit, deductible=o.deductible, premium=o.premium
            )
            for o in bop.options
        ],
        mortgagees=[
            Mortgagee(
                name=b.mortgagee,
                location_number=b.location_number,
                building_number=b.building_number,
                loan_number=b.loan_number,
            )
            for b, _ in listed
            if b.mortgagee
        ],
        general_information=GeneralInformation(**answers_of(bop.answers)),
        signature=signature_of(world),
    )
