"""Project the world's loss history onto a loss run."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from packetbench.core import codes
from packetbench.generator.doctypes.loss_run.model import (
    LossRun,
    LossRunClaim,
    LossRunPolicy,
    LossTotals,
)
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import World
from packetbench.generator.world.policy import Loss


def totals_of(claims: Sequence[LossRunClaim]) -> LossTotals:
    """Counts and amounts over `claims`, amounts summed in cents so they are exact."""

    def total(attribute: str) -> float:
        return dollars(sum(round(getattr(c, attribute) * 100) for c in claims))

    return LossTotals(
        claim_count=len(claims),
        open_claims=sum(1 for c in claims if c.status in codes.OPEN_CLAIM_STATUSES),
        paid=total("paid"),
        reserve=total("reserve"),
        incurred=total("incurred"),
    )


def _claim(claim: Loss) -> LossRunClaim:
    return LossRunClaim(
        claim_number=claim.claim_number,
        loss_date=claim.loss_date,
        report_date=claim.report_date,
        closed_date=claim.closed_date,
        claimant=claim.claimant,
        description=claim.description,
        location_number=claim.location_number,
        status=claim.status,
        paid=claim.paid,
        reserve=claim.reserve,
        incurred=claim.incurred,
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> LossRun:
    """The loss run of `world`: every policy term of its loss history, most recent first."""
    history = world.loss_history
    policies = []
    for term in history.terms:
        claims = [_claim(c) for c in term.claims]
        policies.append(
            LossRunPolicy(
                carrier=term.carrier,
                policy_number=term.policy_number,
                line_of_business=term.line,
                effective_date=term.effective_date,
                expiration_date=term.expiration_date,
                claims=claims,
                totals=totals_of(claims),
            )
        )
    return LossRun(
        insured_name=world.insured.name,
        agency_name=world.producer.agency_name,
        valuation_date=history.valuation_date,
        run_date=history.run_date,
        policies=policies,
        grand_totals=totals_of([c for p in policies for c in p.claims]),
    )
