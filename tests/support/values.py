"""Values of a document's truth as the oracles compare them: money in cents, ISO dates as
dates, and rounding half up as the generator rounds."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction


def cents(value: float | None) -> int:
    assert value is not None
    return round(value * 100)


def day(iso: str | None) -> dt.date:
    assert iso is not None
    return dt.date.fromisoformat(iso)


def half_up(value: Fraction, places: int = 0) -> Fraction:
    scale = 10**places
    return Fraction(int(value * scale + Fraction(1, 2)), scale)
