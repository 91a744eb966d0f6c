"""Project the world onto the vehicle certificate of the first lender or lessor of a
scheduled vehicle: every vehicle it holds an interest in, on the auto policy's terms."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes._issue import certificate_number, issue_date, policy_row
from packetbench.generator.doctypes._parties import (
    holder_of,
    insured_of,
    insurers_of,
    producer_of,
    yes_no,
)
from packetbench.generator.doctypes._recipients import vehicle_lender
from packetbench.generator.doctypes.acord_23.model import Vehicle, VehicleCertificate
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> VehicleCertificate:
    held = vehicle_lender(world)
    auto = world.business_auto
    if not held or auto is None:
        raise ValueError("no lender or lessor holds an interest in a scheduled vehicle")
    vehicles = {v.number: v for v in world.vehicles}
    units = {u.vehicle_number: u for u in auto.units}
    rows = []
    for interest in held:
        number = interest.vehicle_number or 0
        v, unit = vehicles[number], units[number]
        rows.append(
            Vehicle(
                vehicle_number=v.number,
                year=v.year,
                make=v.make,
                model=v.model,
                body_type=v.body_type,
                vin=v.vin,
                comprehensive_deductible=unit.comprehensive_deductible,
                collision_deductible=unit.collision_deductible,
                loan_number=interest.loan_number,
            )
        )
    kind = held[0].interest_type
    return VehicleCertificate(
        certificate_date=issue_date(world),
        certificate_number=certificate_number(rng, world),
        producer=producer_of(world),
        insured=insured_of(world),
        insurers=insurers_of(world),
        policy=policy_row(world, "auto"),
        combined_single_limit=auto.combined_single_limit,
        medical_payments_limit=auto.medical_payments_limit,
        vehicles=rows,
        holder=holder_of(held[0]),
        lienholder=yes_no(kind == "Lienholder"),
        lessor=yes_no(kind == "Lessor"),
        authorized_representative=world.producer.contact_name,
    )
