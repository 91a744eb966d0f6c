"""The workers compensation experience rating behind the world's experience mod.

A rating bureau compares the losses the risk actually had in its experience period (the three
completed policy years before the most recent one) with the losses expected of its payroll:

    mod = (Ap + W x Ae + (1 - W) x Ee + B) / (E + B)

with Ap / Ae the actual primary / excess losses (each claim's incurred split at the split point), E
= Ep + Ee the expected losses (payroll x ELR / 100, of which the D-ratio share is primary), W the
weighting value and B the ballast. The world's mod (the one the ACORD 130 states) comes first; the
worksheet is drawn around it: payroll and expected losses from the rated classes, then ballast and
weighting, then the actual losses the mod implies, dealt out as claims. Every amount is whole
dollars and the mod is the rounded quotient of the two rounded totals, so the worksheet's arithmetic
checks exactly. Drawn from its own stream: no other fact moves.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from fractions import Fraction

from packetbench.generator.world.base import WorldModel
from packetbench.generator.world.coverage import WorkersComp
from packetbench.generator.world.draw import (
    add_years,
    date_between,
    iso,
    percent_of,
    split_total,
    weighted,
)
from packetbench.generator.world.policy import LossHistory

SPLIT_POINT = 20_000  # primary / excess split of each claim's incurred, dollars
PERIOD_YEARS = (4, 3, 2)  # experience policies start this many years before the rating date
WC_LINE = "Workers Compensation"
# Independent rating bureaus of intrastate risks; every other state (and any interstate
# risk) is rated by NCCI.
BUREAUS: dict[str, str] = {
    "CA": "WCIRB California",
    "DE": "DCRB",
    "MA": "WCRIBMA",
    "MI": "CAOM",
    "MN": "MWCIA",
    "NC": "NCRB",
    "NJ": "NJCRIB",
    "NY": "NYCIRB",
    "PA": "PCRB",
    "WI": "WCRB",
}
NCCI = "NCCI"
INTERSTATE = "Interstate"
POLICY_PREFIXES = ("WC", "WCP", "7WC", "WCA")


class ExperienceClass(WorldModel):
    """Payroll and expected losses of one class of one state in one experience policy."""

    state: str
    class_code: str
    elr: float  # expected loss rate per $100 of payroll
    d_ratio: float  # primary share of expected losses
    payroll: float  # whole dollars
    expected_losses: float  # payroll x ELR / 100, whole dollars
    expected_primary: float  # expected losses x D-ratio, whole dollars


class ExperienceClaim(WorldModel):
    claim_number: str
    injury_type: str  # INJURY_TYPE value
    status: str  # EXPERIENCE_CLAIM_STATUS value
    incurred: float  # whole dollars
    primary: float  # the incurred up to the split point


class ExperiencePolicy(WorldModel):
    carrier: str
    policy_number: str
    effective_date: str
    expiration_date: str
    classes: tuple[ExperienceClass, ...]
    claims: tuple[ExperienceClaim, ...]


class ExperienceRating(WorldModel):
    bureau: str
    risk_id: str
    rating_state: str  # a state code, or "Interstate"
    rating_effective_date: str
    production_date: str
    split_point: float
    policies: tuple[ExperiencePolicy, ...]  # oldest first
    expected_losses: float  # E
    expected_primary: float  # Ep
    expected_excess: float  # Ee = E - Ep
    actual_incurred: float
    actual_primary: float  # Ap
    actual_excess: float  # Ae
    weighting: float  # W, two decimals
    ballast: float  # B, whole dollars
    adjusted_actual: float  # Ap + W x Ae + (1 - W) x Ee + B, rounded to the dollar
    adjusted_expected: float  # E + B
    modification: float  # adjusted actual / adjusted expected, two decimals


def half_up(value: Fraction, places: int = 0) -> Fraction:
    """`value` rounded half up to `places` decimals (exact)."""
    scale = 10**places
    return Fraction(math.floor(value * scale + Fraction(1, 2)), scale)


def modification(adjusted_actual: float, adjusted_expected: float) -> float:
    """The mod the bureau prints: the quotient of the whole-dollar totals to two decimals."""
    return float(half_up(Fraction(round(adjusted_actual)) / round(adjusted_expected), 2))


def adjusted_actual(ap: int, ae: int, ee: int, w_hundredths: int, ballast: int) -> int:
    """Ap + W x Ae + (1 - W) x Ee + B, rounded half up to a dollar."""
    value = Fraction(ap) + Fraction(w_hundredths * ae + (100 - w_hundredths) * ee, 100) + ballast
    return int(half_up(value))


def _classes(rng: random.Random, wc: WorkersComp) -> list[tuple[str, str, float, float, int]]:
    """(state, class, ELR, D-ratio, current payroll) per rated class: a class's loss rate
    follows its manual rate, its D-ratio is its own."""
    out = []
    for row in wc.classes:
        elr = max(0.02, round(row.rate * rng.uniform(0.38, 0.52), 2))
        out.append(
            (row.state, row.class_code, elr, round(rng.uniform(0.30, 0.48), 2), round(row.payroll))
        )
    return out


def _policy_names(
    rng: random.Random, history: LossHistory, start: dt.date, carrier: str
) -> tuple[str, str]:
    """The carrier and policy number of the year starting `start`: the loss run's when it
    reaches that year, otherwise a prior carrier of the bureau's own records."""
    for term in history.terms:
        if term.line == WC_LINE and term.effective_date == iso(start):
            return term.carrier, term.policy_number
    prefix = rng.choice(POLICY_PREFIXES)
    return carrier, f"{prefix}{rng.randint(1_000_000, 9_999_999)}"


