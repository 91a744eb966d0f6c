"""The PB-160 businessowners section: the BOP alternative's policy terms, liability limits,
premiums, premises with their property limits, optional coverages and mortgagees."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Checkbox, Count, DocModel, Id, Money, Number, Percent, Str, Year
from packetbench.generator.doctypes.common import (
    Address,
    Construction,
    Occupancy,
    QuestionAnswer,
    SectionHeader,
    Signature,
)


class PolicyTerms(DocModel):
    """Policy form and property deductible."""

    standard: Checkbox = None
    """Ticked for the standard (named perils) form."""
    special: Checkbox = None
    """Ticked for the special (open perils) form."""
    property_deductible: Money = None
    """Property deductible per occurrence in dollars."""


class LiabilityLimits(DocModel):
    """Business liability limits of the program."""

    each_occurrence: Money = None
    """Each occurrence limit in dollars."""
    general_aggregate: Money = None
    """General aggregate limit in dollars."""
    products_aggregate: Money = None
    """Products-completed operations aggregate in dollars."""
    personal_advertising: Money = None
    """Personal and advertising injury limit in dollars."""
    damage_to_rented_premises: Money = None
    """Damage to premises rented to the insured in dollars."""
    medical_expense: Money = None
    """Medical expense limit (any one person) in dollars."""


class Premiums(DocModel):
    """The program's indicated premium."""

    property: Money = None
    """Property premium of every premises in dollars."""
    liability: Money = None
    """Business liability premium in dollars."""
    optional_coverages: Money = None
    """Premium of the optional coverages in dollars."""
    total_premium: Money = None
    """Total indicated premium in dollars (property, liability and optional coverages)."""


class BopPremises(DocModel):
    """One building of the program."""

    record_key = ("location_number", "building_number")

    location_number: Count = None
    """Location number, as on the statement of values."""
    building_number: Count = None
    """Building number within the location."""
    address: Address = Field(default_factory=Address)
    """Street address of the building."""
    occupancy: Occupancy = None
    """Occupancy of the building."""
    construction: Construction = None
    """ISO construction class."""
    year_built: Year = None
    """Year built."""
    stories: Count = None
    """Stories above grade."""
    square_feet: Count = None
    """Total floor area in square feet."""
    sprinklered_percent: Percent = None
    """Sprinklered share of the floor area in percent."""
    protection_class: Count = None
    """ISO public protection class."""
    building_limit: Money = None
    """Building limit in dollars (0 for a tenant)."""
    bpp_limit: Money = None
    """Business personal property limit in dollars."""
    rate: Number = None
    """Property rate per $100 of limit."""
    premium: Money = None
    """Property premium of the building in dollars."""


class OptionalCoverage(DocModel):
    """An optional coverage of the program."""

    record_key = ("coverage",)

    coverage: Str = None
    """Name of the coverage."""
    limit: Money = None
    """Limit in dollars."""
    deductible: Money = None
    """Deductible in dollars; empty when none applies."""
    premium: Money = None
    """Premium in dollars."""


class Mortgagee(DocModel):
    """A mortgagee of a listed building."""

    record_key = ("location_number", "building_number")

    name: Str = None
    """Name of the mortgagee."""
    location_number: Count = None
    """Location number of the building."""
    building_number: Count = None
    """Building number of the building."""
    loan_number: Id = None
    """Loan number."""


class GeneralInformation(DocModel):
    """Answers to the businessowners questions."""

    hazardous_materials: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any hazardous materials stored on premises?"""
    certificates: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are certificates of insurance obtained from subcontractors?"""
    other_business: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Does the applicant operate any other business?"""
    relabeling: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Does the applicant manufacture, relabel or repackage products of others?"""
    equipment_rental: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is equipment rented or loaned to others?"""
    late_hours: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any operations after 9 p.m. or 24 hours a day?"""


class BusinessownersSection(DocModel):
    """An ACORD 160-style businessowners section (an alternative quote for the same
    premises)."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block (the policy number is the BOP quote number)."""
    policy: PolicyTerms = Field(default_factory=PolicyTerms)
    """Policy form and property deductible."""
    liability: LiabilityLimits = Field(default_factory=LiabilityLimits)
    """Business liability limits."""
    premiums: Premiums = Field(default_factory=Premiums)
    """Indicated premium."""
    premises_count: Count = None
    """Total number of buildings in the program, listed here or not."""
    premises: list[BopPremises] = Field(default_factory=list)
    """Buildings of the program in schedule order (the rest are on the statement of
    values)."""
    optional_coverages: list[OptionalCoverage] = Field(default_factory=list)
    """Optional coverages requested."""
    mortgagees: list[Mortgagee] = Field(default_factory=list)
    """Mortgagees of the listed buildings."""
    general_information: GeneralInformation = Field(default_factory=GeneralInformation)
    """Underwriting questions and answers."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
