"""Loss history: policy terms by carrier and year, and the claims reported under them."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from faker import Faker

from packetbench.core import codes
from packetbench.generator.world.draw import (
    add_years,
    date_between,
    dollars,
    iso,
    lognormal_cents,
    round_to,
    weighted,
)
from packetbench.generator.world.policy import Loss, LossHistory, PolicyTerm

# Median severity (dollars) and spread of a claim by line.
SEVERITY: dict[str, tuple[float, float]] = {
    "Commercial Property": (18_000, 1.1),
    "General Liability": (11_000, 1.2),
    "Commercial Auto": (9_500, 1.0),
    "Workers Compensation": (7_000, 1.1),
    "Motor Truck Cargo": (12_000, 1.0),
}


# What a loss-run description says happened, by line.
HAZARDS: dict[str, tuple[str, ...]] = {
    "Commercial Property": (
        "Water damage from burst pipe",
        "Wind damage to roof",
        "Hail damage to roof and HVAC",
        "Fire in electrical room",
        "Theft of equipment after break-in",
        "Vandalism to storefront",
        "Sprinkler leakage",
        "Lightning strike damaged equipment",
        "Roof leak damaged stock",
        "Vehicle struck building",
    ),
    "General Liability": (
        "Customer slip and fall on wet floor",
        "Trip and fall in parking lot",
        "Damage to customer property during work",
        "Alleged defective product",
        "Visitor struck by falling merchandise",
        "Damage to adjacent property",
        "Bodily injury at jobsite",
        "Food-borne illness allegation",
    ),
    "Commercial Auto": (
        "Rear-ended third party at light",
        "Backed into parked vehicle",
        "Sideswipe while changing lanes",
        "Struck deer",
        "Windshield damage from debris",
        "Collision at intersection",
        "Parked unit hit by third party",
        "Cargo shifted in transit",
    ),
    "Workers Compensation": (
        "Back strain lifting materials",
        "Laceration to hand",
        "Fall from ladder",
        "Slip on wet floor",
        "Repetitive motion injury to wrist",
        "Struck by falling object",
        "Burn from hot surface",
        "Eye injury from debris",
    ),
    "Motor Truck Cargo": (
        "Load damaged in rollover",
        "Theft of trailer and contents from truck stop",
        "Cargo shifted and crushed in transit",
        "Water damage to load through roof leak",
        "Load rejected after temperature loss",
        "Pallets fell during unloading",
    ),
}


def _claim(
    fake: Faker,
    rng: random.Random,
    line: str,
    term_start: dt.date,
    last_day: dt.date,
    valuation: dt.date,
    insured_name: str,
    location_numbers: list[int],
    claim_number: str,
) -> Loss:
    loss = date_between(rng, term_start, last_day)
    report = date_between(rng, loss, min(loss + dt.timedelta(days=45), valuation))
    age_days = (valuation - loss).days
    open_weight = 6.0 if age_days < 365 else 1.0 if age_days < 730 else 0.25
    status = weighted(
        rng,
        [
            ("Open", open_weight),
            ("Closed", 8),
            ("Closed Without Payment", 2),
            ("Re-opened", 0.4),
            ("Denied", 0.8),
            ("Subrogation", 0.6),
            ("In Suit", 0.3 if line != "Commercial Property" else 0.0),
        ],
    )
    median, sigma = SEVERITY[line]
    total = lognormal_cents(rng, median, sigma)
    if status in ("Closed Without Payment",):
        paid, reserve = 0, 0
    elif status == "Denied":
        paid, reserve = rng.choice((0, lognormal_cents(rng, 900, 0.5))), 0
    elif status == "Closed":
        paid, reserve = total, 0
    else:  # open, re-opened, subrogation, in suit: partly paid, partly reserved
        paid = int(total * rng.uniform(0.0, 0.8))
        reserve = total - paid
    closed = None
    if status in codes.CLOSED_CLAIM_STATUSES:
        closed = iso(
            date_between(
                rng,
                min(report + dt.timedelta(days=10), valuation),
                min(report + dt.timedelta(days=320), valuation),
            )
        )
    claimant = insured_name if line == "Commercial Property" else fake.person_name()
    return Loss(
        claim_number=claim_number,
        loss_date=iso(loss),
        report_date=iso(report),
        closed_date=closed,
        claimant=claimant,
        description=rng.choice(HAZARDS[line]),
        location_number=rng.choice(location_numbers) if line == "Commercial Property" else None,
        status=status,
        paid=dollars(paid),
        reserve=dollars(reserve),
        incurred=dollars(paid + reserve),
    )


def build_loss_history(
    fake: Faker,
    rng: random.Random,
    knobs: dict[str, Any],
    effective: dt.date,
    completion: dt.date,
    insured_name: str,
    incumbent: str,
    location_numbers: list[int],
    lines: list[str],
) -> LossHistory:
    """Terms for every line in `lines` over the knob's years, with claims spread over them."""
    valuation = completion - dt.timedelta(days=rng.randint(5, 40))
    run_date = valuation + dt.timedelta(days=rng.randint(0, 4))
    years = knobs["loss_run.years"]
    # The account moved carrier at most max_carriers - 1 times; the incumbent wrote the most
    # recent years.
    carrier_count = rng.randint(1, knobs["loss_run.max_carriers"])
    carriers = [incumbent]
    while len(carriers) < carrier_count:
        candidate = fake.carrier_name()
        if candidate not in carriers:
            carriers.append(candidate)
    switch_years = sorted(rng.sample(range(1, years), min(carrier_count - 1, years - 1)))
    numbers: dict[tuple[str, str], str] = {}
    term_specs: list[tuple[str, str, dt.date, dt.date, int]] = []
    for back in range(1, years + 1):  # back = 1 is the expiring term
        carrier = carriers[sum(1 for s in switch_years if back > s)]
        start, end = add_years(effective, -back), add_years(effective, -back + 1)
        for line in lines:
            numbers.setdefault((carrier, line), fake.policy_number(line))
            term_specs.append((carrier, line, start, end, back))
    total_claims = rng.randint(knobs["loss_run.min_claims"], knobs["loss_run.max_claims"])
    counts = [0] * len(term_specs)
    for _ in range(total_claims):
        counts[rng.randrange(len(term_specs))] += 1
    used: set[str] = set()
    terms: list[PolicyTerm] = []
    for (carrier, line, start, end, back), count in zip(term_specs, counts, strict=True):
        last_day = min(end - dt.timedelta(days=1), valuation - dt.timedelta(days=1))
        claims: list[Loss] = []
        for _ in range(count):
            while True:
                number = fake.claim_number(start.year)
                if number not in used:
                    used.add(number)
                    break
            claims.append(
                _claim(
                    fake,
                    rng,
                    line,
                    start,
                    last_day,
                    valuation,
                    insured_name,
                    location_numbers,
                    number,
                )
            )
        claims.sort(key=lambda c: (c.loss_date, c.claim_number))
        premium_base = {
            "Commercial Property": 24_000,
            "General Liability": 16_000,
            "Commercial Auto": 21_000,
            "Workers Compensation": 19_000,
            "Motor Truck Cargo": 6_000,
        }[line]
        terms.append(
            PolicyTerm(
                carrier=carrier,
                policy_number=f"{numbers[(carrier, line)]}-{years - back + 1:02d}",
                line=line,
                effective_date=iso(start),
                expiration_date=iso(end),
                premium=float(round_to(premium_base * rng.uniform(0.6, 2.4), 1)),
                claims=tuple(claims),
            )
        )
    # Most recent policy year first, lines in a fixed order within a year.
    return LossHistory(valuation_date=iso(valuation), run_date=iso(run_date), terms=tuple(terms))
