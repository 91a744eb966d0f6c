"""Locations and buildings: COPE attributes and insured values."""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from packetbench.core import codes
from packetbench.generator import prose_line
from packetbench.generator.fakers.insurance import Industry
from packetbench.generator.world.draw import dollars, round_to, split_total, weighted
from packetbench.generator.world.models import Address
from packetbench.generator.world.places import address
from packetbench.generator.world.premises import Building, Location

# Replacement cost per square foot by construction class (dollars).
COST_PER_SQFT: dict[str, tuple[int, int]] = {
    "Frame": (115, 165),
    "Joisted Masonry": (135, 195),
    "Non-Combustible": (120, 175),
    "Masonry Non-Combustible": (150, 225),
    "Modified Fire Resistive": (180, 260),
    "Fire Resistive": (205, 320),
}

# Square footage range, stories range and contents-to-building ratio by occupancy.
OCCUPANCY_PROFILE: dict[str, tuple[tuple[int, int], tuple[int, int], tuple[float, float]]] = {
    "Office": ((3_000, 120_000), (1, 8), (0.08, 0.25)),
    "Retail": ((2_000, 60_000), (1, 2), (0.20, 0.60)),
    "Warehouse": ((10_000, 250_000), (1, 1), (0.15, 0.70)),
    "Light Manufacturing": ((8_000, 180_000), (1, 2), (0.30, 0.90)),
    "Heavy Manufacturing": ((20_000, 300_000), (1, 2), (0.40, 1.00)),
    "Restaurant": ((2_500, 12_000), (1, 2), (0.20, 0.45)),
    "Apartments": ((12_000, 150_000), (2, 5), (0.02, 0.06)),
    "Hotel": ((25_000, 140_000), (3, 7), (0.10, 0.25)),
    "Medical Office": ((4_000, 60_000), (1, 4), (0.25, 0.60)),
    "Distribution Center": ((40_000, 400_000), (1, 1), (0.20, 0.80)),
    "Auto Repair": ((3_000, 20_000), (1, 1), (0.20, 0.50)),
    "School": ((15_000, 90_000), (1, 3), (0.10, 0.20)),
    "Self Storage": ((20_000, 120_000), (1, 3), (0.01, 0.03)),
}

STORY_WORDS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight")

MORTGAGEES = (
    "First National Bank of {city}",
    "{city} Community Bank",
    "Heritage Savings Bank",
    "Commerce Trust Company",
    "Citizens State Bank",
    "Midland Federal Credit Union",
)


def _building(
    fake: Faker,
    rng: random.Random,
    industry: Industry,
    loc_number: int,
    bldg_number: int,
    where: Address,
    effective: dt.date,
    interest: str,
) -> Building:
    occupancy = rng.choice(industry.occupancies)
    (area_lo, area_hi), (st_lo, st_hi), (ratio_lo, ratio_hi) = OCCUPANCY_PROFILE[occupancy]
    construction = weighted(
        rng,
        [
            ("Frame", 2),
            ("Joisted Masonry", 4),
            ("Non-Combustible", 3),
            ("Masonry Non-Combustible", 3),
            ("Modified Fire Resistive", 1),
            ("Fire Resistive", 1),
        ],
    )
    if construction == "Frame":
        st_hi = min(st_hi, 4)
    stories = rng.randint(st_lo, max(st_lo, st_hi))
    square_feet = round_to(rng.uniform(area_lo, area_hi), 100)
    year_built = rng.randint(1952, effective.year - 2)
    last_year = effective.year - 1
    sprinklered = weighted(rng, [(0.0, 3), (50.0, 1), (75.0, 1), (100.0, 5)])
    if square_feet > 100_000:
        sprinklered = 100.0
    sprinkler_type = (
        "None"
        if sprinklered == 0
        else weighted(rng, [("Wet Pipe", 6), ("Dry Pipe", 2), ("Pre-Action", 1), ("ESFR", 1)])
    )
    cost_lo, cost_hi = COST_PER_SQFT[construction]
    if interest == "Tenant":
        building_cents = 0
    else:
        building_cents = round_to(square_feet * rng.uniform(cost_lo, cost_hi), 1000) * 100
    contents_cents = (
        round_to(
            max(building_cents / 100, square_feet * 60) * rng.uniform(ratio_lo, ratio_hi), 1000
        )
        * 100
    )
    bi_cents = (
        round_to(rng.uniform(0.05, 0.30) * (building_cents + contents_cents) / 100, 1000) * 100
    )
    mortgagee = None
    loan_number = None
    if interest == "Owner" and rng.random() < 0.5:
        mortgagee = rng.choice(MORTGAGEES).format(city=where.city)
        loan_number = fake.numerify("LN-%#########")
    description = prose_line.render(
        "building",
        stories_word=STORY_WORDS[stories - 1],
        construction=construction,
        occupancy=occupancy,
        square_feet=square_feet,
        year_built=year_built,
    )
    return Building(
        location_number=loc_number,
        building_number=bldg_number,
        address=where,
        description=description,
        occupancy=occupancy,
        construction=construction,
        year_built=year_built,
        stories=stories,
        basements=weighted(rng, [(0, 7), (1, 3)]),
        square_feet=square_feet,
        roof_covering=rng.choice(codes.ROOF_COVERING.values),
        roof_year=rng.randint(max(year_built, last_year - 25), last_year),
        wiring_year=rng.randint(max(year_built, last_year - 40), last_year),
        plumbing_year=rng.randint(max(year_built, last_year - 40), last_year),
        heating_year=rng.randint(max(year_built, last_year - 30), last_year),
        sprinklered_percent=sprinklered,
        sprinkler_type=sprinkler_type,
        fire_alarm=weighted(
            rng,
            [
                ("Central Station", 6),
                ("Local", 3),
                ("Proprietary", 1),
                ("Remote Station", 1),
                ("None", 1),
            ],
        ),
        burglar_alarm=weighted(
            rng, [("Central Station", 6), ("Local Gong", 2), ("Police Connect", 1), ("None", 2)]
        ),
        protection_class=weighted(
            rng,
            [(pc, w) for pc, w in zip(range(1, 11), (2, 4, 6, 7, 6, 4, 3, 2, 1, 1), strict=True)],
        ),
        hydrant_feet=round_to(rng.uniform(50, 1400), 25),
        station_miles=round(rng.uniform(0.4, 8.5), 1),
        wind_class=weighted(rng, [("Resistive", 2), ("Semi-Resistive", 3), ("Other", 5)]),
        building_value=dollars(building_cents),
        contents_value=dollars(contents_cents),
        business_income_value=dollars(bi_cents),
        tiv=dollars(building_cents + contents_cents + bi_cents),
        valuation=weighted(
            rng, [("Replacement Cost", 8), ("Actual Cash Value", 1), ("Agreed Amount", 1)]
        ),
        coinsurance_percent=weighted(rng, [(80.0, 5), (90.0, 3), (100.0, 2)]),
        causes_of_loss=weighted(rng, [("Special", 8), ("Broad", 1), ("Basic", 1)]),
        deductible=float(rng.choice((1_000, 2_500, 5_000, 10_000, 25_000))),
        interest=interest,
        mortgagee=mortgagee,
        loan_number=loan_number,
    )


