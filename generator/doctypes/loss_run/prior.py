"""The loss run at an earlier valuation date (packet.superseded, packet.duplicate_document):
claims closed since were still open then, with less paid and a reserve standing."""

from __future__ import annotations

import datetime as dt
import random

from generator import codes
from generator.doctypes.loss_run.build import totals_of
from generator.doctypes.loss_run.model import LossRun, LossRunClaim


def _cents(value: float) -> float:
    return round(value, 2)


def _then(claim: LossRunClaim, valued: str, share: float) -> LossRunClaim:
    """`claim` as it stood on `valued`."""
    if claim.paid is None or claim.incurred is None:
        return claim
    if claim.closed_date is not None and claim.closed_date > valued:
        paid = _cents(claim.paid * share)
        incurred = _cents(claim.incurred * 0.9)
        return claim.model_copy(update={
            "status": "Open", "closed_date": None, "paid": paid,
            "reserve": _cents(max(incurred - paid, 0.0)), "incurred": max(incurred, paid)})
    if claim.status in codes.OPEN_CLAIM_STATUSES:
        paid = _cents(claim.paid * share)
        return claim.model_copy(update={"paid": paid,
                                        "reserve": _cents(claim.incurred - paid)})
    return claim


def prior(doc: LossRun, rng: random.Random) -> LossRun:
    if doc.valuation_date is None:
        return doc
    days = rng.choice((91, 182, 273))
    valued = (dt.date.fromisoformat(doc.valuation_date) - dt.timedelta(days)).isoformat()
    share = rng.choice((0.5, 0.6, 0.75))
    policies = []
    for policy in doc.policies:
        claims = [_then(c, valued, share) for c in policy.claims]
        policies.append(policy.model_copy(update={"claims": claims,
                                                  "totals": totals_of(claims)}))
    run = doc.run_date
    if run is not None:
        run = (dt.date.fromisoformat(run) - dt.timedelta(days)).isoformat()
    return doc.model_copy(update={
        "valuation_date": valued, "run_date": run, "policies": policies,
        "grand_totals": totals_of([c for p in policies for c in p.claims]),
    })
