"""The PB-140 property section: policy identification and one section per premises."""

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
    BurglarAlarm,
    CausesOfLoss,
    Construction,
    FireAlarm,
    RoofCovering,
    SprinklerType,
    Subject,
    Valuation,
)

# Enum leaves of this form only.
DeductibleType = Annotated[str | None, Leaf("enum", codes=codes.DEDUCTIBLE_TYPE)]
WindClass = Annotated[str | None, Leaf("enum", codes=codes.WIND_CLASS)]


class PolicyHeader(DocModel):
    """The identification block at the top of the form."""

    agency_name: Str = None
    """Producing agency (broker) that submitted the form."""
    carrier_name: Str = None
    """Insurance company the property section is submitted to."""
    naic_code: Id = None
    """NAIC company code of the carrier."""
    policy_number: Id = None
    """Policy or quote number the section belongs to."""
    effective_date: Date = None
    """Proposed policy effective date."""
    named_insured: Str = None
    """First named insured."""


class SubjectOfInsurance(DocModel):
    """One coverage row of a premises: what is insured, for how much, on which terms."""

    record_key = ("subject",)

    subject: Subject = None
    """Subject of insurance (building, business personal property, business income...)."""
    limit: Money = None
    """Limit of insurance for this subject in dollars."""
    coinsurance_percent: Percent = None
    """Coinsurance percentage (e.g. 80, 90, 100)."""
    valuation: Valuation = None
    """Valuation basis (replacement cost, actual cash value, agreed amount...)."""
    causes_of_loss: CausesOfLoss = None
    """Causes-of-loss form (basic, broad, special...)."""
    deductible: Money = None
    """Deductible amount in dollars."""
    deductible_type: DeductibleType = None
    """How the deductible is expressed (flat dollar, percentage, waiting period)."""


class ConstructionDetails(DocModel):
    """Construction and size of the building."""

    construction: Construction = None
    """ISO construction class of the building."""
    stories: Count = None
    """Number of stories above grade."""
    basements: Count = None
    """Number of basement levels."""
    year_built: Year = None
    """Year the building was built."""
    floor_area: Count = None
    """Total floor area in square feet."""
    roof_covering: RoofCovering = None
    """Roof covering material."""
    wind_class: WindClass = None
    """Wind resistance class of the building."""


class Improvements(DocModel):
    """Years in which building systems were last updated."""

    wiring_year: Year = None
    """Year the electrical wiring was last updated."""
    roofing_year: Year = None
    """Year the roof was last replaced."""
    plumbing_year: Year = None
    """Year the plumbing was last updated."""
    heating_year: Year = None
    """Year the heating system was last updated."""


class FireProtection(DocModel):
    """Public and private fire protection of the building."""

    protection_class: Count = None
    """ISO public protection class (1-10)."""
    hydrant_feet: Count = None
    """Distance to the nearest fire hydrant in feet."""
    station_miles: Number = None
    """Distance to the responding fire station in miles."""
    sprinklered_percent: Percent = None
    """Share of the floor area protected by automatic sprinklers, in percent (0-100)."""
    sprinkler_type: SprinklerType = None
    """Type of automatic sprinkler system ("None" when unsprinklered)."""
    fire_alarm: FireAlarm = None
    """Type of fire alarm ("None" when there is none)."""


class Interest(DocModel):
    """The applicant's interest in the building."""

    owner: Checkbox = None
    """Ticked when the applicant owns the building."""
    tenant: Checkbox = None
    """Ticked when the applicant is a tenant of the building."""


class AdditionalInterest(DocModel):
    """A lender holding an interest in the building."""

    mortgagee_name: Str = None
    """Name of the mortgagee; null when the building carries no mortgage."""
    loan_number: Id = None
    """Mortgagee's loan number; null when the building carries no mortgage."""


class Premises(DocModel):
    """One building described on the property section."""

    record_key = ("premises_number", "building_number")

    premises_number: Count = None
    """Premises (location) number, as on the statement of values."""
    building_number: Count = None
    """Building number within the premises."""
    address: Address = Field(default_factory=Address)
    """Street address of the building."""
    building_description: Text = None
    """Short description of the building."""
    subjects: list[SubjectOfInsurance] = Field(default_factory=list)
    """Coverage rows for the building; only subjects with a limit are listed."""
    construction: ConstructionDetails = Field(default_factory=ConstructionDetails)
    """Construction, size and roof of the building."""
    improvements: Improvements = Field(default_factory=Improvements)
    """Years of the latest building-system updates."""
    fire_protection: FireProtection = Field(default_factory=FireProtection)
    """Fire protection of the building."""
    burglar_alarm: BurglarAlarm = None
    """Type of burglar alarm ("None" when there is none)."""
    interest: Interest = Field(default_factory=Interest)
    """The applicant's interest (owner or tenant)."""
    additional_interest: AdditionalInterest = Field(default_factory=AdditionalInterest)
    """Mortgagee of the building, if any."""


class PropertySection(DocModel):
    """An ACORD 140-style commercial property section for a submission."""

    header: PolicyHeader = Field(default_factory=PolicyHeader)
    """Policy identification block."""
    premises: list[Premises] = Field(default_factory=list)
    """Every premises described on the form, in schedule order."""
