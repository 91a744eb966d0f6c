"""A submission's policy and its loss history: the records the expiring policy, the
experience rating and the loss runs are drawn from."""

from __future__ import annotations

from packetbench.core import codes
from packetbench.generator.world.base import WorldModel


class PolicyLine(WorldModel):
    """One line of business of the submission: its own policy number and premium."""

    line: str  # LOSS_LINE value
    policy_number: str
    premium: float

    @property
    def line_id(self) -> str:
        """The line's short id (`codes.LINE_IDS`): "property", "gl", "auto", ..."""
        return next(k for k, v in codes.LINE_IDS.items() if v == self.line)


class Policy(WorldModel):
    number: str
    status: str  # TRANSACTION_STATUS value
    effective_date: str
    expiration_date: str
    lines: tuple[PolicyLine, ...]
    payment_plan: str
    billing_method: str
    audit_frequency: str
    deposit: float
    minimum_premium: float
    total_premium: float
    completion_date: str


class Loss(WorldModel):
    claim_number: str
    loss_date: str
    report_date: str
    closed_date: str | None
    claimant: str
    description: str
    location_number: int | None
    status: str  # CLAIM_STATUS value
    paid: float
    reserve: float
    incurred: float


class PolicyTerm(WorldModel):
    """One policy year of one line at one carrier, with the claims reported under it."""

    carrier: str
    policy_number: str
    line: str
    effective_date: str
    expiration_date: str
    premium: float
    claims: tuple[Loss, ...]


class LossHistory(WorldModel):
    valuation_date: str
    run_date: str
    terms: tuple[PolicyTerm, ...]
