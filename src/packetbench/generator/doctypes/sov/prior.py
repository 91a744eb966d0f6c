"""Last year's statement of values (packet.superseded): the same buildings, values a year
earlier, as a broker's file still holds it next to this year's."""

from __future__ import annotations

import datetime as dt
import random

from packetbench.generator.doctypes.sov.model import SovTotals, StatementOfValues
from packetbench.generator.world.draw import dollars

AMOUNTS = ("building_value", "contents_value", "business_income_value")


def _earlier(value: float | None, trend: float) -> float | None:
    """A value before a year of trending, rounded to the thousand as schedules state it."""
    return None if value is None else float(round(value / trend / 1000) * 1000)


def prior(doc: StatementOfValues, rng: random.Random) -> StatementOfValues:
    trend = rng.choice((1.04, 1.05, 1.06, 1.08))
    rows = []
    for row in doc.buildings:
        values = {key: _earlier(getattr(row, key), trend) for key in AMOUNTS}
        present = [v for v in values.values() if v is not None]
        rows.append(
            row.model_copy(update={**values, "tiv": float(sum(present)) if present else None})
        )

    def total(attribute: str) -> float:
        return dollars(sum(round((getattr(r, attribute) or 0) * 100) for r in rows))

    as_of = doc.as_of_date
    if as_of is not None:
        day = dt.date.fromisoformat(as_of)
        as_of = day.replace(year=day.year - 1, day=min(day.day, 28)).isoformat()
    return doc.model_copy(
        update={
            "as_of_date": as_of,
            "buildings": rows,
            "totals": SovTotals(**{key: total(key) for key in (*AMOUNTS, "tiv")}),
        }
    )
