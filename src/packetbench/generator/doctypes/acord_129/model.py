"""The PB-129 vehicle schedule: every vehicle of the fleet with its rating and coverage."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, DocModel, Id, Money, Str, Year
from packetbench.generator.doctypes.acord_127.model import Ownership, Radius, SizeClass, VehicleUse
from packetbench.generator.doctypes.common import SectionHeader, State


class ScheduledVehicle(DocModel):
    """One row of the vehicle schedule."""

    record_key = ("vin",)

    vehicle_number: Count = None
    """Vehicle number."""
    year: Year = None
    """Model year."""
    make: Str = None
    """Make."""
    model: Str = None
    """Model."""
    body_type: Str = None
    """Body type."""
    vin: Id = None
    """Vehicle identification number (17 characters)."""
    gvw: Count = None
    """Gross vehicle weight (or gross combination weight of a tractor) in pounds."""
    cost_new: Money = None
    """Cost new in dollars."""
    garage_location: Count = None
    """Location number (as on the application) where the vehicle is garaged."""
    garage_state: State = None
    """State of the garaging location."""
    territory: Id = None
    """Rating territory."""
    class_code: Id = None
    """Five-digit primary rating class code."""
    size_class: SizeClass = None
    """ISO size class."""
    use: VehicleUse = None
    """Business use class."""
    radius: Radius = None
    """Radius class of operation."""
    ownership: Ownership = None
    """Whether the vehicle is owned, financed or leased."""
    comprehensive_deductible: Money = None
    """Comprehensive deductible in dollars; empty without physical-damage coverage."""
    collision_deductible: Money = None
    """Collision deductible in dollars; empty without physical-damage coverage."""
    liability_premium: Money = None
    """Liability premium of the vehicle in dollars."""
    physical_damage_premium: Money = None
    """Physical-damage premium of the vehicle in dollars (0 without the coverage)."""
    premium: Money = None
    """Premium of the vehicle in dollars (liability plus physical damage)."""


class ScheduleTotals(DocModel):
    """The closing total row of the schedule."""

    liability_premium: Money = None
    """Sum of the liability premiums in dollars."""
    physical_damage_premium: Money = None
    """Sum of the physical-damage premiums in dollars."""
    total_premium: Money = None
    """Sum of the vehicle premiums in dollars (liability plus physical damage)."""


class VehicleSchedule(DocModel):
    """An ACORD 129-style vehicle schedule attached to the business auto section."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    vehicle_count: Count = None
    """Number of vehicles on the schedule."""
    vehicles: list[ScheduledVehicle] = Field(default_factory=list)
    """Every vehicle, in vehicle-number order."""
    totals: ScheduleTotals = Field(default_factory=ScheduleTotals)
    """Premium totals of the schedule."""
