"""The expiring policy: the incumbent's current term of each line, as its declarations show it.

Its parts are the loss history's most recent terms (the terms that expire when the new
program starts), so the declarations page, the policy form and the broker's letter state the
same carrier, numbers and premiums as the loss runs. What the loss history does not carry (the
incumbent's NAIC code, taxes and fees, the countersignature) is drawn here from its own stream.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from packetbench.generator.world.base import WorldModel
from packetbench.generator.world.draw import iso
from packetbench.generator.world.policy import LossHistory, Policy


class ExpiringPart(WorldModel):
    """One coverage part of the expiring policy."""

    line: str  # LOSS_LINE value
    policy_number: str
    premium: float


class ExpiringPolicy(WorldModel):
    carrier: str
    naic: str
    effective_date: str
    expiration_date: str
    parts: tuple[ExpiringPart, ...]  # in the loss history's line order
    taxes_and_fees: float  # state surcharges and policy fee, whole dollars
    issued_date: str  # when the incumbent issued the declarations
    countersigned_by: str  # the incumbent's authorized representative


def build_expiring(
    fake: Faker, rng: random.Random, history: LossHistory, policy: Policy, carrier: tuple[str, str]
) -> ExpiringPolicy | None:
    """The expiring term of every line in the loss history; None when nothing expires at the
    new effective date (a history of other years only). `carrier` (name, NAIC) is the market
    the submission goes to: when it is the incumbent, its NAIC code is the one it has."""
    current = [t for t in history.terms if t.expiration_date == policy.effective_date]
    if not current:
        return None
    premium_cents = sum(round(t.premium * 100) for t in current)
    fee = rng.choice((150, 200, 250, 300))
    surcharge = round(premium_cents * rng.uniform(0.0, 0.012) / 100)
    start = dt.date.fromisoformat(current[0].effective_date)
    return ExpiringPolicy(
        carrier=current[0].carrier,
        naic=carrier[1] if carrier[0] == current[0].carrier else fake.naic_code(),
        effective_date=current[0].effective_date,
        expiration_date=current[0].expiration_date,
        parts=tuple(
            ExpiringPart(line=t.line, policy_number=t.policy_number, premium=t.premium)
            for t in current
        ),
        taxes_and_fees=float(fee + surcharge),
        issued_date=iso(start - dt.timedelta(days=rng.randint(3, 21))),
        countersigned_by=fake.person_name(),
    )
