"""The program's paperwork around the policy: the binder, and the incumbent's cancellation."""

from __future__ import annotations

import datetime as dt
import random

from packetbench.core import codes
from packetbench.generator.world.draw import date_between, iso, weighted
from packetbench.generator.world.models import Binder, CancellationRequest
from packetbench.generator.world.policy import LossHistory, Policy


def build_binder(rng: random.Random, policy: Policy, lines: tuple[str, ...]) -> Binder | None:
    """A binder when the program is bound or being renewed; none for a quote."""
    if policy.status not in ("Bound", "Renew"):
        return None
    effective = dt.date.fromisoformat(policy.effective_date)
    completion = dt.date.fromisoformat(policy.completion_date)
    return Binder(
        number=f"BND-{effective.year}-{rng.randint(10_000, 99_999)}",
        issued_date=iso(date_between(rng, completion, effective - dt.timedelta(days=1))),
        effective_date=policy.effective_date,
        expiration_date=iso(effective + dt.timedelta(days=rng.choice((30, 60)))),
        lines=lines,
    )


def build_cancellation(
    rng: random.Random, history: LossHistory, carrier: str, lines: tuple[str, ...], completion: str
) -> CancellationRequest | None:
    """The incumbent's expiring policy of the first line it wrote, cancelled at expiry; none
    when the account renews with the same carrier."""
    latest = max(term.expiration_date for term in history.terms)
    for line in lines:
        term = next(
            (
                t
                for t in history.terms
                if t.expiration_date == latest and t.line == codes.LINE_IDS[line]
            ),
            None,
        )
        if term is None or term.carrier == carrier:
            continue
        return CancellationRequest(
            line=line,
            carrier=term.carrier,
            policy_number=term.policy_number,
            term_effective_date=term.effective_date,
            term_expiration_date=term.expiration_date,
            cancel_effective_date=term.expiration_date,
            reason=weighted(rng, [("Policy Rewritten", 3), ("Insured's Request", 2)]),
            return_premium_method="Flat",
            request_date=completion,
            lost_policy_release=rng.random() < 0.3,
        )
    return None
