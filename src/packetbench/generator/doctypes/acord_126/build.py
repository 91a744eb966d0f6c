"""Project the world's general liability terms onto the GL section."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.acord_126.model import (
    AdditionalInsured,
    Coverage,
    GeneralInformation,
    GeneralLiabilitySection,
    Hazard,
    Limits,
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


def additional_insureds(world: World) -> list[AdditionalInsured]:
    """Landlords named on the GL policy, then holders whose certificates require it."""
    rows = [
        AdditionalInsured(
            name=i.name,
            address=address_of(i.address),
            interest=i.interest_type,
            relationship="Landlord",
        )
        for i in world.interests
        if i.interest_type == "Additional Insured"
    ]
    rows += [
        AdditionalInsured(
            name=h.name,
            address=address_of(h.address),
            interest="Additional Insured",
            relationship=h.relationship,
        )
        for h in world.certificate_holders
        if h.additional_insured
    ]
    return rows


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> GeneralLiabilitySection:
    gl = world.general_liability
    assert gl is not None, "the GL section needs a GL line"
    return GeneralLiabilitySection(
        header=section_header(world, world.policy_line("gl").policy_number),
        coverage=Coverage(
            occurrence=yes_no(gl.trigger == "Occurrence"),
            claims_made=yes_no(gl.trigger == "Claims-Made"),
            retroactive_date=gl.retroactive_date,
            deductible=gl.deductible,
            deductible_per_claim=yes_no(gl.deductible_basis == "Per Claim"),
            deductible_per_occurrence=yes_no(gl.deductible_basis == "Per Occurrence"),
        ),
        limits=Limits(
            each_occurrence=gl.each_occurrence,
            general_aggregate=gl.general_aggregate,
            aggregate_per_policy=yes_no(gl.aggregate_applies == "Policy"),
            aggregate_per_project=yes_no(gl.aggregate_applies == "Project"),
            aggregate_per_location=yes_no(gl.aggregate_applies == "Location"),
            products_completed_operations=gl.products_aggregate,
            personal_advertising_injury=gl.personal_advertising,
            damage_to_rented_premises=gl.damage_to_premises,
            medical_expense=gl.medical_expense,
        ),
        hazards=[
            Hazard(
                location_number=h.location_number,
                hazard_number=h.hazard_number,
                class_code=h.class_code,
                classification=h.description,
                premium_basis=h.premium_basis,
                exposure=float(h.exposure),
                territory=h.territory,
                premises_rate=h.premises_rate,
                products_rate=h.products_rate,
                premises_premium=h.premises_premium,
                products_premium=h.products_premium,
            )
            for h in gl.hazards
        ],
        premiums=Premiums(
            premises_operations=gl.premises_premium,
            products_completed_operations=gl.products_premium,
            total_premium=gl.premium,
        ),
        additional_insureds=additional_insureds(world),
        general_information=GeneralInformation(**answers_of(gl.answers)),
        signature=signature_of(world),
    )
