"""The loss run at an earlier valuation date (packet.superseded, packet.duplicate_document).

An older copy is the report as the carrier ran it then: it lists only the policy terms that had
begun and the claims reported on or before its own valuation date, each with its values as of
that date (a claim closed since was still open, with less paid and a reserve standing), and its
totals are those of what it lists.
"""

from __future__ import annotations

import datetime as dt
import random

from packetbench.core import codes
from packetbench.generator.doctypes.loss_run.build import totals_of
from packetbench.generator.doctypes.loss_run.model import LossRun, LossRunClaim, LossRunPolicy

# How much earlier the older copy was run (a quarter, half a year, three quarters).
EARLIER_DAYS = (91, 182, 273)


def _cents(value: float) -> float:
    return round(value, 2)


def _then(claim: LossRunClaim, valued: str, share: float) -> LossRunClaim:
    """`claim` as it stood on `valued` (it was reported by then)."""
    if claim.paid is None or claim.incurred is None:
        return claim
    if claim.closed_date is not None and claim.closed_date > valued:
        paid = _cents(claim.paid * share)
        incurred = _cents(claim.incurred * 0.9)
        return claim.model_copy(
            update={
                "status": "Open",
                "closed_date": None,
                "paid": paid,
                "reserve": _cents(max(incurred - paid, 0.0)),
                "incurred": max(incurred, paid),
            }
        )
    if claim.status in codes.OPEN_CLAIM_STATUSES:
        paid = _cents(claim.paid * share)
        return claim.model_copy(update={"paid": paid, "reserve": _cents(claim.incurred - paid)})
    return claim


def _reported_by(claim: LossRunClaim, valued: str) -> bool:
    """Whether the carrier knew of `claim` on `valued` (by its report date, else its loss)."""
    known = claim.report_date or claim.loss_date
    return known is None or known <= valued


def _begun(policy: LossRunPolicy, valued: str) -> bool:
    return policy.effective_date is None or policy.effective_date <= valued


def _earlier(day: str, days: int) -> str:
    return (dt.date.fromisoformat(day) - dt.timedelta(days)).isoformat()


def prior(doc: LossRun, rng: random.Random) -> LossRun:
    if doc.valuation_date is None:
        return doc
    # Run during the latest term where the report allows it, so both copies list the same
    # terms (a term that had not begun is left out either way).
    keeping = [
        d
        for d in EARLIER_DAYS
        if all(_begun(p, _earlier(doc.valuation_date, d)) for p in doc.policies)
    ]
    days = rng.choice(keeping or EARLIER_DAYS)
    valued = _earlier(doc.valuation_date, days)
    share = rng.choice((0.5, 0.6, 0.75))
    policies = []
    for policy in doc.policies:
        if not _begun(policy, valued):
            continue
        claims = [_then(c, valued, share) for c in policy.claims if _reported_by(c, valued)]
        policies.append(policy.model_copy(update={"claims": claims, "totals": totals_of(claims)}))
    run = doc.run_date
    if run is not None:
        run = _earlier(run, days)
    return doc.model_copy(
        update={
            "valuation_date": valued,
            "run_date": run,
            "policies": policies,
            "grand_totals": totals_of([c for p in policies for c in p.claims]),
        }
    )
