"""The PB-131 umbrella / excess section: the umbrella's terms, the schedule of underlying
insurance, locations, fleet and underwriting questions."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Checkbox, Count, Date, DocModel, Id, Money, Str
from packetbench.generator.doctypes.common import Address, QuestionAnswer, SectionHeader, Signature

LOCATION_ROWS = 6


class UmbrellaTerms(DocModel):
    """The umbrella or excess policy requested."""

    umbrella: Checkbox = None
    """Ticked for an umbrella policy."""
    excess: Checkbox = None
    """Ticked for a follow-form excess policy."""
    occurrence: Checkbox = None
    """Ticked for occurrence coverage."""
    claims_made: Checkbox = None
    """Ticked for claims-made coverage."""
    each_occurrence: Money = None
    """Each occurrence limit in dollars."""
    aggregate: Money = None
    """Aggregate limit in dollars."""
    retention: Money = None
    """Self-insured retention in dollars (0 for an excess policy)."""
    first_dollar_defense: Checkbox = None
    """Ticked when defense is provided from the first dollar."""
    premium: Money = None
    """Umbrella premium in dollars."""


class UnderlyingGl(DocModel):
    """The underlying general liability policy."""

    carrier: Str = None
    """Insurer of the underlying policy."""
    policy_number: Id = None
    """Policy number."""
    effective_date: Date = None
    """Effective date."""
    expiration_date: Date = None
    """Expiration date."""
    each_occurrence: Money = None
    """Each occurrence limit in dollars."""
    general_aggregate: Money = None
    """General aggregate limit in dollars."""
    products_aggregate: Money = None
    """Products-completed operations aggregate in dollars."""
    personal_advertising: Money = None
    """Personal and advertising injury limit in dollars."""
    premium: Money = None
    """Premium of the underlying policy in dollars."""


class UnderlyingAuto(DocModel):
    """The underlying auto liability policy; empty when there is none."""

    carrier: Str = None
    """Insurer of the underlying policy."""
    policy_number: Id = None
    """Policy number."""
    effective_date: Date = None
    """Effective date."""
    expiration_date: Date = None
    """Expiration date."""
    combined_single_limit: Money = None
    """Combined single limit (each accident) in dollars."""
    premium: Money = None
    """Premium of the underlying policy in dollars."""


class UnderlyingEl(DocModel):
    """The underlying employers liability (workers compensation) policy; empty when none."""

    carrier: Str = None
    """Insurer of the underlying policy."""
    policy_number: Id = None
    """Policy number."""
    effective_date: Date = None
    """Effective date."""
    expiration_date: Date = None
    """Expiration date."""
    each_accident: Money = None
    """Each accident limit in dollars."""
    disease_policy_limit: Money = None
    """Disease policy limit in dollars."""
    disease_each_employee: Money = None
    """Disease each employee limit in dollars."""
    premium: Money = None
    """Premium of the underlying policy in dollars."""


class UmbrellaLocation(DocModel):
    """One location and its exposures."""

    record_key = ("location_number",)

    location_number: Count = None
    """Location number."""
    address: Address = Field(default_factory=Address)
    """Street address."""
    employees: Count = None
    """Number of employees (full and part time)."""
    annual_payroll: Money = None
    """Annual payroll in dollars."""
    annual_revenue: Money = None
    """Annual gross sales or receipts in dollars."""


class Fleet(DocModel):
    """Owned vehicles by size class."""

    light_trucks: Count = None
    """Light trucks (GVW up to 10,000 lb)."""
    medium_trucks: Count = None
    """Medium trucks (10,001-20,000 lb)."""
    heavy_trucks: Count = None
    """Heavy trucks (20,001-45,000 lb)."""
    extra_heavy_trucks: Count = None
    """Extra-heavy trucks (over 45,000 lb)."""
    truck_tractors: Count = None
    """Truck-tractors."""


class GeneralInformation(DocModel):
    """Answers to the umbrella underwriting questions."""

    excluded_exposures: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are any exposures excluded, uninsured or self-insured in the underlying policies?"""
    aircraft: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Does the applicant own, lease or charter aircraft?"""
    hired_non_owned: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is hired and non-owned auto liability provided by the underlying policy?"""
    cranes: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are cranes or heavy lifting equipment used?"""
    foreign_operations: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any foreign operations?"""
    product_losses: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Any product liability losses in the last five years?"""


class UmbrellaSection(DocModel):
    """An ACORD 131-style umbrella / excess section."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    terms: UmbrellaTerms = Field(default_factory=UmbrellaTerms)
    """The umbrella or excess policy requested."""
    underlying_gl: UnderlyingGl = Field(default_factory=UnderlyingGl)
    """Underlying general liability."""
    underlying_auto: UnderlyingAuto = Field(default_factory=UnderlyingAuto)
    """Underlying auto liability."""
    underlying_el: UnderlyingEl = Field(default_factory=UnderlyingEl)
    """Underlying employers liability."""
    location_count: Count = None
    """Total number of locations, listed here or not."""
    locations: list[UmbrellaLocation] = Field(default_factory=list)
    """The first six locations and their exposures."""
    fleet: Fleet = Field(default_factory=Fleet)
    """Owned vehicles by size class."""
    general_information: GeneralInformation = Field(default_factory=GeneralInformation)
    """Underwriting questions and answers."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