def _weighting_and_ballast(expected: int) -> tuple[int, int]:
    """W (hundredths) and B grow with the risk's expected losses, as the bureau tables do."""
    w = min(75, max(4, round(100 * (0.04 + 0.7 * expected / (expected + 4_000_000)))))
    ballast = round(18_000 + 0.09 * expected)
    return w, ballast


def _claim_numbers(rng: random.Random, count: int, year: int) -> list[str]:
    numbers: set[str] = set()
    while len(numbers) < count:
        numbers.add(f"{year % 100:02d}{rng.randint(100_000, 999_999)}")
    return sorted(numbers)


def _claims(rng: random.Random, primary: int, excess: int, large: int) -> list[tuple[int, int]]:
    """(incurred, primary) per claim: `large` claims over the split point share `excess`;
    the rest of `primary` is dealt out as small claims under it."""
    out = (
        [(SPLIT_POINT + share, SPLIT_POINT) for share in split_total(rng, excess, large)]
        if large
        else []
    )
    small = primary - large * SPLIT_POINT
    if small > 0:
        count = max(1, math.ceil(small / (SPLIT_POINT * 0.3))) + rng.randint(0, 2)
        count = min(count, small)
        shares = split_total(rng, small - count, count)
        out.extend((share + 1, share + 1) for share in shares)
    return out


