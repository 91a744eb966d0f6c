"""The PB-130 workers compensation application: applicant, locations, employers liability,
individuals included or excluded, the rating worksheet by state and class, each state's
premium, prior coverage, and underwriting questions."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import (
    Checkbox,
    Count,
    Date,
    DocModel,
    Id,
    Leaf,
    Money,
    Number,
    Percent,
    Str,
    Text,
    Year,
)
from packetbench.generator.doctypes.common import (
    Address,
    AuditFrequency,
    EntityType,
    PaymentPlan,
    QuestionAnswer,
    SectionHeader,
    Signature,
    State,
)

Inclusion = Annotated[str | None, Leaf("enum", codes=codes.INCLUSION)]


class Applicant(DocModel):
    """The employer applying for coverage."""

    name: Str = None
    """Full legal name of the applicant."""
    mailing_address: Address = Field(default_factory=Address)
    """Mailing address of the applicant."""
    fein: Id = None
    """Federal employer identification number."""
    sic: Id = None
    """Four-digit SIC code."""
    naics: Id = None
    """Six-digit NAICS code."""
    business_start_date: Date = None
    """Date the business started."""
    entity_type: EntityType = None
    """Legal entity of the applicant."""
    risk_id: Id = None
    """NCCI risk identification number."""


class Status(DocModel):
    """The market the application is made in, and billing."""

    voluntary: Checkbox = None
    """Ticked for an application in the voluntary market."""
    assigned_risk: Checkbox = None
    """Ticked for an application to the assigned-risk plan."""
    direct_bill: Checkbox = None
    """Ticked when the carrier bills the insured directly."""
    agency_bill: Checkbox = None
    """Ticked when the agency bills the insured."""
    payment_plan: PaymentPlan = None
    """Premium payment plan."""
    audit_frequency: AuditFrequency = None
    """How often payroll is audited."""


class WcLocation(DocModel):
    """A location whose employees the policy covers."""

    record_key = ("location_number",)

    location_number: Count = None
    """Location number, as on the application."""
    address: Address = Field(default_factory=Address)
    """Street address of the location."""
    county: Str = None
    """County of the location."""


class EmployersLiability(DocModel):
    """Part two: employers liability limits, and the experience modification."""

    each_accident: Money = None
    """Bodily injury by accident, each accident limit in dollars."""
    disease_policy_limit: Money = None
    """Bodily injury by disease, policy limit in dollars."""
    disease_each_employee: Money = None
    """Bodily injury by disease, each employee limit in dollars."""
    experience_mod: Number = None
    """Experience modification factor (1.00 when not experience rated)."""
    mod_effective_date: Date = None
    """Date the experience modification takes effect."""


class ExcludedState(DocModel):
    """A state with locations whose employees a private policy cannot cover."""

    record_key = ("state",)

    state: State = None
    """State whose workers compensation is written only by a state fund."""


class Individual(DocModel):
    """An owner or officer, included in or excluded from coverage."""

    record_key = ("name",)

    name: Str = None
    """Full name."""
    title: Str = None
    """Title or relationship to the applicant."""
    birth_date: Date = None
    """Date of birth."""
    ownership_percent: Percent = None
    """Ownership share in percent."""
    duties: Str = None
    """Duties."""
    inclusion: Inclusion = None
    """Whether the individual is included in or excluded from coverage."""
    state: State = None
    """State the individual is rated in."""
    class_code: Id = None
    """Class code the individual is rated in."""
    remuneration: Money = None
    """Annual remuneration in dollars."""


class RatingRow(DocModel):
    """One class of one state on the rating worksheet."""

    record_key = ("state", "class_code")

    state: State = None
    """State."""
    class_code: Id = None
    """Four-digit NCCI class code."""
    description: Str = None
    """Class description."""
    full_time_employees: Count = None
    """Full-time employees in the class."""
    part_time_employees: Count = None
    """Part-time employees in the class."""
    payroll: Money = None
    """Estimated annual remuneration (payroll) in dollars."""
    rate: Number = None
    """Rate per $100 of payroll."""
    manual_premium: Money = None
    """Estimated annual manual premium in dollars (payroll / 100 x rate)."""


class StatePremium(DocModel):
    """One state's premium, from manual to estimated."""

    record_key = ("state",)

    state: State = None
    """State."""
    manual_premium: Money = None
    """Manual premium of the state's classes in dollars."""
    experience_mod: Number = None
    """Experience modification applied."""
    modified_premium: Money = None
    """Premium after the experience modification in dollars."""
    discount_percent: Percent = None
    """Premium discount in percent."""
    premium_discount: Money = None
    """Premium discount in dollars."""
    expense_constant: Money = None
    """Expense constant in dollars."""
    terrorism_rate: Number = None
    """Terrorism rate per $100 of payroll."""
    terrorism_premium: Money = None
    """Terrorism premium in dollars."""
    estimated_premium: Money = None
    """Estimated annual premium of the state in dollars (modified premium less discount,
    plus expense constant and terrorism)."""


