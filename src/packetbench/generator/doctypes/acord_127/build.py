"""Project the world's fleet and auto terms onto the business auto section."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.acord_127.model import (
    DRIVER_ROWS,
    VEHICLE_ROWS,
    AutoDriver,
    AutoVehicle,
    BusinessAutoSection,
    GeneralInformation,
    VehicleCoverages,
)
from packetbench.generator.doctypes.common import address_of, answers_of, section_header, yes_no
from packetbench.generator.world.coverage import AutoUnit
from packetbench.generator.world.models import Driver, Vehicle, World


def driver_row(driver: Driver) -> AutoDriver:
    return AutoDriver(
        driver_number=driver.number,
        first_name=driver.first_name,
        middle_initial=driver.middle_initial,
        last_name=driver.last_name,
        birth_date=driver.birth_date,
        gender=driver.gender,
        marital_status=driver.marital_status,
        license_number=driver.license_number,
        license_state=driver.license_state,
        year_licensed=driver.year_licensed,
        hire_date=driver.hire_date,
        vehicle_number=driver.vehicle_number,
        percent_use=driver.percent_use if driver.vehicle_number is not None else None,
    )


def coverages(unit: AutoUnit) -> VehicleCoverages:
    physical = unit.comprehensive_deductible is not None
    return VehicleCoverages(
        liability="Yes",
        medical_payments=yes_no(unit.medical_payments),
        uninsured_motorists=yes_no(unit.uninsured_motorists),
        underinsured_motorists=yes_no(unit.underinsured_motorists),
        comprehensive=yes_no(physical),
        collision=yes_no(physical),
        towing=yes_no(unit.towing),
        rental_reimbursement=yes_no(unit.rental_reimbursement),
        comprehensive_deductible=unit.comprehensive_deductible,
        collision_deductible=unit.collision_deductible,
    )


def vehicle_block(world: World, vehicle: Vehicle, unit: AutoUnit) -> AutoVehicle:
    return AutoVehicle(
        vehicle_number=vehicle.number,
        year=vehicle.year,
        make=vehicle.make,
        model=vehicle.model,
        body_type=vehicle.body_type,
        vin=vehicle.vin,
        gvw=vehicle.gvw,
        cost_new=vehicle.cost_new,
        garaging=address_of(world.location(vehicle.garage_location).address),
        registration_state=unit.registration_state,
        territory=unit.territory,
        size_class=unit.size_class,
        use=unit.use,
        radius=unit.radius,
        class_code=unit.class_code,
        ownership=unit.ownership,
        coverages=coverages(unit),
        premium=unit.premium,
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> BusinessAutoSection:
    auto = world.business_auto
    assert auto is not None, "the business auto section needs an auto line"
    return BusinessAutoSection(
        header=section_header(world, world.policy_line("auto").policy_number),
        drivers=[driver_row(d) for d in world.drivers[:DRIVER_ROWS]],
        driver_count=len(world.drivers),
        vehicles=[
            vehicle_block(world, v, u)
            for v, u in zip(world.vehicles[:VEHICLE_ROWS], auto.units, strict=False)
        ],
        vehicle_count=len(world.vehicles),
        general_information=GeneralInformation(**answers_of(auto.answers)),
    )
