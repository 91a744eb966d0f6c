"""Project the world onto the broker's workbook: the same locations, values, fleet, drivers
and loss history the packet's schedules show, summed where the workbook sums."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.broker_workbook.model import (
    Account,
    BrokerWorkbook,
    ContactRow,
    LossSummaryRow,
    WorkbookDriver,
    WorkbookLocation,
    WorkbookTotals,
    WorkbookVehicle,
)
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import World


def _cents(values: list[float]) -> int:
    return sum(round(v * 100) for v in values)


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> BrokerWorkbook:
    locations = []
    for location in world.locations:
        b = location.buildings
        locations.append(
            WorkbookLocation(
                location_number=location.number,
                address=address_of(location.address),
                buildings=len(b),
                building_value=dollars(_cents([x.building_value for x in b])),
                contents_value=dollars(_cents([x.contents_value for x in b])),
                business_income_value=dollars(_cents([x.business_income_value for x in b])),
                tiv=dollars(_cents([x.tiv for x in b])),
            )
        )
    vehicles = [
        WorkbookVehicle(
            unit_number=v.number,
            year=v.year,
            make=v.make,
            model=v.model,
            vin=v.vin,
            garage_location=v.garage_location,
            cost_new=v.cost_new,
            stated_amount=stated,
        )
        for v, stated in zip(world.vehicles, world.stated_amounts, strict=True)
    ]
    drivers = [
        WorkbookDriver(
            driver_number=d.number,
            name=f"{d.first_name} {d.last_name}",
            birth_date=d.birth_date,
            license_number=d.license_number,
            license_state=d.license_state,
            unit_number=d.vehicle_number,
        )
        for d in world.drivers
    ]
    losses = [
        LossSummaryRow(
            line=t.line,
            carrier=t.carrier,
            policy_number=t.policy_number,
            effective_date=t.effective_date,
            claim_count=len(t.claims),
            incurred=dollars(_cents([c.incurred for c in t.claims])),
        )
        for t in world.loss_history.terms
    ]
    contacts = [
        ContactRow(role=f"Insured - {c.role}", name=c.name, phone=c.phone, email=c.email)
        for c in world.insured.contacts
    ]
    contacts.append(
        ContactRow(
            role="Agency - Producer Contact",
            name=world.producer.contact_name,
            phone=world.producer.phone,
            email=world.producer.email,
        )
    )
    if world.preparer.name != world.producer.contact_name:
        contacts.append(
            ContactRow(
                role=f"Agency - {world.preparer.title}",
                name=world.preparer.name,
                phone=world.preparer.phone,
                email=world.preparer.email,
            )
        )
    fleet = bool(vehicles)
    return BrokerWorkbook(
        account=Account(
            insured_name=world.insured.name,
            fein=world.insured.fein,
            mailing_address=address_of(world.insured.mailing_address),
            agency_name=world.producer.agency_name,
            account_manager=world.preparer.name,
            effective_date=world.policy.effective_date,
            expiration_date=world.policy.expiration_date,
        ),
        locations=locations,
        vehicles=vehicles,
        drivers=drivers,
        losses=losses,
        contacts=contacts,
        totals=WorkbookTotals(
            location_count=len(locations),
            total_tiv=dollars(_cents([loc.tiv or 0 for loc in locations])),
            vehicle_count=len(vehicles) if fleet else None,
            driver_count=len(drivers) if fleet else None,
            claim_count=sum(r.claim_count or 0 for r in losses),
            total_incurred=dollars(_cents([r.incurred or 0 for r in losses])),
        ),
    )
