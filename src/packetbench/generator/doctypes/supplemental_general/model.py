"""The general supplemental application (commercial lines) every packet carries: who the
applicant is and what it does, its premises, underwriting questions, its prior insurance by
policy term, signatures. One model: the PDF questionnaire and the workbook both render it."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import (
    Count,
    Date,
    DocModel,
    Id,
    Leaf,
    Money,
    Percent,
    Str,
    Text,
    Year,
    YesNo,
)
from packetbench.generator.doctypes.common import (
    Address,
    Construction,
    EntityType,
    LossLine,
    Occupancy,
    QuestionAnswer,
    SectionHeader,
    Signature,
    State,
)

NatureOfBusiness = Annotated[str | None, Leaf("enum", codes=codes.NATURE_OF_BUSINESS)]
Interest = Annotated[str | None, Leaf("enum", codes=codes.INSURED_INTEREST)]

# The form's premises schedule has room for this many buildings; the statement of values
# lists every one (the form says how many there are).
PREMISES_ROWS = 12


class Applicant(DocModel):
    """The applicant: identity, business and size."""

    dba: Str = None
    """Trade name (doing business as), when the applicant has one."""
    entity_type: EntityType = None
    """Legal form of the applicant."""
    fein: Id = None
    """Federal employer identification number."""
    mailing_address: Address = Field(default_factory=Address)
    """Mailing address."""
    phone: Str = None
    """Business phone number."""
    website: Str = None
    """Website address."""
    nature_of_business: NatureOfBusiness = None
    """Nature of business."""
    industry: Str = None
    """Description of the class of business."""
    sic: Id = None
    """SIC code."""
    naics: Id = None
    """NAICS code."""
    business_start_date: Date = None
    """Date the business started."""
    years_in_business: Count = None
    """Whole years in business at the date of the application."""
    operations_description: Text = None
    """Description of operations, as the applicant writes it."""


class Exposures(DocModel):
    """Size of the operations: staff, revenue and premises."""

    full_time_employees: Count = None
    """Number of full-time employees."""
    part_time_employees: Count = None
    """Number of part-time employees."""
    annual_revenue: Money = None
    """Annual gross revenue, in dollars."""
    location_count: Count = None
    """Number of locations."""
    building_count: Count = None
    """Number of buildings at all locations (the premises schedule lists at most the first
    twelve)."""


class PremisesRow(DocModel):
    """One building of the premises schedule."""

    record_key = ("location_number", "building_number")

    location_number: Count = None
    """Location number."""
    building_number: Count = None
    """Building number at the location."""
    street: Str = None
    """Street address."""
    city: Str = None
    """City."""
    state: State = None
    """State."""
    interest: Interest = None
    """Whether the applicant owns the building or leases it (Owner / Tenant)."""
    occupancy: Occupancy = None
    """Occupancy of the building."""
    construction: Construction = None
    """Construction class."""
    year_built: Year = None
    """Year built."""
    stories: Count = None
    """Number of stories."""
    square_feet: Count = None
    """Floor area, in square feet."""
    sprinklered_percent: Percent = None
    """Share of the building protected by automatic sprinklers, in percent."""


class GeneralAnswers(DocModel):
    """Answers to the general underwriting questions."""

    declined_cancelled: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Has any carrier declined, cancelled or non-renewed coverage in the past three years?"""
    safety_program: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is a written safety program in place, with a person responsible for it?"""
    code_violations: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are there any uncorrected fire, building or safety code violations?"""
    fully_sprinklered: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is every scheduled building fully protected by automatic sprinklers?"""
    central_alarm: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is every scheduled building monitored by a central-station fire alarm?"""
    vacancy: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is any premises vacant, unoccupied or under renovation?"""
    unscheduled_premises: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are operations conducted at any premises not scheduled on the application?"""
    osha: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Has any OSHA or state safety citation been issued in the past three years?"""
    subcontractor_certificates: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are certificates of insurance obtained from every contractor working on the
    premises?"""
    acquisitions: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are any mergers, acquisitions or new operations planned in the next twelve months?"""
    ev_charging: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are electric-vehicle charging stations installed at any premises?"""
    claims_pending: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is the applicant aware of any incident that may give rise to a claim not shown in the
    loss history?"""


class PriorTerm(DocModel):
    """One policy term of the prior insurance history."""

    record_key = ("policy_number",)

    policy_year: Year = None
    """Calendar year in which the term began."""
    line: LossLine = None
    """Line of business."""
    carrier: Str = None
    """Insurance company that wrote the term."""
    policy_number: Id = None
    """Policy number of the term."""
    effective_date: Date = None
    """Term effective date."""
    expiration_date: Date = None
    """Term expiration date."""
    premium: Money = None
    """Annual premium of the term, in dollars."""
    claim_count: Count = None
    """Number of claims reported under the term."""
    incurred: Money = None
    """Losses incurred under the term (paid plus reserved), in dollars."""
    non_renewed: YesNo = None
    """Whether the carrier cancelled or did not renew the term (Y/N)."""


class GeneralSupplement(DocModel):
    """A general supplemental application for commercial lines."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    applicant: Applicant = Field(default_factory=Applicant)
    """The applicant and its business."""
    exposures: Exposures = Field(default_factory=Exposures)
    """Employees, revenue and premises counts."""
    premises: list[PremisesRow] = Field(default_factory=list)
    """Premises schedule: the first buildings of the statement of values (at most twelve)."""
    answers: GeneralAnswers = Field(default_factory=GeneralAnswers)
    """Underwriting questions and answers."""
    prior_insurance: list[PriorTerm] = Field(default_factory=list)
    """Prior insurance history: one row per policy term, most recent first."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
