"""The expiring policy's declarations: who is insured, by whom, for what, at what premium."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, Date, DocModel, Id, Money, Percent, Str
from packetbench.generator.doctypes.common import (
    Address,
    CausesOfLoss,
    Construction,
    EntityType,
    LossLine,
    Occupancy,
    Subject,
    Valuation,
)


class PolicyInfo(DocModel):
    """Item 1 and 2 of the declarations: the policy and its period."""

    policy_number: Id = None
    """Policy number of the declarations (the first coverage part's)."""
    carrier_name: Str = None
    """Insurance company that issued the policy."""
    naic_code: Id = None
    """NAIC company code of the issuing company."""
    effective_date: Date = None
    """Policy period from (12:01 a.m. standard time at the mailing address)."""
    expiration_date: Date = None
    """Policy period to."""
    issued_date: Date = None
    """Date the declarations were issued."""


class NamedInsured(DocModel):
    """The first named insured and its mailing address."""

    name: Str = None
    """First named insured."""
    dba: Str = None
    """Trade name (doing business as); null when the declarations show none."""
    entity_type: EntityType = None
    """Legal form of the named insured."""
    mailing_address: Address = Field(default_factory=Address)
    """Mailing address of the named insured."""


class Producer(DocModel):
    """The producer of record."""

    agency_name: Str = None
    """Producing agency."""
    agency_code: Id = None
    """The carrier's code for the agency."""
    address: Address = Field(default_factory=Address)
    """Address of the agency."""


class CoveragePart(DocModel):
    """One coverage part forming the policy, with its premium."""

    record_key = ("line",)

    line: LossLine = None
    """Coverage part (line of business)."""
    policy_number: Id = None
    """Policy number of the coverage part."""
    premium: Money = None
    """Premium of the coverage part for the policy period."""


class PremiumSummary(DocModel):
    """What the insured pays for the policy period."""

    coverage_premium: Money = None
    """Premium of all coverage parts together."""
    taxes_and_fees: Money = None
    """State taxes, surcharges and the policy fee."""
    amount_due: Money = None
    """Premium plus taxes and fees."""


class Premises(DocModel):
    """A building described on the property coverage part."""

    record_key = ("premises_number", "building_number")

    premises_number: Count = None
    """Premises (location) number."""
    building_number: Count = None
    """Building number within the premises."""
    address: Address = Field(default_factory=Address)
    """Address of the building."""
    occupancy: Occupancy = None
    """Occupancy of the building."""
    construction: Construction = None
    """ISO construction class of the building."""


class PropertyCoverage(DocModel):
    """One coverage of one building on the property coverage part."""

    record_key = ("premises_number", "building_number", "coverage")

    premises_number: Count = None
    """Premises number the coverage applies to."""
    building_number: Count = None
    """Building number the coverage applies to."""
    coverage: Subject = None
    """Coverage (building, business personal property, business income)."""
    limit: Money = None
    """Limit of insurance in dollars."""
    coinsurance_percent: Percent = None
    """Coinsurance percentage."""
    valuation: Valuation = None
    """Valuation basis."""
    causes_of_loss: CausesOfLoss = None
    """Causes-of-loss form."""
    deductible: Money = None
    """Deductible in dollars."""


class PropertyPart(DocModel):
    """The property coverage part's schedule; null when the policy has no property part."""

    premises_count: Count = None
    """Buildings insured under the part, all premises."""
    building_limit: Money = None
    """Building limits of all premises together."""
    contents_limit: Money = None
    """Business personal property limits of all premises together."""
    business_income_limit: Money = None
    """Business income limits of all premises together."""
    premises: list[Premises] = Field(default_factory=list)
    """The buildings the declarations describe (the first ones of the schedule)."""
    coverages: list[PropertyCoverage] = Field(default_factory=list)
    """The coverages of those buildings."""


class LiabilityPart(DocModel):
    """The general liability limits; null when the policy has no general liability part."""

    each_occurrence: Money = None
    """Each occurrence limit."""
    general_aggregate: Money = None
    """General aggregate limit."""
    products_aggregate: Money = None
    """Products-completed operations aggregate limit."""
    personal_advertising: Money = None
    """Personal and advertising injury limit."""
    damage_to_premises: Money = None
    """Damage to premises rented to you limit."""
    medical_expense: Money = None
    """Medical expense limit (any one person)."""


class AutoPart(DocModel):
    """The business auto limits; null when the policy has no auto part."""

    combined_single_limit: Money = None
    """Liability combined single limit."""
    medical_payments_limit: Money = None
    """Auto medical payments limit per person; null when not covered."""
    vehicle_count: Count = None
    """Number of covered autos scheduled."""


class WorkersCompPart(DocModel):
    """The employers liability limits; null when the policy has no workers compensation."""

    each_accident: Money = None
    """Bodily injury by accident, each accident."""
    disease_policy_limit: Money = None
    """Bodily injury by disease, policy limit."""
    disease_each_employee: Money = None
    """Bodily injury by disease, each employee."""


class CargoPart(DocModel):
    """The motor truck cargo limits; null when the policy has no cargo part."""

    limit_per_vehicle: Money = None
    """Limit any one vehicle."""
    limit_per_occurrence: Money = None
    """Limit any one occurrence."""
    deductible: Money = None
    """Deductible per occurrence."""


class FormEntry(DocModel):
    """One form or endorsement of the schedule of forms."""

    record_key = ("line", "form_number")

    line: LossLine = None
    """Coverage part the form belongs to."""
    form_number: Id = None
    """Form number."""
    edition: Str = None
    """Edition date (MM YY) or edition letter; null when none is printed."""
    title: Str = None
    """Title of the form."""


class DeclarationsPage(DocModel):
    """Declarations of the insured's expiring (current) commercial policy."""

    policy: PolicyInfo = Field(default_factory=PolicyInfo)
    """Policy number, issuing company and policy period."""
    named_insured: NamedInsured = Field(default_factory=NamedInsured)
    """The first named insured."""
    producer: Producer = Field(default_factory=Producer)
    """The producer of record."""
    coverage_parts: list[CoveragePart] = Field(default_factory=list)
    """The coverage parts forming the policy."""
    premium: PremiumSummary = Field(default_factory=PremiumSummary)
    """Premium, taxes and fees, amount due."""
    property_part: PropertyPart = Field(default_factory=PropertyPart)
    """Property schedule (all null when the policy has no property part)."""
    liability_part: LiabilityPart = Field(default_factory=LiabilityPart)
    """General liability limits (all null without that part)."""
    auto_part: AutoPart = Field(default_factory=AutoPart)
    """Business auto limits (all null without that part)."""
    workers_comp_part: WorkersCompPart = Field(default_factory=WorkersCompPart)
    """Employers liability limits (all null without that part)."""
    cargo_part: CargoPart = Field(default_factory=CargoPart)
    """Motor truck cargo limits (all null without that part)."""
    forms: list[FormEntry] = Field(default_factory=list)
    """Schedule of forms and endorsements, by coverage part."""
    countersigned_by: Str = None
    """Authorized representative who countersigned the declarations."""
