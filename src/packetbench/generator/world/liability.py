"""General liability: limits, and the schedule of hazards rated from the account's exposures.

A hazard's premium is rate x exposure / basis unit, computed exactly in integer arithmetic
(rates carry three decimals) and rounded half up to the cent; the line premium is the sum.
"""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction

from packetbench.generator.fakers.questions import GL_QUESTIONS
from packetbench.generator.fakers.rating import GlClass, RatingProfile
from packetbench.generator.world.coverage import GeneralLiability, GlHazard
from packetbench.generator.world.draw import (
    add_years,
    answer_all,
    date_between,
    dollars,
    iso,
    round_to,
    weighted,
)
from packetbench.generator.world.models import Insured
from packetbench.generator.world.parties import PayrollClass
from packetbench.generator.world.premises import Location

# Exposure per rate unit: sales, payroll and cost are rated per $1,000, area per 1,000 sq ft.
BASIS_UNIT: dict[str, int] = {
    "Gross Sales": 1000,
    "Payroll": 1000,
    "Area": 1000,
    "Units": 1,
    "Total Cost": 1000,
    "Admissions": 1000,
}
SQFT_PER_UNIT = 950  # apartments: one unit per 950 sq ft of building

# (each occurrence, general aggregate, products aggregate, personal & advertising injury)
LIMIT_SETS = (
    (1_000_000, 2_000_000, 2_000_000, 1_000_000),
    (1_000_000, 3_000_000, 3_000_000, 1_000_000),
    (2_000_000, 4_000_000, 4_000_000, 2_000_000),
)


def premium_cents(rate: float, exposure: int, basis: str) -> int:
    """rate x exposure / unit in cents, rounded half up; exact for three-decimal rates."""
    exact = Fraction(round(rate * 1000), 1000) * exposure / BASIS_UNIT[basis] * 100
    return int(exact + Fraction(1, 2))


def _exposure(
    cls: GlClass, location: Location, payroll: list[PayrollClass], clerical: set[str]
) -> int:
    if cls.basis == "Gross Sales":
        return round(location.annual_revenue)
    if cls.basis == "Payroll":  # field payroll; office clerical is rated on its own
        return round(
            sum(
                p.payroll
                for p in payroll
                if p.location_number == location.number and p.class_code not in clerical
            )
        )
    area = sum(b.square_feet for b in location.buildings)
    return area if cls.basis == "Area" else max(1, area // SQFT_PER_UNIT)


def _hazard(
    rng: random.Random, cls: GlClass, location: int, number: int, exposure: int, territory: str
) -> GlHazard:
    premises_rate = round(rng.uniform(*cls.premises_rate), 3)
    products_rate = round(rng.uniform(*cls.products_rate), 3) if cls.products_rate else None
    return GlHazard(
        location_number=location,
        hazard_number=number,
        class_code=cls.code,
        description=cls.description,
        premium_basis=cls.basis,
        exposure=exposure,
        territory=territory,
        premises_rate=premises_rate,
        products_rate=products_rate,
        premises_premium=dollars(premium_cents(premises_rate, exposure, cls.basis)),
        products_premium=dollars(
            premium_cents(products_rate, exposure, cls.basis) if products_rate is not None else 0
        ),
    )


def build_general_liability(
    rng: random.Random,
    profile: RatingProfile,
    insured: Insured,
    locations: tuple[Location, ...],
    payroll: tuple[PayrollClass, ...],
    effective: dt.date,
    umbrella: bool,
) -> GeneralLiability:
    clerical = {"8810", "8742"}
    primary = profile.gl[0]
    hazards: list[GlHazard] = []
    for location in locations:
        territory = f"{rng.randint(1, 9)}{rng.randint(0, 9)}{rng.randint(1, 9)}"
        exposure = _exposure(primary, location, list(payroll), clerical)
        hazards.append(_hazard(rng, primary, location.number, 1, max(1, exposure), territory))
    if profile.subcontracted is not None:
        # Subcontracted work is an account-level exposure, scheduled at the first premises.
        cost = round_to(insured.annual_revenue * rng.uniform(0.04, 0.18), 1000)
        hazards.append(_hazard(rng, profile.subcontracted, 1, 2, cost, hazards[0].territory))
    # Drawn either way, so an umbrella changes only the limits it requires.
    drawn = weighted(rng, [(LIMIT_SETS[0], 6), (LIMIT_SETS[1], 2), (LIMIT_SETS[2], 1)])
    limits = LIMIT_SETS[0] if umbrella else drawn
    occurrence, aggregate, products_limit, personal = limits
    trigger = weighted(rng, [("Occurrence", 9), ("Claims-Made", 1)])
    retro = None
    if trigger == "Claims-Made":
        retro = iso(date_between(rng, add_years(effective, -8), add_years(effective, -1)))
    deductible = weighted(rng, [(None, 6), (1_000.0, 2), (2_500.0, 1), (5_000.0, 1)])
    premises = sum(round(h.premises_premium * 100) for h in hazards)
    products = sum(round(h.products_premium * 100) for h in hazards)
    return GeneralLiability(
        trigger=trigger,
        retroactive_date=retro,
        each_occurrence=float(occurrence),
        general_aggregate=float(aggregate),
        aggregate_applies=weighted(rng, [("Policy", 6), ("Project", 2), ("Location", 2)]),
        products_aggregate=float(products_limit),
        personal_advertising=float(personal),
        damage_to_premises=float(rng.choice((100_000, 300_000))),
        medical_expense=float(rng.choice((5_000, 10_000))),
        deductible=deductible,
        deductible_basis=(
            weighted(rng, [("Per Occurrence", 3), ("Per Claim", 1)]) if deductible else None
        ),
        hazards=tuple(hazards),
        premises_premium=dollars(premises),
        products_premium=dollars(products),
        premium=dollars(premises + products),
        answers=answer_all(rng, GL_QUESTIONS),
    )
