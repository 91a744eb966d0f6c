"""The statement of values: one row per building, values by subject, and grand totals."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, Date, DocModel, Money, Percent, Str, Year
from packetbench.generator.doctypes.common import Address, Construction, Occupancy


class SovBuilding(DocModel):
    """One building on the schedule."""

    record_key = ("location_number", "building_number")

    location_number: Count = None
    """Location number of the premises."""
    building_number: Count = None
    """Building number within the location."""
    address: Address = Field(default_factory=Address)
    """Street address of the building."""
    occupancy: Occupancy = None
    """Occupancy of the building."""
    construction: Construction = None
    """ISO construction class."""
    year_built: Year = None
    """Year the building was built."""
    stories: Count = None
    """Number of stories above grade."""
    square_feet: Count = None
    """Total floor area in square feet."""
    sprinklered_percent: Percent = None
    """Share of the floor area protected by automatic sprinklers, in percent (0-100)."""
    protection_class: Count = None
    """ISO public protection class (1-10)."""
    building_value: Money = None
    """Building replacement value in dollars."""
    contents_value: Money = None
    """Contents / business personal property value in dollars."""
    business_income_value: Money = None
    """Business income and extra expense value in dollars."""
    tiv: Money = None
    """Total insured value of the row in dollars (building + contents + business income)."""


class SovTotals(DocModel):
    """The grand-total row of the schedule."""

    building_value: Money = None
    """Sum of building values in dollars."""
    contents_value: Money = None
    """Sum of contents values in dollars."""
    business_income_value: Money = None
    """Sum of business income values in dollars."""
    tiv: Money = None
    """Sum of total insured values in dollars."""


class StatementOfValues(DocModel):
    """A statement (schedule) of values for a commercial property submission."""

    insured_name: Str = None
    """Named insured the schedule is for."""
    prepared_by: Str = None
    """Agency that prepared the schedule."""
    as_of_date: Date = None
    """Date the values are stated as of."""
    buildings: list[SovBuilding] = Field(default_factory=list)
    """Every building on the schedule, in schedule order."""
    totals: SovTotals = Field(default_factory=SovTotals)
    """Grand totals of the value columns."""
