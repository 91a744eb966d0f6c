"""What the broker states each vehicle is worth for physical damage: its cost new written down by
age, rounded to $500, never above cost new. A fact added after the first worlds, drawn from its own
stream so no other fact moves."""

from __future__ import annotations

import datetime as dt
import random

from packetbench.generator.world.draw import round_to
from packetbench.generator.world.models import Vehicle

# Share of cost new lost in the first year and in each later one.
FIRST_YEAR, LATER_YEARS, FLOOR = 0.15, 0.09, 0.25


def build_stated_amounts(
    rng: random.Random, vehicles: tuple[Vehicle, ...], effective: dt.date
) -> tuple[float, ...]:
    """One stated amount per vehicle, in vehicle order."""
    out = []
    for vehicle in vehicles:
        age = max(0, effective.year - vehicle.year)
        share = 1.0 if age == 0 else max(FLOOR, 1 - FIRST_YEAR - LATER_YEARS * (age - 1))
        amount = round_to(vehicle.cost_new * share * rng.uniform(0.94, 1.04), 500)
        out.append(float(min(amount, vehicle.cost_new)))
    return tuple(out)
