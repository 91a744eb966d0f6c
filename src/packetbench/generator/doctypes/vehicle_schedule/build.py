"""Project the world's fleet, its garaging premises, lenders and drivers onto the broker's
vehicle schedule."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.common import address_of
from packetbench.generator.doctypes.vehicle_schedule.model import (
    ScheduledUnit,
    UnitTotals,
    VehicleSchedule,
)
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import Driver, World

FINANCERS = ("Lienholder", "Lessor")


def principal_driver(drivers: tuple[Driver, ...], vehicle_number: int) -> Driver | None:
    """The driver with the largest share of the vehicle's use (lowest number on a tie)."""
    assigned = [d for d in drivers if d.vehicle_number == vehicle_number]
    return min(assigned, key=lambda d: (-d.percent_use, d.number), default=None)


def driver_name(driver: Driver) -> str:
    return f"{driver.first_name} {driver.last_name}"


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> VehicleSchedule:
    auto = world.business_auto
    assert auto is not None, "the vehicle schedule needs an auto line"
    lenders = {
        i.vehicle_number: i.name
        for i in world.interests
        if i.vehicle_number is not None and i.interest_type in FINANCERS
    }
    units = []
    for vehicle, unit, stated in zip(world.vehicles, auto.units, world.stated_amounts, strict=True):
        driver = principal_driver(world.drivers, vehicle.number)
        units.append(
            ScheduledUnit(
                unit_number=vehicle.number,
                year=vehicle.year,
                make=vehicle.make,
                model=vehicle.model,
                body_type=vehicle.body_type,
                vin=vehicle.vin,
                gvw=vehicle.gvw,
                size_class=unit.size_class,
                garaging=address_of(world.location(vehicle.garage_location).address),
                cost_new=vehicle.cost_new,
                stated_amount=stated,
                use=unit.use,
                radius=unit.radius,
                ownership=unit.ownership,
                lienholder=lenders.get(vehicle.number),
                comprehensive_deductible=unit.comprehensive_deductible,
                collision_deductible=unit.collision_deductible,
                principal_driver=driver_name(driver) if driver else None,
            )
        )
    return VehicleSchedule(
        insured_name=world.insured.name,
        agency_name=world.producer.agency_name,
        prepared_by=world.preparer.name,
        policy_effective_date=world.policy.effective_date,
        as_of_date=world.policy.completion_date,
        units=units,
        totals=UnitTotals(
            vehicle_count=len(units),
            cost_new=dollars(sum(round(v.cost_new * 100) for v in world.vehicles)),
            stated_amount=dollars(sum(round(a * 100) for a in world.stated_amounts)),
        ),
    )
