"""How big a packet's three long tables are: buildings (the statement of values and every
schedule of premises), claims (the loss runs, the experience worksheet) and drivers (the
driver and vehicle schedules).

At the top tier each is allowed up to 500 rows (docs/design.md §3), but a packet with all three that
long runs to about 200 PDF pages where the reference packets hold 60-100: a nightmare account
has one or two very long schedules, not every schedule at once. The knob `tables.large` says
how many of the packet's tables are drawn from their tier ranges; the rest are drawn from
`tables.other_min`..`tables.other_max` (the tier below's ranges). Which tables are the long
ones is drawn from a stream of the packet's own, among the tables it renders (drivers only
with an auto line). `tables.large` 0 draws every table from its own range.
"""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.world.draw import stream

# (table, fewest-rows knob, most-rows knob, the line the table needs or None)
TABLES: tuple[tuple[str, str, str, str | None], ...] = (
    ("buildings", "sov.min_rows", "sov.max_rows", None),
    ("claims", "loss_run.min_claims", "loss_run.max_claims", None),
    ("drivers", "drivers.min_rows", "drivers.max_rows", "auto"),
)
ROW_KNOBS = tuple(knob for _, low, high, _ in TABLES for knob in (low, high))


def drawn_from(seed: int, knobs: dict[str, Any]) -> dict[str, Any]:
    """The knobs packet `seed`'s tables are drawn from (what `build_world` uses)."""
    return sized(knobs, stream(seed, "tables"))


def sized(knobs: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """`knobs` with the ranges of the tables that are not long narrowed to the other range."""
    large = knobs.get("tables.large", 0)
    carried = [table for table in TABLES if table[3] is None or table[3] in knobs["lines"]]
    if large <= 0 or large >= len(carried):
        return knobs
    long = {table[0] for table in rng.sample(carried, large)}
    out = dict(knobs)
    for name, low, high, _ in TABLES:
        if name not in long:
            out[high] = min(knobs[high], knobs["tables.other_max"])
            out[low] = min(knobs[low], knobs["tables.other_min"], out[high])
    return out