def loan_number(rng: random.Random) -> str:
    """A lender's loan number, as `Faker.numerify("LN-%#########")` writes one."""
    return f"LN-{rng.randint(1, 9)}{rng.randrange(10**9):09d}"


def secure_mortgage(
    lender: random.Random,
    locations: tuple[Location, ...],
) -> tuple[Location, ...]:
    """The locations with at least one mortgaged building (the evidence forms' mortgagees).

    A business that owns its premises almost always finances them, and the evidence forms
    a property submission carries (ACORD 27, 28 and the interest schedule 45) exist for the
    lender. When the draw left no owned building mortgaged, the most valuable owned building
    (the first among equals) gets a lender, drawn from `lender`, a stream of its own, so no
    other fact of the world moves. `build_locations` already made sure a building is owned.
    """
    buildings = [b for loc in locations for b in loc.buildings]
    if any(b.mortgagee is not None for b in buildings):
        return locations
    owned = [b for b in buildings if b.interest == "Owner"]
    assert owned, "build_locations leaves at least one location owned"
    target = max(owned, key=lambda b: b.tiv)
    mortgaged = target.model_copy(
        update={
            "mortgagee": lender.choice(MORTGAGEES).format(city=target.address.city),
            "loan_number": loan_number(lender),
        }
    )
    return tuple(
        loc.model_copy(
            update={"buildings": tuple(mortgaged if b is target else b for b in loc.buildings)}
        )
        for loc in locations
    )


def build_locations(
    fake: Faker,
    rng: random.Random,
    industry: Industry,
    home: Address,
    effective: dt.date,
    rows: int,
    employees: int,
    revenue_dollars: int,
) -> tuple[Location, ...]:
    """Locations with 1-3 buildings each, `rows` buildings in all.

    An insured that leases every location has no building to insure or to mortgage; one
    that rents elsewhere owns at least its last location (the draw is kept, so the streams
    of every world with an owned location are as they were).
    """
    per_location: list[int] = []
    while sum(per_location) < rows:
        per_location.append(min(rows - sum(per_location), weighted(rng, [(1, 6), (2, 3), (3, 1)])))
    other_states = [home.state] * 6 + [rng.choice(codes.STATES.values[:51]) for _ in range(2)]
    employee_split = split_total(rng, employees, len(per_location))
    revenue_split = split_total(rng, revenue_dollars, len(per_location))
    locations: list[Location] = []
    for index, count in enumerate(per_location):
        number = index + 1
        where = home if index == 0 else address(fake, rng.choice(other_states))
        interest = "Tenant" if rng.random() < 0.12 else "Owner"
        last = index == len(per_location) - 1
        if last and all(loc.buildings[0].interest == "Tenant" for loc in locations):
            interest = "Owner"
        buildings = tuple(
            _building(fake, rng, industry, number, b + 1, where, effective, interest)
            for b in range(count)
        )
        full_time = employee_split[index]
        locations.append(
            Location(
                number=number,
                address=where,
                full_time_employees=full_time,
                part_time_employees=rng.randint(0, max(1, full_time // 4)),
                annual_revenue=float(revenue_split[index]),
                operations=prose_line.render(
                    "premises",
                    occupancy=buildings[0].occupancy,
                    interest=interest,
                    activity=rng.choice(industry.operations),
                ),
                buildings=buildings,
            )
        )
    return tuple(locations)
