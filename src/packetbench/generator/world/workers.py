"""Workers compensation: the rating worksheet by state and class, each state's premium from
manual to estimated, employers liability limits, and the assigned-risk facts.

Payroll is whole hundreds of dollars and rates have two decimals, so manual premium (payroll /
100 x rate) is exact in cents; every later step rounds half up to the cent.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict

from packetbench.generator.fakers.insurance import CARRIERS
from packetbench.generator.fakers.questions import ASSIGNED_RISK_QUESTIONS, WC_QUESTIONS
from packetbench.generator.fakers.rating import MONOPOLISTIC_STATES, RatingProfile
from packetbench.generator.world.coverage import Declination, WcRating, WcState, WorkersComp
from packetbench.generator.world.draw import (
    answer_all,
    date_between,
    dollars,
    iso,
    percent_of,
    round_to,
    weighted,
)
from packetbench.generator.world.parties import PayrollClass, Principal
from packetbench.generator.world.premises import Location

EL_LIMITS = (
    (100_000, 500_000, 100_000),
    (500_000, 500_000, 500_000),
    (1_000_000, 1_000_000, 1_000_000),
)
DECLINE_REASONS = (
    "Class of business outside underwriting appetite",
    "Loss history does not meet underwriting guidelines",
    "Account premium below the company minimum",
    "No capacity for the operations in this state",
)


def discount_percent(modified_cents: int) -> int:
    """A simplified premium-discount table on the modified (standard) premium."""
    if modified_cents < 1_000_000:
        return 0
    return 5 if modified_cents < 10_000_000 else 8


def build_workers_comp(
    rng: random.Random,
    profile: RatingProfile,
    payroll: tuple[PayrollClass, ...],
    principals: tuple[Principal, ...],
    locations: tuple[Location, ...],
    effective: dt.date,
    completion: dt.date,
    umbrella: bool,
    carrier: str,
) -> WorkersComp | None:
    """The WC terms, or None when every location is in a monopolistic-fund state."""
    eligible = [p for p in payroll if p.state not in MONOPOLISTIC_STATES]
    if not eligible:
        return None
    state_payroll: dict[str, float] = defaultdict(float)
    for row in eligible:
        state_payroll[row.state] += row.payroll
    order = sorted(state_payroll, key=lambda s: (-state_payroll[s], s))
    officer_state = order[0]
    in_state = sorted({r.class_code for r in eligible if r.state == officer_state})
    officer_class = (
        "8810"
        if "8810" in in_state
        else max(
            in_state,
            key=lambda c: sum(
                r.payroll for r in eligible if r.state == officer_state and r.class_code == c
            ),
        )
    )
    # (state, class) -> [full time, part time, payroll dollars]
    grid: dict[tuple[str, str], list[int]] = {}
    descriptions = {r.class_code: r.description for r in eligible}
    for row in eligible:
        cell = grid.setdefault((row.state, row.class_code), [0, 0, 0])
        cell[0] += row.full_time_employees
        cell[1] += row.part_time_employees
        cell[2] += round(row.payroll)
    for principal in principals:
        if principal.wc_included:
            cell = grid[(officer_state, officer_class)]
            cell[0] += 1
            cell[2] += round(principal.remuneration)
    ranges = {c.code: c.rate for c in profile.wc}
    state_factor = {state: rng.uniform(0.8, 1.25) for state in order}
    classes: list[WcRating] = []
    for state in order:
        for (cell_state, code), (ft, pt, dollars_paid) in sorted(grid.items()):
            if cell_state != state:
                continue
            rate = max(0.05, round(rng.uniform(*ranges[code]) * state_factor[state], 2))
            classes.append(
                WcRating(
                    state=state,
                    class_code=code,
                    description=descriptions[code],
                    full_time_employees=ft,
                    part_time_employees=pt,
                    payroll=float(dollars_paid),
                    rate=rate,
                    manual_premium=dollars(dollars_paid // 100 * round(rate * 100)),
                )
            )
    manual_total = sum(round(c.manual_premium * 100) for c in classes)
    mod = 1.0 if manual_total < 500_000 else round(rng.uniform(0.72, 1.38), 2)
    states: list[WcState] = []
    for index, state in enumerate(order):
        rows = [c for c in classes if c.state == state]
        manual = sum(round(c.manual_premium * 100) for c in rows)
        modified = percent_of(manual, round(mod * 100))
        pct = discount_percent(modified)
        discount = percent_of(modified, pct)
        expense = 25_000 if index == 0 else 0
        terrorism_rate = rng.choice((1, 2, 3))  # cents per $100 of payroll
        state_dollars = sum(round(c.payroll) for c in rows)
        terrorism = state_dollars // 100 * terrorism_rate
        states.append(
            WcState(
                state=state,
                payroll=float(state_dollars),
                manual_premium=dollars(manual),
                modified_premium=dollars(modified),
                discount_percent=float(pct),
                premium_discount=dollars(discount),
                expense_constant=dollars(expense),
                terrorism_rate=terrorism_rate / 100,
                terrorism_premium=dollars(terrorism),
                estimated_premium=dollars(modified - discount + expense + terrorism),
            )
        )
    total = sum(round(s.estimated_premium * 100) for s in states)
    # Drawn either way, so an umbrella changes only the limits it requires.
    drawn = weighted(rng, [(EL_LIMITS[0], 2), (EL_LIMITS[1], 3), (EL_LIMITS[2], 3)])
    el = EL_LIMITS[2] if umbrella else drawn
    assigned = rng.random() < 0.4
    declinations: tuple[Declination, ...] = ()
    if assigned:
        others = [name for name in CARRIERS if name != carrier]
        carriers = rng.sample(others, rng.randint(2, 3))
        declinations = tuple(
            Declination(
                carrier=carrier,
                reason=rng.choice(DECLINE_REASONS),
                date=iso(
                    date_between(
                        rng, completion - dt.timedelta(days=75), completion - dt.timedelta(days=3)
                    )
                ),
            )
            for carrier in carriers
        )
    return WorkersComp(
        market="Assigned Risk" if assigned else "Voluntary",
        risk_id=f"{rng.randint(100_000_000, 999_999_999)}",
        experience_mod=mod,
        mod_effective_date=iso(effective),
        each_accident=float(el[0]),
        disease_policy_limit=float(el[1]),
        disease_each_employee=float(el[2]),
        classes=tuple(classes),
        states=tuple(states),
        excluded_states=tuple(
            sorted({loc.address.state for loc in locations} & MONOPOLISTIC_STATES)
        ),
        officer_state=officer_state,
        officer_class=officer_class,
        premium=dollars(total),
        deposit_premium=dollars(percent_of(total, 25)),
        minimum_premium=float(round_to(rng.uniform(500, 1_500), 50)),
        declinations=declinations,
        answers=answer_all(rng, WC_QUESTIONS),
        plan_answers=answer_all(rng, ASSIGNED_RISK_QUESTIONS) if assigned else (),
    )