def build_experience(
    rng: random.Random,
    wc: WorkersComp,
    history: LossHistory,
    insured_carriers: tuple[str, ...],
    effective: dt.date,
    completion: dt.date,
) -> ExperienceRating | None:
    """The worksheet behind `wc.experience_mod`, or None for a risk too small to be rated
    (its mod is 1.00 by rule, see `workers.build_workers_comp`)."""
    manual = sum(round(c.manual_premium * 100) for c in wc.classes)
    if manual < 500_000:
        return None
    target = Fraction(round(wc.experience_mod * 100), 100)
    classes = _classes(rng, wc)
    growth = rng.uniform(1.02, 1.07)
    policies: list[tuple[str, str, dt.date, dt.date, list[ExperienceClass]]] = []
    for back in PERIOD_YEARS:
        start, end = add_years(effective, -back), add_years(effective, -back + 1)
        carrier, number = _policy_names(rng, history, start, rng.choice(insured_carriers))
        rows = []
        for state, code, elr, d_ratio, payroll in classes:
            then = max(100, round(payroll / growth ** (back - 1) * rng.uniform(0.94, 1.06), -2))
            # Exact half-up in integers: ELR and D-ratio have two decimals.
            expected = (int(then) * round(elr * 100) + 5_000) // 10_000
            rows.append(
                ExperienceClass(
                    state=state,
                    class_code=code,
                    elr=elr,
                    d_ratio=d_ratio,
                    payroll=float(then),
                    expected_losses=float(expected),
                    expected_primary=float(percent_of(expected, round(d_ratio * 100))),
                )
            )
        policies.append((carrier, number, start, end, rows))
    e = sum(round(r.expected_losses) for *_, rows in policies for r in rows)
    ep = sum(round(r.expected_primary) for *_, rows in policies for r in rows)
    ee = e - ep
    w, ballast = _weighting_and_ballast(e)
    wf = Fraction(w, 100)
    if target < 1:
        # A credit mod needs room below it: the ballast cannot exceed what keeps the actual
        # losses the mod implies at or above zero.
        room = (target * e - (1 - wf) * ee) / (1 - target)
        ballast = max(0, min(ballast, math.floor(room * Fraction(4, 5))))
    # Ap + W x Ae that the mod asks for.
    needed = target * (e + ballast) - (1 - wf) * ee - ballast
    large = 0
    if needed > 2 * SPLIT_POINT:
        large = rng.randint(0, min(3, int(needed * Fraction(3, 5) / SPLIT_POINT)))
    rest = needed - large * SPLIT_POINT
    share = Fraction(round(rng.uniform(0.2, 0.6) * 100), 100) if large else Fraction(0)
    ae = int(rest * share / wf) if large else 0
    ap = int(half_up(needed - wf * ae))
    amounts = _claims(rng, ap, ae, large)
    ap = sum(p for _, p in amounts)
    ae = sum(i - p for i, p in amounts)
    actual = adjusted_actual(ap, ae, ee, w, ballast)
    mod = modification(actual, e + ballast)
    assert mod == float(target), (mod, target)
    # Claims go to policy years at random; the oldest years' claims are mostly final.
    per_policy: list[list[tuple[int, int]]] = [[] for _ in policies]
    for amount in amounts:
        per_policy[rng.randrange(len(policies))].append(amount)
    built: list[ExperiencePolicy] = []
    for (carrier, number, start, end, rows), claims in zip(policies, per_policy, strict=True):
        numbers = _claim_numbers(rng, len(claims), start.year)
        open_share = 0.1 if start.year < effective.year - 3 else 0.35
        drawn = []
        for claim_number, (incurred, primary) in zip(
            numbers, sorted(claims, reverse=True), strict=True
        ):
            injury = (
                "Medical Only"
                if incurred < 3_000
                else weighted(rng, [("Temporary Total", 5), ("Minor Permanent Partial", 2)])
                if incurred <= SPLIT_POINT
                else weighted(
                    rng,
                    [
                        ("Major Permanent Partial", 3),
                        ("Temporary Total", 2),
                        ("Permanent Total", 0.3),
                        ("Death", 0.1),
                    ],
                )
            )
            drawn.append(
                ExperienceClaim(
                    claim_number=claim_number,
                    injury_type=injury,
                    status="Open" if rng.random() < open_share else "Final",
                    incurred=float(incurred),
                    primary=float(primary),
                )
            )
        built.append(
            ExperiencePolicy(
                carrier=carrier,
                policy_number=number,
                effective_date=iso(start),
                expiration_date=iso(end),
                classes=tuple(rows),
                claims=tuple(drawn),
            )
        )
    states = sorted({c.state for c in wc.classes})
    rating_state = states[0] if len(states) == 1 else INTERSTATE
    production = date_between(
        rng, completion - dt.timedelta(days=150), completion - dt.timedelta(days=10)
    )
    return ExperienceRating(
        bureau=BUREAUS.get(rating_state, NCCI),
        risk_id=wc.risk_id,
        rating_state=rating_state,
        rating_effective_date=wc.mod_effective_date,
        production_date=iso(production),
        split_point=float(SPLIT_POINT),
        policies=tuple(built),
        expected_losses=float(e),
        expected_primary=float(ep),
        expected_excess=float(ee),
        actual_incurred=float(ap + ae),
        actual_primary=float(ap),
        actual_excess=float(ae),
        weighting=w / 100,
        ballast=float(ballast),
        adjusted_actual=float(actual),
        adjusted_expected=float(e + ballast),
        modification=mod,
    )
