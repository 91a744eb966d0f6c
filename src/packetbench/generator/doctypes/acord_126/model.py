"""The PB-126 general liability section: coverage, limits, hazards, premiums, questions."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import Checkbox, Count, Date, DocModel, Id, Leaf, Money, Number, Str
from packetbench.generator.doctypes.common import (
    Address,
    InterestType,
    QuestionAnswer,
    SectionHeader,
    Signature,
)

PremiumBasis = Annotated[str | None, Leaf("enum", codes=codes.GL_PREMIUM_BASIS)]


class Coverage(DocModel):
    """The coverage form and deductible."""

    occurrence: Checkbox = None
    """Ticked for an occurrence policy."""
    claims_made: Checkbox = None
    """Ticked for a claims-made policy."""
    retroactive_date: Date = None
    """Proposed retroactive date of a claims-made policy; empty for occurrence."""
    deductible: Money = None
    """Liability deductible in dollars; empty when there is none."""
    deductible_per_claim: Checkbox = None
    """Ticked when the deductible applies per claim."""
    deductible_per_occurrence: Checkbox = None
    """Ticked when the deductible applies per occurrence."""


class Limits(DocModel):
    """The limits of insurance requested."""

    each_occurrence: Money = None
    """Each occurrence limit in dollars."""
    general_aggregate: Money = None
    """General aggregate limit in dollars."""
    aggregate_per_policy: Checkbox = None
    """Ticked when the general aggregate applies per policy."""
    aggregate_per_project: Checkbox = None
    """Ticked when the general aggregate applies per project."""
    aggregate_per_location: Checkbox = None
    """Ticked when the general aggregate applies per location."""
    products_completed_operations: Money = None
    """Products-completed operations aggregate limit in dollars."""
    personal_advertising_injury: Money = None
    """Personal and advertising injury limit in dollars."""
    damage_to_rented_premises: Money = None
    """Damage to rented premises limit (each occurrence) in dollars."""
    medical_expense: Money = None
    """Medical expense limit (any one person) in dollars."""


class Hazard(DocModel):
    """One row of the schedule of hazards."""

    record_key = ("location_number", "hazard_number")

    location_number: Count = None
    """Location number the classification is rated at."""
    hazard_number: Count = None
    """Hazard number within the location."""
    class_code: Id = None
    """Five-digit GL classification code."""
    classification: Str = None
    """Description of the classification."""
    premium_basis: PremiumBasis = None
    """Premium basis of the exposure (gross sales, payroll, area, units, total cost)."""
    exposure: Number = None
    """Exposure amount in units of the premium basis (dollars, square feet or units)."""
    territory: Id = None
    """Rating territory code."""
    premises_rate: Number = None
    """Premises/operations rate per basis unit ($1,000, 1,000 sq ft, or one unit)."""
    products_rate: Number = None
    """Products-completed operations rate per basis unit; empty when included."""
    premises_premium: Money = None
    """Premises/operations premium in dollars."""
    products_premium: Money = None
    """Products-completed operations premium in dollars."""


class Premiums(DocModel):
    """The premium of the section."""

    premises_operations: Money = None
    """Premises/operations premium of all hazards in dollars."""
    products_completed_operations: Money = None
    """Products-completed operations premium of all hazards in dollars."""
    total_premium: Money = None
    """Total GL premium in dollars (premises/operations plus products)."""


class AdditionalInsured(DocModel):
    """A person or organization to be named as additional insured."""

    record_key = ("name",)

    name: Str = None
    """Name of the additional insured."""
    address: Address = Field(default_factory=Address)
    """Mailing address of the additional insured."""
    interest: InterestType = None
    """Nature of the interest."""
    relationship: Str = None
    """Relationship to the applicant (landlord, general contractor, customer...)."""


class GeneralInformation(DocModel):
    """Answers to the GL underwriting questions."""

    medical_facilities: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any medical facilities provided or medical professionals employed or contracted?"""
    hazardous_materials: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any exposure to radioactive or hazardous materials, their storage, disposal or
    transport?"""
    operations_changed: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any operations sold, acquired or discontinued in the last five years?"""
    equipment_loaned: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is machinery or equipment loaned or rented to others?"""
    parking: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are parking facilities owned or rented, and is a fee charged?"""
    subcontractors: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are subcontractors used, and are certificates of insurance obtained from them?"""
    safety_program: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there a written safety and security policy in effect?"""
    events: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any sponsored social events or athletic teams?"""


class GeneralLiabilitySection(DocModel):
    """An ACORD 126-style commercial general liability section."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    coverage: Coverage = Field(default_factory=Coverage)
    """Coverage form and deductible."""
    limits: Limits = Field(default_factory=Limits)
    """Limits of insurance."""
    hazards: list[Hazard] = Field(default_factory=list)
    """Schedule of hazards, by location and hazard number."""
    premiums: Premiums = Field(default_factory=Premiums)
    """Premium summary."""
    additional_insureds: list[AdditionalInsured] = Field(default_factory=list)
    """Additional insureds to be named on the policy."""
    general_information: GeneralInformation = Field(default_factory=GeneralInformation)
    """Underwriting questions and answers."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
