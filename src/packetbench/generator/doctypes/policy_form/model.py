"""The expiring policy in full: its declarations, each coverage part's schedule and limits,
the schedules of locations, interests and forms. The printed conditions are boilerplate."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, Date, DocModel, Id, Str
from packetbench.generator.doctypes.common import Address, InterestType
from packetbench.generator.doctypes.dec_page.model import (
    AutoPart,
    CargoPart,
    CoveragePart,
    FormEntry,
    LiabilityPart,
    PremiumSummary,
    PropertyPart,
    WorkersCompPart,
)


class Declarations(DocModel):
    """The policy's identification, as on its jacket and declarations."""

    policy_number: Id = None
    """Policy number (the first coverage part's)."""
    carrier_name: Str = None
    """Insurance company that issued the policy."""
    naic_code: Id = None
    """NAIC company code of the issuing company."""
    effective_date: Date = None
    """Policy period from."""
    expiration_date: Date = None
    """Policy period to."""
    named_insured: Str = None
    """First named insured."""
    mailing_address: Address = Field(default_factory=Address)
    """Mailing address of the named insured."""
    agency_name: Str = None
    """Producer of record."""
    agency_code: Id = None
    """The carrier's code for the producer."""


class ScheduledLocation(DocModel):
    """One location of the schedule of locations."""

    record_key = ("location_number",)

    location_number: Count = None
    """Location number."""
    address: Address = Field(default_factory=Address)
    """Address of the location."""
    building_count: Count = None
    """Buildings insured at the location."""


class ScheduledInterest(DocModel):
    """A mortgageholder or loss payee of the property coverage part."""

    record_key = ("name", "location_number", "building_number")

    interest_type: InterestType = None
    """Kind of interest (mortgagee, loss payee...)."""
    name: Str = None
    """Name of the interest holder."""
    loan_number: Id = None
    """Loan number; null when none is shown."""
    location_number: Count = None
    """Location of the building the interest attaches to."""
    building_number: Count = None
    """Building the interest attaches to."""


class PolicyForm(DocModel):
    """A commercial insurance policy as issued: declarations, schedules and coverage parts."""

    declarations: Declarations = Field(default_factory=Declarations)
    """Policy identification, named insured and producer."""
    coverage_parts: list[CoveragePart] = Field(default_factory=list)
    """The coverage parts forming the policy, with premiums."""
    premium: PremiumSummary = Field(default_factory=PremiumSummary)
    """Premium, taxes and fees, amount due."""
    property_part: PropertyPart = Field(default_factory=PropertyPart)
    """Property coverage part declarations (all null without that part)."""
    liability_part: LiabilityPart = Field(default_factory=LiabilityPart)
    """General liability limits (all null without that part)."""
    auto_part: AutoPart = Field(default_factory=AutoPart)
    """Business auto limits (all null without that part)."""
    workers_comp_part: WorkersCompPart = Field(default_factory=WorkersCompPart)
    """Employers liability limits (all null without that part)."""
    cargo_part: CargoPart = Field(default_factory=CargoPart)
    """Motor truck cargo limits (all null without that part)."""
    location_count: Count = None
    """Number of locations insured."""
    locations: list[ScheduledLocation] = Field(default_factory=list)
    """The schedule of locations (the first ones, when the schedule refers to a list on
    file for the rest)."""
    interests: list[ScheduledInterest] = Field(default_factory=list)
    """Mortgageholders and loss payees of the property coverage part."""
    forms: list[FormEntry] = Field(default_factory=list)
    """Schedule of forms and endorsements."""
