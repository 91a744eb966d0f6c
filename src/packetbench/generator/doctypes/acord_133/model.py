"""The PB-133 assigned-risk section: the plan application that goes with the WC application
when the voluntary market has declined the account."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Date, DocModel, Id, Money, Str
from packetbench.generator.doctypes.common import (
    Address,
    QuestionAnswer,
    SectionHeader,
    Signature,
    State,
)


class PayrollRecords(DocModel):
    """Where the applicant's payroll records are kept, and who keeps them."""

    contact_name: Str = None
    """Person responsible for the payroll records."""
    phone: Str = None
    """Phone number of that person."""
    address: Address = Field(default_factory=Address)
    """Address where the payroll records are kept."""


class CoveredState(DocModel):
    """A state the plan coverage is requested in."""

    record_key = ("state",)

    state: State = None
    """State."""


class Declination(DocModel):
    """A voluntary-market insurer that declined to offer coverage."""

    record_key = ("insurer",)

    insurer: Str = None
    """Name of the insurer that declined."""
    declined_date: Date = None
    """Date the insurer declined."""
    reason: Str = None
    """Reason given for declining."""


class PlanQuestions(DocModel):
    """Answers to the assigned-risk plan's questions."""

    prior_coverage: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Has the applicant had workers compensation coverage in this state in the last three
    years?"""
    unpaid_premium: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is any workers compensation premium unpaid or in dispute?"""
    ownership_change: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any change in ownership, merger or acquisition in the last five years?"""
    common_ownership: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there common ownership with any entity not listed?"""
    peo: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Does the applicant use a professional employer organization or temporary labor?"""
    financed: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is the premium financed?"""


class AssignedRiskSection(DocModel):
    """An ACORD 133-style workers compensation insurance plan (assigned risk) section."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    applicant_name: Str = None
    """Full legal name of the applicant."""
    fein: Id = None
    """Federal employer identification number."""
    risk_id: Id = None
    """NCCI risk identification number."""
    payroll_records: PayrollRecords = Field(default_factory=PayrollRecords)
    """Payroll records office."""
    highest_payroll_state: State = None
    """State with the highest payroll."""
    states: list[CoveredState] = Field(default_factory=list)
    """States the plan coverage is requested in."""
    declinations: list[Declination] = Field(default_factory=list)
    """Voluntary-market insurers that declined the account."""
    plan_questions: PlanQuestions = Field(default_factory=PlanQuestions)
    """Plan questions and answers."""
    estimated_annual_premium: Money = None
    """Estimated annual premium, all states, in dollars."""
    deposit_premium: Money = None
    """Deposit premium submitted with the application, in dollars."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
