"""Project the world onto the property certificate of the first holder it evidences
property to: every building at the holder's premises, at the policy's limits."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes._issue import certificate_number, issue_date, policy_row
from packetbench.generator.doctypes._parties import holder_of, insured_of, insurers_of, producer_of
from packetbench.generator.doctypes._recipients import property_holder
from packetbench.generator.doctypes.acord_24.model import Coverage, Premises, PropertyCertificate
from packetbench.generator.doctypes.acord_140.build import BI_COINSURANCE
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.world.models import World
from packetbench.generator.world.premises import Building


def coverages(building: Building) -> list[Coverage]:
    """One row per subject with a limit, on the building's own terms (a tenant's building
    value of 0 gets no row)."""
    rows = []
    for subject, limit, coinsurance in (
        ("Building", building.building_value, building.coinsurance_percent),
        ("Business Personal Property", building.contents_value, building.coinsurance_percent),
        ("Business Income with Extra Expense", building.business_income_value, BI_COINSURANCE),
    ):
        if limit:
            rows.append(
                Coverage(
                    building_number=building.building_number,
                    subject=subject,
                    limit=limit,
                    coinsurance_percent=coinsurance,
                    valuation=building.valuation,
                    causes_of_loss=building.causes_of_loss,
                    deductible=building.deductible,
                )
            )
    return rows


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> PropertyCertificate:
    holder = property_holder(world)
    if holder is None:
        raise ValueError("no certificate holder asked for evidence of property")
    # Lenders and property managers name a premises; any other holder gets the first.
    location = world.location(holder.location_number or 1)
    return PropertyCertificate(
        certificate_date=issue_date(world),
        certificate_number=certificate_number(rng, world),
        producer=producer_of(world),
        insured=insured_of(world),
        insurers=insurers_of(world),
        premises=Premises(location_number=location.number, address=address_of(location.address)),
        policy=policy_row(world, "property"),
        coverages=[row for b in location.buildings for row in coverages(b)],
        holder=holder_of(holder),
        authorized_representative=world.producer.contact_name,
    )
