"""Project the world's experience rating onto the worksheet."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.experience_mod.model import (
    ClaimExperience,
    ClassExperience,
    ExperienceMod,
    ExperiencePolicy,
    PolicyTotals,
    Rating,
)
from packetbench.generator.world import experience
from packetbench.generator.world.models import World


def _total(values: list[float]) -> float:
    return float(sum(round(v) for v in values))


def _policy(policy: experience.ExperiencePolicy) -> ExperiencePolicy:
    return ExperiencePolicy(
        carrier=policy.carrier,
        policy_number=policy.policy_number,
        effective_date=policy.effective_date,
        expiration_date=policy.expiration_date,
        classes=[
            ClassExperience(
                state=c.state,
                class_code=c.class_code,
                elr=c.elr,
                d_ratio=c.d_ratio,
                payroll=c.payroll,
                expected_losses=c.expected_losses,
                expected_primary=c.expected_primary,
            )
            for c in policy.classes
        ],
        claims=[
            ClaimExperience(
                claim_number=c.claim_number,
                injury_type=c.injury_type,
                status=c.status,
                actual_incurred=c.incurred,
                actual_primary=c.primary,
            )
            for c in policy.claims
        ],
        totals=PolicyTotals(
            payroll=_total([c.payroll for c in policy.classes]),
            expected_losses=_total([c.expected_losses for c in policy.classes]),
            expected_primary=_total([c.expected_primary for c in policy.classes]),
            actual_incurred=_total([c.incurred for c in policy.claims]),
            actual_primary=_total([c.primary for c in policy.claims]),
        ),
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> ExperienceMod:
    rating = world.experience_rating
    assert rating is not None, "the worksheet needs an experience-rated WC line"
    return ExperienceMod(
        bureau=rating.bureau,
        risk_name=world.insured.name,
        risk_id=rating.risk_id,
        rating_state=rating.rating_state,
        rating_effective_date=rating.rating_effective_date,
        production_date=rating.production_date,
        split_point=rating.split_point,
        policies=[_policy(p) for p in rating.policies],
        rating=Rating(
            expected_losses=rating.expected_losses,
            expected_primary=rating.expected_primary,
            expected_excess=rating.expected_excess,
            actual_incurred=rating.actual_incurred,
            actual_primary=rating.actual_primary,
            actual_excess=rating.actual_excess,
            weighting_value=rating.weighting,
            ballast_value=rating.ballast,
            adjusted_actual=rating.adjusted_actual,
            adjusted_expected=rating.adjusted_expected,
            experience_mod=rating.modification,
        ),
    )
