"""The PB-823 additional premises schedule: the premises the application's four rows could
not hold, with the same columns."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import Count, DocModel, Leaf, Money, Str, Text
from packetbench.generator.doctypes.common import Address, SectionHeader

InsuredInterest = Annotated[str | None, Leaf("enum", codes=codes.INSURED_INTEREST)]


class AdditionalPremises(DocModel):
    """One premises row (the first building at a location)."""

    record_key = ("location_number", "building_number")

    location_number: Count = None
    """Location number."""
    building_number: Count = None
    """Building number of the first building at the location."""
    address: Address = Field(default_factory=Address)
    """Street address of the premises."""
    county: Str = None
    """County of the premises."""
    interest: InsuredInterest = None
    """The applicant's interest in the premises (owner or tenant)."""
    full_time_employees: Count = None
    """Full-time employees at the premises."""
    part_time_employees: Count = None
    """Part-time employees at the premises."""
    annual_revenue: Money = None
    """Annual revenue of the premises in dollars."""
    occupied_area: Count = None
    """Area occupied by the applicant in square feet (all buildings at the location)."""
    operations: Text = None
    """Description of the operations at the premises."""


class AdditionalPremisesSchedule(DocModel):
    """An ACORD 823-style additional premises schedule, continuing the application."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    premises_count: Count = None
    """Total number of premises of the applicant, on the application and here."""
    premises: list[AdditionalPremises] = Field(default_factory=list)
    """Premises beyond the application's first four, in location order."""
