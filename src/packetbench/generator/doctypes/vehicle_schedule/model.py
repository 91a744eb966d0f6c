"""The broker's vehicle schedule: every vehicle with its garaging address, values, operation,
deductibles, lienholder and principal driver, and the schedule's totals."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, Date, DocModel, Id, Money, Str, Year
from packetbench.generator.doctypes.acord_127.model import Ownership, Radius, SizeClass, VehicleUse
from packetbench.generator.doctypes.common import Address


class ScheduledUnit(DocModel):
    """One vehicle of the schedule."""

    record_key = ("vin",)

    unit_number: Count = None
    """Unit (vehicle) number on the schedule."""
    year: Year = None
    """Model year."""
    make: Str = None
    """Make."""
    model: Str = None
    """Model."""
    body_type: Str = None
    """Body type (pickup, cargo van, box truck, straight truck, tractor)."""
    vin: Id = None
    """Vehicle identification number (17 characters)."""
    gvw: Count = None
    """Gross vehicle weight (gross combination weight of a tractor) in pounds."""
    size_class: SizeClass = None
    """ISO size class."""
    garaging: Address = Field(default_factory=Address)
    """Address where the vehicle is garaged."""
    cost_new: Money = None
    """Cost new in dollars."""
    stated_amount: Money = None
    """Stated amount (value insured for physical damage) in dollars."""
    use: VehicleUse = None
    """Business use class."""
    radius: Radius = None
    """Radius class of operation."""
    ownership: Ownership = None
    """Whether the vehicle is owned, financed or leased."""
    lienholder: Str = None
    """Lienholder or lessor of a financed or leased vehicle; null when owned outright."""
    comprehensive_deductible: Money = None
    """Comprehensive deductible in dollars; null without physical-damage coverage."""
    collision_deductible: Money = None
    """Collision deductible in dollars; null without physical-damage coverage."""
    principal_driver: Str = None
    """Name of the driver principally assigned to the vehicle; null when none."""


class UnitTotals(DocModel):
    """The closing totals of the schedule."""

    vehicle_count: Count = None
    """Number of vehicles on the schedule."""
    cost_new: Money = None
    """Sum of the vehicles' cost new in dollars."""
    stated_amount: Money = None
    """Sum of the vehicles' stated amounts in dollars."""


class VehicleSchedule(DocModel):
    """A broker's schedule of the insured's vehicles, attached to an auto submission."""

    insured_name: Str = None
    """Named insured the schedule is for."""
    agency_name: Str = None
    """Agency (broker) that prepared the schedule."""
    prepared_by: Str = None
    """Name of the agency's person who prepared the schedule."""
    policy_effective_date: Date = None
    """Effective date of the proposed auto policy."""
    as_of_date: Date = None
    """Date the schedule is stated as of."""
    units: list[ScheduledUnit] = Field(default_factory=list)
    """Every vehicle, in unit-number order."""
    totals: UnitTotals = Field(default_factory=UnitTotals)
    """Count and value totals of the schedule."""
