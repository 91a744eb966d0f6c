"""The issue facts certificates and evidence forms carry: their date and number, and the
policy they evidence (number and term, with the insurer's letter on a certificate row)."""

from __future__ import annotations

import random

from packetbench.core.leaves import Date, DocModel, Id, Str
from packetbench.generator.doctypes._parties import INSURER_LETTER
from packetbench.generator.world.models import World


class PolicyTerm(DocModel):
    """A policy's number and period."""

    policy_number: Id = None
    """Policy number."""
    effective_date: Date = None
    """Policy effective date."""
    expiration_date: Date = None
    """Policy expiration date."""


class PolicyRow(PolicyTerm):
    """The identification columns of a certificate's coverage row."""

    insurer_letter: Str = None
    """Letter of the insurer affording this coverage (see the insurers list)."""


def certificate_number(rng: random.Random, world: World) -> str:
    """A certificate number as an agency system assigns it: the policy year and a serial.

    Drawn from the document's own stream; no other document refers to it.
    """
    return f"{world.policy.effective_date[:4]}-{rng.randint(100_000, 999_999)}"


def issue_date(world: World) -> str:
    """Certificates and evidence are issued with the submission, on its completion date."""
    return world.policy.completion_date


def policy_term(world: World, line: str) -> PolicyTerm:
    """The number and term of one carried line (every line of the program runs the same
    term)."""
    return PolicyTerm(
        policy_number=world.policy_line(line).policy_number,
        effective_date=world.policy.effective_date,
        expiration_date=world.policy.expiration_date,
    )


def policy_row(world: World, line: str) -> PolicyRow:
    """A coverage row's identification: insurer letter, policy number and term."""
    return PolicyRow(insurer_letter=INSURER_LETTER, **policy_term(world, line).model_dump())