class PremiumSummary(DocModel):
    """Premium of the policy across all states."""

    estimated_annual_premium: Money = None
    """Estimated annual premium, all states, in dollars."""
    minimum_premium: Money = None
    """Minimum premium in dollars."""
    deposit_premium: Money = None
    """Deposit premium in dollars."""


class PriorPolicy(DocModel):
    """Workers compensation in one prior policy year."""

    record_key = ("policy_number",)

    year: Year = None
    """Policy year (year of the effective date)."""
    carrier: Str = None
    """Insurer that wrote the policy."""
    policy_number: Id = None
    """Policy number."""
    premium: Money = None
    """Annual premium in dollars."""
    claim_count: Count = None
    """Number of claims reported under the policy."""
    amount_paid: Money = None
    """Amount paid on those claims in dollars."""
    amount_reserved: Money = None
    """Amount reserved on those claims in dollars."""


class GeneralInformation(DocModel):
    """Answers to the workers compensation questions."""

    aircraft_watercraft: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Does the applicant own, operate or lease aircraft or watercraft?"""
    height_work: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is work performed underground or above 15 feet?"""
    subcontractors: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are subcontractors used?"""
    safety_program: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there a written safety program?"""
    minors_seniors: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any employees under 16 or over 60 years of age?"""
    seasonal: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are seasonal employees hired?"""
    out_of_state: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Do employees travel out of state?"""
    leased_employees: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are employees leased to or from other employers?"""
    health_plan: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is group health insurance provided to employees?"""


class WorkersCompApplication(DocModel):
    """An ACORD 130-style workers compensation application."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    applicant: Applicant = Field(default_factory=Applicant)
    """The employer."""
    status: Status = Field(default_factory=Status)
    """Market and billing."""
    locations: list[WcLocation] = Field(default_factory=list)
    """Locations whose employees the policy covers."""
    employers_liability: EmployersLiability = Field(default_factory=EmployersLiability)
    """Employers liability limits and experience modification."""
    excluded_states: list[ExcludedState] = Field(default_factory=list)
    """States with locations covered by a monopolistic state fund instead."""
    individuals: list[Individual] = Field(default_factory=list)
    """Owners and officers included or excluded."""
    rating: list[RatingRow] = Field(default_factory=list)
    """Rating worksheet by state and class."""
    state_premiums: list[StatePremium] = Field(default_factory=list)
    """Premium of each state."""
    premium: PremiumSummary = Field(default_factory=PremiumSummary)
    """Premium of the policy."""
    prior_coverage: list[PriorPolicy] = Field(default_factory=list)
    """Prior workers compensation policies, most recent first."""
    operations_description: Text = None
    """Nature of business and description of operations."""
    general_information: GeneralInformation = Field(default_factory=GeneralInformation)
    """Underwriting questions and answers."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
