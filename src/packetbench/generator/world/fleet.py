"""Vehicles and drivers, with licence classes that fit what they drive."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from faker import Faker

from packetbench.generator.fakers.insurance import Industry
from packetbench.generator.world.draw import add_years, date_between, iso, round_to, weighted
from packetbench.generator.world.models import Driver, Vehicle, Violation

# Cost new (dollars) by body type.
COST_NEW: dict[str, tuple[int, int]] = {
    "Pickup": (38_000, 72_000),
    "Cargo Van": (42_000, 61_000),
    "Box Truck": (62_000, 88_000),
    "Straight Truck": (105_000, 150_000),
    "Tractor": (145_000, 195_000),
}

VIOLATIONS: tuple[tuple[str, int], ...] = (
    ("Speeding 1-10 mph over limit", 2),
    ("Speeding 11-15 mph over limit", 3),
    ("Failure to obey traffic signal", 3),
    ("Improper lane change", 2),
    ("Following too closely", 3),
    ("Seat belt violation", 1),
    ("Equipment violation", 1),
    ("Logbook violation", 2),
)


def licence_class_for(gvw: int, body_type: str) -> str:
    if body_type == "Tractor":
        return "CDL-A"
    if gvw >= 26_001:
        return "CDL-B"
    return "Regular"


def build_vehicles(
    fake: Faker,
    rng: random.Random,
    industry: Industry,
    count: int,
    effective: dt.date,
    location_numbers: list[int],
) -> tuple[Vehicle, ...]:
    vehicles: list[Vehicle] = []
    for number in range(1, count + 1):
        while True:
            make, model, body, gvw = fake.vehicle_model()
            # Heavy units belong to fleets that need them; others run light trucks and vans.
            if industry.vehicles or body in ("Pickup", "Cargo Van"):
                break
        year = rng.randint(max(2012, effective.year - 12), effective.year)
        low, high = COST_NEW[body]
        vehicles.append(
            Vehicle(
                number=number,
                year=year,
                make=make,
                model=model,
                body_type=body,
                vin=fake.vin_for(make, year),
                gvw=gvw,
                cost_new=float(round_to(rng.uniform(low, high), 100)),
                garage_location=rng.choice(location_numbers),
            )
        )
    return tuple(vehicles)


def build_drivers(
    fake: Faker,
    rng: random.Random,
    knobs: dict[str, Any],
    vehicles: tuple[Vehicle, ...],
    home_state: str,
    business_start: dt.date,
    completion: dt.date,
) -> tuple[Driver, ...]:
    count = rng.randint(knobs["drivers.min_rows"], knobs["drivers.max_rows"])
    seen_licences: set[str] = set()
    drivers: list[Driver] = []
    for number in range(1, count + 1):
        vehicle = vehicles[(number - 1) % len(vehicles)] if number <= len(vehicles) else None
        licence_class = licence_class_for(vehicle.gvw, vehicle.body_type) if vehicle else "Regular"
        if licence_class == "Regular" and rng.random() < 0.15:
            licence_class = "CDL-C"
        min_age = 23 if licence_class.startswith("CDL") else 19
        age = rng.randint(min_age, 68)
        birth = date_between(
            rng, add_years(completion, -age - 1) + dt.timedelta(days=1), add_years(completion, -age)
        )
        year_licensed = rng.randint(birth.year + 16, min(birth.year + 25, completion.year - 1))
        # Nobody is hired to drive before they hold a licence.
        earliest_hire = max(business_start, add_years(birth, 18), dt.date(year_licensed, 1, 1))
        hire = date_between(rng, earliest_hire, completion - dt.timedelta(days=30))
        mvr = date_between(rng, completion - dt.timedelta(days=60), completion)
        violations = tuple(
            Violation(date=iso(d), description=text, points=points)
            for d, (text, points) in sorted(
                (date_between(rng, add_years(mvr, -3), mvr), rng.choice(VIOLATIONS))
                for _ in range(weighted(rng, [(0, 10), (1, 4), (2, 2), (3, 1)]))
            )
        )
        accidents = weighted(rng, [(0, 12), (1, 3), (2, 1)])
        points = sum(v.points for v in violations) + 3 * accidents
        state = home_state if rng.random() < 0.9 else rng.choice(("TX", "OH", "GA", "PA", "IL"))
        while True:
            licence = fake.driver_license(state)
            if licence not in seen_licences:
                seen_licences.add(licence)
                break
        endorsements = ""
        if licence_class == "CDL-A":
            endorsements = weighted(rng, [("", 4), ("T", 2), ("N", 1), ("H, N", 1), ("X", 1)])
        elif licence_class == "CDL-B":
            endorsements = weighted(rng, [("", 4), ("N", 1), ("P", 1)])
        sex = weighted(rng, [("Male", 7), ("Female", 3)])
        first = fake.person_first_name(sex)
        drivers.append(
            Driver(
                number=number,
                first_name=first,
                middle_initial=rng.choice("ABCDEFGHJKLMNPRSTW"),
                last_name=fake.person_last_name(),
                birth_date=iso(birth),
                gender=sex,
                marital_status=weighted(
                    rng,
                    [
                        ("Single", 4),
                        ("Married", 5),
                        ("Divorced", 2),
                        ("Separated", 1),
                        ("Widowed", 1),
                    ],
                ),
                license_number=licence,
                license_state=state,
                license_class=licence_class,
                endorsements=endorsements,
                year_licensed=year_licensed,
                hire_date=iso(hire),
                position=weighted(
                    rng,
                    [("Employee", 12), ("Owner", 1), ("Officer", 1), ("Independent Contractor", 1)],
                ),
                years_experience=rng.randint(
                    max(0, (completion.year - year_licensed) // 2), completion.year - year_licensed
                ),
                vehicle_number=vehicle.number if vehicle else None,
                percent_use=float(weighted(rng, [(100, 6), (75, 2), (50, 2)])) if vehicle else 0.0,
                violations=violations,
                accidents=accidents,
                points=points,
                excluded=points >= 10,
                mvr_date=iso(mvr),
            )
        )
    return tuple(drivers)
