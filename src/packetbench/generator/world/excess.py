"""The umbrella over the primary casualty lines, and motor truck cargo on the fleet."""

from __future__ import annotations

import random

from packetbench.generator.fakers.questions import UMBRELLA_QUESTIONS
from packetbench.generator.fakers.rating import RatingProfile
from packetbench.generator.world.coverage import GeneralLiability, MotorTruckCargo, Umbrella
from packetbench.generator.world.draw import answer_all, weighted

UMBRELLA_LIMITS = (1_000_000, 2_000_000, 3_000_000, 5_000_000, 10_000_000)


def build_umbrella(
    rng: random.Random,
    gl: GeneralLiability,
    lines: tuple[str, ...],
    revenue: float,
    underlying_premium: float,
) -> Umbrella:
    """An umbrella scheduling every carried casualty line as underlying insurance."""
    # Larger accounts buy more limit.
    size = 0 if revenue < 10_000_000 else 1 if revenue < 50_000_000 else 2
    limit = weighted(
        rng,
        [
            (v, w)
            for v, w in zip(
                UMBRELLA_LIMITS,
                ((4, 3, 1, 1, 0), (1, 3, 2, 3, 1), (0, 1, 1, 3, 3))[size],
                strict=True,
            )
            if w
        ],
    )
    form = weighted(rng, [("Umbrella", 6), ("Excess", 1)])
    # Priced off the primary liability premium it sits over, less per extra million.
    millions = limit // 1_000_000
    premium = round(
        underlying_premium * rng.uniform(0.04, 0.09) * millions**0.5
        + millions * rng.uniform(1_000, 2_500)
    )
    return Umbrella(
        form=form,
        trigger=gl.trigger,
        each_occurrence=float(limit),
        aggregate=float(limit),
        # An excess policy follows the underlying form and keeps no retention of its own.
        retention=0.0 if form == "Excess" else float(rng.choice((10_000, 25_000))),
        first_dollar_defense=rng.random() < 0.3,
        underlying=tuple(line for line in ("gl", "auto", "wc") if line in lines),
        premium=float(premium),
        answers=answer_all(rng, UMBRELLA_QUESTIONS),
    )


def build_cargo(rng: random.Random, profile: RatingProfile, vehicles: int) -> MotorTruckCargo:
    per_vehicle = rng.choice((100_000, 150_000, 250_000))
    rate = round(rng.uniform(450, 1_800))
    return MotorTruckCargo(
        limit_per_vehicle=float(per_vehicle),
        limit_per_occurrence=float(2 * per_vehicle),
        deductible=float(rng.choice((1_000, 2_500))),
        commodities=profile.commodities,
        radius=profile.radius[-1],
        refrigeration="food" in profile.commodities,
        rate_per_vehicle=float(rate),
        vehicle_count=vehicles,
        premium=float(rate * vehicles),
    )
