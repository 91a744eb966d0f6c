"""Project the world's fleet onto the vehicle schedule."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.acord_129.model import (
    ScheduledVehicle,
    ScheduleTotals,
    VehicleSchedule,
)
from packetbench.generator.doctypes.common import section_header
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> VehicleSchedule:
    auto = world.business_auto
    assert auto is not None, "the vehicle schedule needs an auto line"
    rows = []
    for vehicle, unit in zip(world.vehicles, auto.units, strict=True):
        rows.append(
            ScheduledVehicle(
                vehicle_number=vehicle.number,
                year=vehicle.year,
                make=vehicle.make,
                model=vehicle.model,
                body_type=vehicle.body_type,
                vin=vehicle.vin,
                gvw=vehicle.gvw,
                cost_new=vehicle.cost_new,
                garage_location=vehicle.garage_location,
                garage_state=unit.registration_state,
                territory=unit.territory,
                class_code=unit.class_code,
                size_class=unit.size_class,
                use=unit.use,
                radius=unit.radius,
                ownership=unit.ownership,
                comprehensive_deductible=unit.comprehensive_deductible,
                collision_deductible=unit.collision_deductible,
                liability_premium=unit.liability_premium,
                physical_damage_premium=unit.physical_damage_premium,
                premium=unit.premium,
            )
        )
    liability = sum(round(u.liability_premium * 100) for u in auto.units)
    damage = sum(round(u.physical_damage_premium * 100) for u in auto.units)
    return VehicleSchedule(
        header=section_header(world, world.policy_line("auto").policy_number),
        vehicle_count=len(rows),
        vehicles=rows,
        totals=ScheduleTotals(
            liability_premium=dollars(liability),
            physical_damage_premium=dollars(damage),
            total_premium=dollars(liability + damage),
        ),
    )
