"""Business auto: how each vehicle is rated and covered, the covered-auto symbols, and the
limits that vary by garaging state. Premiums are whole dollars."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter

from packetbench.generator.fakers.questions import AUTO_QUESTIONS
from packetbench.generator.fakers.rating import RatingProfile
from packetbench.generator.world.coverage import AutoState, AutoUnit, BusinessAuto, CoverageSymbols
from packetbench.generator.world.draw import answer_all, round_to, weighted
from packetbench.generator.world.models import Vehicle
from packetbench.generator.world.premises import Location

# The coverages a symbol schedule names, in form order.
AUTO_COVERAGES = (
    "liability",
    "medical_payments",
    "uninsured_motorists",
    "underinsured_motorists",
    "comprehensive",
    "collision",
    "towing",
)

SIZE_CODES = {
    "Light Truck": "01",
    "Medium Truck": "21",
    "Heavy Truck": "31",
    "Extra-Heavy Truck": "40",
    "Heavy Truck-Tractor": "50",
    "Extra-Heavy Truck-Tractor": "60",
}
USE_DIGIT = {"Service": "1", "Retail": "2", "Commercial": "3"}
RADIUS_DIGIT = {"Local": "1", "Intermediate": "2", "Long Distance": "3"}
# Annual liability premium range (dollars) at a $1,000,000 limit, by size class.
LIABILITY_BASE = {
    "Light Truck": (900, 1_600),
    "Medium Truck": (1_400, 2_600),
    "Heavy Truck": (2_500, 4_500),
    "Extra-Heavy Truck": (3_500, 6_000),
    "Heavy Truck-Tractor": (5_000, 8_000),
    "Extra-Heavy Truck-Tractor": (5_500, 9_500),
}
RADIUS_FACTOR = {"Local": 1.0, "Intermediate": 1.15, "Long Distance": 1.35}


def size_class(vehicle: Vehicle) -> str:
    """ISO size class: tractors by combined weight, other trucks by gross vehicle weight."""
    if vehicle.body_type == "Tractor":
        return "Extra-Heavy Truck-Tractor" if vehicle.gvw > 45_000 else "Heavy Truck-Tractor"
    if vehicle.gvw <= 10_000:
        return "Light Truck"
    if vehicle.gvw <= 20_000:
        return "Medium Truck"
    return "Heavy Truck" if vehicle.gvw <= 45_000 else "Extra-Heavy Truck"


def class_code(size: str, use: str, radius: str) -> str:
    return f"{SIZE_CODES[size]}{USE_DIGIT[use]}{RADIUS_DIGIT[radius]}9"


def build_business_auto(
    rng: random.Random,
    profile: RatingProfile,
    vehicles: tuple[Vehicle, ...],
    locations: tuple[Location, ...],
    full_time_employees: int,
    effective: dt.date,
    umbrella: bool,
) -> BusinessAuto:
    # Drawn either way, so an umbrella changes only the limit it requires.
    drawn = weighted(rng, [(1_000_000, 3), (500_000, 1)])
    csl = 1_000_000 if umbrella else drawn
    med_pay = weighted(rng, [(5_000.0, 4), (10_000.0, 2), (None, 1)])
    towing = weighted(rng, [(75.0, 1), (100.0, 1), (None, 2)])
    rental = rng.random() < 0.4
    comp_deductible = float(rng.choice((250, 500, 1_000)))
    collision_deductible = float(rng.choice((500, 1_000, 2_500)))
    territories: dict[int, str] = {}
    by_state = Counter(locations[v.garage_location - 1].address.state for v in vehicles)
    rejected = {state: rng.random() < 0.15 for state in sorted(by_state)}
    units = []
    for vehicle in vehicles:
        where = locations[vehicle.garage_location - 1]
        territory = territories.setdefault(where.number, f"{rng.randint(100, 199)}")
        size = size_class(vehicle)
        radius = weighted(rng, [(r, 3 if i == 0 else 1) for i, r in enumerate(profile.radius)])
        ownership = weighted(rng, [("Owned", 6), ("Financed", 3), ("Leased", 1)])
        age = effective.year - vehicle.year
        physical_damage = ownership != "Owned" or age <= 8 or vehicle.cost_new >= 100_000
        low, high = LIABILITY_BASE[size]
        liability = round(
            rng.uniform(low, high) * RADIUS_FACTOR[radius] * (1.0 if csl == 1_000_000 else 0.85)
        )
        damage = round(vehicle.cost_new * rng.uniform(0.012, 0.028)) if physical_damage else 0
        covered_um = not rejected[where.address.state]
        units.append(
            AutoUnit(
                vehicle_number=vehicle.number,
                size_class=size,
                use=profile.vehicle_use,
                radius=radius,
                class_code=class_code(size, profile.vehicle_use, radius),
                territory=territory,
                registration_state=where.address.state,
                ownership=ownership,
                medical_payments=med_pay is not None,
                uninsured_motorists=covered_um,
                underinsured_motorists=covered_um,
                comprehensive_deductible=comp_deductible if physical_damage else None,
                collision_deductible=collision_deductible if physical_damage else None,
                towing=towing is not None and size == "Light Truck",
                rental_reimbursement=rental and physical_damage,
                liability_premium=float(liability),
                physical_damage_premium=float(damage),
                premium=float(liability + damage),
            )
        )
    states = tuple(
        AutoState(
            state=state,
            uninsured_motorists_limit=0.0 if rejected[state] else float(csl),
            underinsured_motorists_limit=0.0 if rejected[state] else float(csl),
            um_rejected=rejected[state],
            vehicle_count=count,
        )
        for state, count in sorted(by_state.items(), key=lambda sc: (-sc[1], sc[0]))
    )
    # Symbol 1 (any auto) covers hired and non-owned autos too; otherwise owned autos (2)
    # plus hired (8) and non-owned (9) where bought.
    any_auto = rng.random() < 0.4
    hired = any_auto or rng.random() < 0.75
    non_owned = any_auto or rng.random() < 0.8
    hired_cost = float(round_to(rng.uniform(2_000, 40_000), 500)) if hired else 0.0
    hno_premium = (round(hired_cost * rng.uniform(0.02, 0.05)) if hired else 0) + (
        round(rng.uniform(150, 900)) if non_owned else 0
    )
    liability_symbols = (
        ("1",) if any_auto else ("2", *(("8",) if hired else ()), *(("9",) if non_owned else ()))
    )
    symbols = (
        CoverageSymbols(coverage="liability", symbols=liability_symbols),
        CoverageSymbols(coverage="medical_payments", symbols=("2",) if med_pay else ()),
        CoverageSymbols(coverage="uninsured_motorists", symbols=("2",)),
        CoverageSymbols(coverage="underinsured_motorists", symbols=("2",)),
        CoverageSymbols(coverage="comprehensive", symbols=("7",)),
        CoverageSymbols(coverage="collision", symbols=("7",)),
        CoverageSymbols(coverage="towing", symbols=("7",) if towing else ()),
    )
    return BusinessAuto(
        combined_single_limit=float(csl),
        medical_payments_limit=med_pay,
        towing_limit=towing,
        symbols=symbols,
        hired_liability=hired,
        hired_cost=hired_cost,
        non_owned_liability=non_owned,
        non_owned_employees=full_time_employees if non_owned else 0,
        hired_non_owned_premium=float(hno_premium),
        units=tuple(units),
        states=states,
        premium=float(sum(round(u.premium) for u in units) + hno_premium),
        answers=answer_all(rng, AUTO_QUESTIONS),
    )
