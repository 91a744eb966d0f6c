"""Project the world's drivers and vehicles onto a driver schedule."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.driver_schedule.model import DriverSchedule, ScheduledDriver
from packetbench.generator.world.models import Driver, Vehicle, World


def vehicle_description(vehicle: Vehicle) -> str:
    """How the schedule names a vehicle: year, make and model."""
    return f"{vehicle.year} {vehicle.make} {vehicle.model}"


def _row(driver: Driver, vehicles: dict[int, Vehicle]) -> ScheduledDriver:
    vehicle = vehicles[driver.vehicle_number] if driver.vehicle_number is not None else None
    return ScheduledDriver(
        driver_number=driver.number,
        first_name=driver.first_name,
        middle_initial=driver.middle_initial,
        last_name=driver.last_name,
        birth_date=driver.birth_date,
        gender=driver.gender,
        marital_status=driver.marital_status,
        license_number=driver.license_number,
        license_state=driver.license_state,
        license_class=driver.license_class,
        endorsements=driver.endorsements or None,
        year_licensed=driver.year_licensed,
        hire_date=driver.hire_date,
        position=driver.position,
        years_experience=driver.years_experience,
        vehicle_number=vehicle.number if vehicle else None,
        vehicle_description=vehicle_description(vehicle) if vehicle else None,
        # The world stores 0 for an unassigned driver; the schedule leaves the cell blank.
        percent_use=driver.percent_use if vehicle else None,
        violation_count=len(driver.violations),
        accident_count=driver.accidents,
        mvr_points=driver.points,
        excluded="Yes" if driver.excluded else "No",
        mvr_date=driver.mvr_date,
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> DriverSchedule:
    """Every driver of the world in number order, with the count and the submission dates."""
    vehicles = {v.number: v for v in world.vehicles}
    rows = [_row(d, vehicles) for d in world.drivers]
    return DriverSchedule(
        insured_name=world.insured.name,
        agency_name=world.producer.agency_name,
        policy_effective_date=world.policy.effective_date,
        as_of_date=world.policy.completion_date,
        drivers=rows,
        driver_count=len(rows),
    )
