"""Small seeded draws shared by the world builders: money in cents, dates, weighted picks."""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from packetbench.generator.world.base import Answer

if TYPE_CHECKING:
    from packetbench.generator.fakers.insurance import Question

T = TypeVar("T")


def dollars(cents: int) -> float:
    """Float dollars from integer cents (the nearest float to the exact decimal)."""
    return cents / 100


def round_to(value: float, step: int) -> int:
    """Round a positive amount to a multiple of `step` (at least one step)."""
    return max(step, round(value / step) * step)


def lognormal_cents(rng: random.Random, median: float, sigma: float) -> int:
    """A skewed amount in cents around `median` dollars."""
    return max(100, round(median * math.exp(rng.gauss(0.0, sigma)) * 100))


def weighted(rng: random.Random, options: Sequence[tuple[T, float]]) -> T:
    values = [value for value, _ in options]
    weights = [weight for _, weight in options]
    return rng.choices(values, weights=weights, k=1)[0]


def iso(day: dt.date) -> str:
    return day.isoformat()


def date_between(rng: random.Random, start: dt.date, end: dt.date) -> dt.date:
    """A uniformly drawn day in [start, end]."""
    if end < start:
        return start
    return start + dt.timedelta(days=rng.randint(0, (end - start).days))


def add_years(day: dt.date, years: int) -> dt.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def split_total(rng: random.Random, total: int, parts: int) -> list[int]:
    """Split a non-negative integer total into `parts` non-negative integers summing to it."""
    if parts == 1:
        return [total]
    weights = [rng.uniform(0.5, 1.5) for _ in range(parts)]
    scale = total / sum(weights)
    shares = [int(w * scale) for w in weights]
    shares[0] += total - sum(shares)
    return shares


def phone(rng: random.Random) -> str:
    return f"({rng.randint(201, 989)}) {rng.randint(201, 989)}-{rng.randint(0, 9999):04d}"


def stream(seed: int, name: str) -> random.Random:
    """An independent random stream named `name` under packet `seed`.

    The terms of each line draw from their own stream, so adding or removing a line (the
    `lines` knob) leaves every other line's terms as they were.
    """
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def cents_of(value: float) -> int:
    """Integer cents of a dollar amount built from cents."""
    return round(value * 100)


def percent_of(cents: int, hundredths: int) -> int:
    """`cents` x `hundredths`/100, rounded half up to a cent (exact integer arithmetic)."""
    return (cents * hundredths + 50) // 100


def answer_all(rng: random.Random, questions: Sequence[Question]) -> tuple[Answer, ...]:
    """One seeded answer per question, with an explanation on every Yes."""
    out = []
    for question in questions:
        yes = rng.random() < question.yes_rate
        out.append(
            Answer(
                question=question.id,
                answer=yes,
                explanation=rng.choice(question.explanations) if yes else None,
            )
        )
    return tuple(out)
