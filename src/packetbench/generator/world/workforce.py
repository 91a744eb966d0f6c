"""The insured's principals, and its employees by location and workers-compensation class."""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from packetbench.generator.fakers.rating import RatingProfile
from packetbench.generator.world.draw import (
    add_years,
    date_between,
    iso,
    round_to,
    split_total,
    weighted,
)
from packetbench.generator.world.models import Insured
from packetbench.generator.world.parties import PayrollClass, Principal
from packetbench.generator.world.premises import Location

# Titles by legal entity, the first being the principal who signs.
TITLES: dict[str, tuple[str, ...]] = {
    "Corporation": (
        "President",
        "Vice President",
        "Secretary",
        "Treasurer",
        "Chief Financial Officer",
    ),
    "Subchapter S Corporation": ("President", "Vice President", "Secretary-Treasurer"),
    "Limited Liability Company": ("Managing Member", "Member", "Member"),
    "Partnership": ("General Partner", "Partner", "Partner"),
    "Individual": ("Owner",),
}
DUTIES = (
    "Overall management, sales and customer relations",
    "Operations and field supervision",
    "Finance, accounting and administration",
    "Estimating and project management",
    "Purchasing and vendor relations",
)
# How likely a principal is to be covered by workers compensation rather than excluded by
# election: sole proprietors and partners are outside the act unless they opt in.
INCLUSION_RATE = {"Individual": 0.2, "Partnership": 0.3}


def build_principals(
    fake: Faker, rng: random.Random, insured: Insured, completion: dt.date
) -> tuple[Principal, ...]:
    titles = TITLES[insured.entity_type]
    count = (
        1
        if len(titles) == 1
        else rng.randint(1 if insured.entity_type != "Partnership" else 2, min(4, len(titles)))
    )
    if insured.entity_type == "Corporation":  # other shareholders may hold the rest
        owned = split_total(rng, rng.randint(40, 100), count)
    else:
        owned = split_total(rng, 100, count)
    principals = []
    for index in range(count):
        age = rng.randint(32, 70)
        birth = date_between(
            rng, add_years(completion, -age - 1) + dt.timedelta(days=1), add_years(completion, -age)
        )
        name = insured.name if insured.entity_type == "Individual" else fake.person_name()
        principals.append(
            Principal(
                name=name,
                title=titles[index],
                ownership_percent=float(owned[index]),
                birth_date=iso(birth),
                duties=DUTIES[index % len(DUTIES)] if index else DUTIES[0],
                remuneration=float(round_to(rng.uniform(60_000, 260_000), 100)),
                wc_included=rng.random() < INCLUSION_RATE.get(insured.entity_type, 0.6),
            )
        )
    return tuple(principals)


def _split(rng: random.Random, total: int, shares: list[float]) -> list[int]:
    """Split a headcount over classes near their shares; the first class takes the rest."""
    counts = [0] + [min(total, round(total * s * rng.uniform(0.7, 1.3))) for s in shares[1:]]
    while sum(counts[1:]) > total:
        largest = max(range(1, len(counts)), key=lambda i: counts[i])
        counts[largest] -= 1
    counts[0] = total - sum(counts[1:])
    return counts


def build_payroll(
    rng: random.Random, profile: RatingProfile, insured: Insured, locations: tuple[Location, ...]
) -> tuple[PayrollClass, ...]:
    """Every location's employees split over the industry's classes, with their payroll."""
    per_employee = insured.annual_revenue / max(1, insured.full_time_employees)
    base_wage = min(95_000.0, max(32_000.0, per_employee * rng.uniform(0.22, 0.36)))
    wages = [base_wage * c.wage_factor * rng.uniform(0.9, 1.1) for c in profile.wc]
    shares = [c.share for c in profile.wc]
    rows: list[PayrollClass] = []
    for location in locations:
        full = _split(rng, location.full_time_employees, shares)
        part = _split(rng, location.part_time_employees, shares)
        for wc_class, wage, ft, pt in zip(profile.wc, wages, full, part, strict=True):
            if ft == 0 and pt == 0:
                continue
            # Part-timers work a little under half the hours of a full-time employee.
            payroll = round_to(ft * wage + pt * wage * weighted(rng, [(0.4, 1), (0.5, 1)]), 100)
            rows.append(
                PayrollClass(
                    location_number=location.number,
                    state=location.address.state,
                    class_code=wc_class.code,
                    description=wc_class.description,
                    full_time_employees=ft,
                    part_time_employees=pt,
                    payroll=float(payroll),
                )
            )
    return tuple(rows)
