"""Project the world's expiring policy onto its declarations page."""

from __future__ import annotations

import random
from typing import Any

from packetbench.core import codes
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.doctypes.dec_page.model import (
    AutoPart,
    CargoPart,
    CoveragePart,
    DeclarationsPage,
    FormEntry,
    LiabilityPart,
    NamedInsured,
    PolicyInfo,
    Premises,
    PremiumSummary,
    Producer,
    PropertyCoverage,
    PropertyPart,
    WorkersCompPart,
)
from packetbench.generator.world.draw import cents_of, dollars
from packetbench.generator.world.models import World
from packetbench.generator.world.premises import Building

# The declarations describe this many buildings; the rest are "per schedule on file", with
# the part's limits of all premises stated together.
SCHEDULED = 8
BI_COINSURANCE = 100.0  # business income is written without a coinsurance penalty


def _coverages(b: Building) -> list[PropertyCoverage]:
    rows = []
    for coverage, limit, coinsurance in (
        ("Building", b.building_value, b.coinsurance_percent),
        ("Business Personal Property", b.contents_value, b.coinsurance_percent),
        ("Business Income with Extra Expense", b.business_income_value, BI_COINSURANCE),
    ):
        if limit:
            rows.append(
                PropertyCoverage(
                    premises_number=b.location_number,
                    building_number=b.building_number,
                    coverage=coverage,
                    limit=limit,
                    coinsurance_percent=coinsurance,
                    valuation=b.valuation,
                    causes_of_loss=b.causes_of_loss,
                    deductible=b.deductible,
                )
            )
    return rows


def _property(world: World) -> PropertyPart:
    buildings = world.buildings()
    shown = buildings[:SCHEDULED]
    return PropertyPart(
        premises_count=len(buildings),
        building_limit=dollars(sum(cents_of(b.building_value) for b in buildings)),
        contents_limit=dollars(sum(cents_of(b.contents_value) for b in buildings)),
        business_income_limit=dollars(sum(cents_of(b.business_income_value) for b in buildings)),
        premises=[
            Premises(
                premises_number=b.location_number,
                building_number=b.building_number,
                address=address_of(b.address),
                occupancy=b.occupancy,
                construction=b.construction,
            )
            for b in shown
        ],
        coverages=[row for b in shown for row in _coverages(b)],
    )


def _parts(world: World, lines: set[str]) -> dict[str, Any]:
    """The limits of each coverage part the expiring policy has (empty parts otherwise)."""
    parts: dict[str, Any] = {}
    if "property" in lines:
        parts["property_part"] = _property(world)
    gl = world.general_liability
    if "gl" in lines and gl is not None:
        parts["liability_part"] = LiabilityPart(
            each_occurrence=gl.each_occurrence,
            general_aggregate=gl.general_aggregate,
            products_aggregate=gl.products_aggregate,
            personal_advertising=gl.personal_advertising,
            damage_to_premises=gl.damage_to_premises,
            medical_expense=gl.medical_expense,
        )
    auto = world.business_auto
    if "auto" in lines and auto is not None:
        parts["auto_part"] = AutoPart(
            combined_single_limit=auto.combined_single_limit,
            medical_payments_limit=auto.medical_payments_limit,
            vehicle_count=len(auto.units),
        )
    wc = world.workers_comp
    if "wc" in lines and wc is not None:
        parts["workers_comp_part"] = WorkersCompPart(
            each_accident=wc.each_accident,
            disease_policy_limit=wc.disease_policy_limit,
            disease_each_employee=wc.disease_each_employee,
        )
    cargo = world.cargo
    if "cargo" in lines and cargo is not None:
        parts["cargo_part"] = CargoPart(
            limit_per_vehicle=cargo.limit_per_vehicle,
            limit_per_occurrence=cargo.limit_per_occurrence,
            deductible=cargo.deductible,
        )
    return parts


def expiring_lines(world: World) -> set[str]:
    """Line ids of the expiring policy's coverage parts."""
    ids = {name: line_id for line_id, name in codes.LINE_IDS.items()}
    return {ids[p.line] for p in world.expiring.parts} if world.expiring else set()


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> DeclarationsPage:
    expiring = world.expiring
    assert expiring is not None  # the type applies only to worlds with an expiring policy
    insured, producer = world.insured, world.producer
    lines = expiring_lines(world)
    premium = sum(cents_of(p.premium) for p in expiring.parts)
    return DeclarationsPage(
        policy=PolicyInfo(
            policy_number=expiring.parts[0].policy_number,
            carrier_name=expiring.carrier,
            naic_code=expiring.naic,
            effective_date=expiring.effective_date,
            expiration_date=expiring.expiration_date,
            issued_date=expiring.issued_date,
        ),
        named_insured=NamedInsured(
            name=insured.name,
            dba=insured.dba,
            entity_type=insured.entity_type,
            mailing_address=address_of(insured.mailing_address),
        ),
        producer=Producer(
            agency_name=producer.agency_name,
            agency_code=producer.agency_code,
            address=address_of(producer.address),
        ),
        coverage_parts=[
            CoveragePart(line=p.line, policy_number=p.policy_number, premium=p.premium)
            for p in expiring.parts
        ],
        premium=PremiumSummary(
            coverage_premium=dollars(premium),
            taxes_and_fees=expiring.taxes_and_fees,
            amount_due=dollars(premium + cents_of(expiring.taxes_and_fees)),
        ),
        **_parts(world, lines),
        forms=[
            FormEntry(
                line=codes.LINE_IDS[e.line],
                form_number=e.form_number,
                edition=e.edition or None,
                title=e.title,
            )
            for e in world.endorsements
            if e.line in lines
        ],
        countersigned_by=expiring.countersigned_by,
    )
