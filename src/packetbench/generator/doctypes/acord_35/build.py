"""Project the world's cancellation request onto the form: the incumbent's expiring policy,
cancelled as the new program takes effect."""

from __future__ import annotations

import random
from typing import Any

from packetbench.core import codes
from packetbench.generator.doctypes._issue import PolicyTerm
from packetbench.generator.doctypes._parties import Company, insured_of, producer_of, yes_no
from packetbench.generator.doctypes.acord_35.model import (
    CancellationRequest,
    PolicyType,
    Reason,
    Replacement,
    ReturnPremium,
    Signature,
)
from packetbench.generator.doctypes.acord_125.model import code_field
from packetbench.generator.world.models import World

# Cancellations, like policy periods, take effect at 12:01 a.m. standard time.
EFFECTIVE_TIME = "12:01 AM"


def ticks(code_list: codes.CodeList, chosen: str) -> dict[str, str]:
    """One Yes/No per code value, keyed by its field name; only `chosen` is ticked."""
    if chosen not in code_list.values:
        raise ValueError(f"{chosen!r} is not in code list {code_list.name}")
    return {code_field(value): yes_no(value == chosen) for value in code_list.values}


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> CancellationRequest:
    request = world.cancellation
    if request is None:
        raise ValueError("the world has no cancellation request")
    signer = world.principals[0]
    replacing = world.policy_line(request.line)
    return CancellationRequest(
        request_date=request.request_date,
        producer=producer_of(world),
        # The incumbent's NAIC code is not part of the world: its box stays blank.
        company=Company(name=request.carrier),
        insured=insured_of(world),
        policy=PolicyTerm(
            policy_number=request.policy_number,
            effective_date=request.term_effective_date,
            expiration_date=request.term_expiration_date,
        ),
        policy_type=PolicyType(**ticks(codes.LOSS_LINE, codes.LINE_IDS[request.line])),
        cancellation_date=request.cancel_effective_date,
        cancellation_time=EFFECTIVE_TIME,
        reason=Reason(**ticks(codes.CANCELLATION_REASON, request.reason)),
        return_premium=ReturnPremium(
            **ticks(codes.RETURN_PREMIUM_METHOD, request.return_premium_method)
        ),
        replacement=Replacement(
            carrier_name=world.carrier.name,
            policy_number=replacing.policy_number,
            effective_date=world.policy.effective_date,
        ),
        lost_policy_release=yes_no(request.lost_policy_release),
        signature=Signature(
            signer_name=signer.name, signer_title=signer.title, signature_date=request.request_date
        ),
    )
