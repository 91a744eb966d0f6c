"""Project the world onto the property section: the first buildings of the schedule."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.acord_140.model import (
    AdditionalInterest,
    ConstructionDetails,
    FireProtection,
    Improvements,
    Interest,
    PolicyHeader,
    Premises,
    PropertySection,
    SubjectOfInsurance,
)
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.world.models import World
from packetbench.generator.world.premises import Building

# Business income is written without a coinsurance penalty, the usual 12-month basis.
BI_COINSURANCE = 100.0


def _subjects(b: Building) -> list[SubjectOfInsurance]:
    """One row per subject with a limit; a tenant's zero building value gets no row."""
    rows: list[SubjectOfInsurance] = []
    for subject, limit, coinsurance in (
        ("Building", b.building_value, b.coinsurance_percent),
        ("Business Personal Property", b.contents_value, b.coinsurance_percent),
        ("Business Income with Extra Expense", b.business_income_value, BI_COINSURANCE),
    ):
        if limit == 0:
            continue
        rows.append(
            SubjectOfInsurance(
                subject=subject,
                limit=limit,
                coinsurance_percent=coinsurance,
                valuation=b.valuation,
                causes_of_loss=b.causes_of_loss,
                deductible=b.deductible,
                deductible_type="Flat Dollar",
            )
        )
    return rows


def _premises(b: Building) -> Premises:
    return Premises(
        premises_number=b.location_number,
        building_number=b.building_number,
        address=address_of(b.address),
        building_description=b.description,
        subjects=_subjects(b),
        construction=ConstructionDetails(
            construction=b.construction,
            stories=b.stories,
            basements=b.basements,
            year_built=b.year_built,
            floor_area=b.square_feet,
            roof_covering=b.roof_covering,
            wind_class=b.wind_class,
        ),
        improvements=Improvements(
            wiring_year=b.wiring_year,
            roofing_year=b.roof_year,
            plumbing_year=b.plumbing_year,
            heating_year=b.heating_year,
        ),
        fire_protection=FireProtection(
            protection_class=b.protection_class,
            hydrant_feet=b.hydrant_feet,
            station_miles=b.station_miles,
            sprinklered_percent=b.sprinklered_percent,
            sprinkler_type=b.sprinkler_type,
            fire_alarm=b.fire_alarm,
        ),
        burglar_alarm=b.burglar_alarm,
        interest=Interest(
            owner="Yes" if b.interest == "Owner" else "No",
            tenant="Yes" if b.interest == "Tenant" else "No",
        ),
        additional_interest=AdditionalInterest(
            mortgagee_name=b.mortgagee,
            loan_number=b.loan_number,
        ),
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> PropertySection:
    """The property section for the first `acord_140.max_premises` buildings."""
    buildings = world.buildings()[: knobs["acord_140.max_premises"]]
    return PropertySection(
        header=PolicyHeader(
            agency_name=world.producer.agency_name,
            carrier_name=world.carrier.name,
            naic_code=world.carrier.naic,
            policy_number=world.policy.number,
            effective_date=world.policy.effective_date,
            named_insured=world.insured.name,
        ),
        premises=[_premises(b) for b in buildings],
    )
