"""The businessowners alternative: every building of the schedule at its scheduled values,
with the program's own liability limits and optional coverages."""

from __future__ import annotations

import random

from packetbench.generator.fakers.questions import BOP_QUESTIONS
from packetbench.generator.world.coverage import BopOption, BopPremises, Businessowners
from packetbench.generator.world.draw import answer_all, dollars, weighted
from packetbench.generator.world.premises import Building

# (coverage, limits to choose from, deductible, premium range in dollars)
OPTIONS: tuple[tuple[str, tuple[int, ...], int | None, tuple[int, int]], ...] = (
    ("Employee Dishonesty", (25_000, 50_000), 250, (75, 300)),
    ("Money and Securities", (10_000, 25_000), None, (60, 200)),
    ("Equipment Breakdown", (500_000, 1_000_000), 1_000, (150, 900)),
    ("Hired and Non-Owned Auto Liability", (1_000_000,), None, (150, 600)),
    ("Employment Practices Liability", (100_000, 250_000), 5_000, (400, 1_500)),
    ("Data Compromise", (50_000, 100_000), 1_000, (100, 400)),
    ("Ordinance or Law", (250_000, 500_000), None, (100, 500)),
    ("Outdoor Signs", (10_000, 25_000), 250, (40, 150)),
)


def premium_cents(value: float, rate: float) -> int:
    """value / 100 x rate, in cents; exact for whole-thousand values and 3-decimal rates."""
    return round(value) * round(rate * 1000) // 1000


def build_businessowners(
    rng: random.Random, buildings: list[Building], revenue: float
) -> Businessowners:
    premises = []
    for building in buildings:
        rate = round(rng.uniform(0.08, 0.32), 3)
        value = building.building_value + building.contents_value
        premises.append(
            BopPremises(
                location_number=building.location_number,
                building_number=building.building_number,
                building_limit=building.building_value,
                bpp_limit=building.contents_value,
                rate=rate,
                premium=dollars(premium_cents(value, rate)),
            )
        )
    options = []
    for coverage, limits, deductible, (low, high) in sorted(
        rng.sample(OPTIONS, rng.randint(3, 6)), key=OPTIONS.index
    ):
        options.append(
            BopOption(
                coverage=coverage,
                limit=float(rng.choice(limits)),
                deductible=float(deductible) if deductible is not None else None,
                premium=float(round(rng.uniform(low, high))),
            )
        )
    occurrence, aggregate = weighted(
        rng, [((1_000_000, 2_000_000), 4), ((2_000_000, 4_000_000), 1)]
    )
    property_cents = sum(round(p.premium * 100) for p in premises)
    liability_cents = max(500, round(revenue * rng.uniform(0.0008, 0.0025))) * 100
    optional_cents = sum(round(o.premium * 100) for o in options)
    return Businessowners(
        quote_number=f"{rng.choice(('BOP', 'BPQ', 'BP'))}{rng.randint(1_000_000, 9_999_999)}",
        policy_type=weighted(rng, [("Special", 6), ("Standard", 1)]),
        property_deductible=float(rng.choice((1_000, 2_500, 5_000))),
        each_occurrence=float(occurrence),
        general_aggregate=float(aggregate),
        products_aggregate=float(aggregate),
        personal_advertising=float(occurrence),
        damage_to_premises=float(rng.choice((100_000, 300_000))),
        medical_expense=float(rng.choice((5_000, 10_000))),
        premises=tuple(premises),
        options=tuple(options),
        property_premium=dollars(property_cents),
        liability_premium=dollars(liability_cents),
        optional_premium=dollars(optional_cents),
        premium=dollars(property_cents + liability_cents + optional_cents),
        answers=answer_all(rng, BOP_QUESTIONS),
    )
