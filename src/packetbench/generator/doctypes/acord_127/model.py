"""The PB-127 business auto section: drivers, vehicles with their coverages, questions.

The form holds the first DRIVER_ROWS drivers and VEHICLE_ROWS vehicles, as a printed form
does; the rest are on the attached driver schedule and vehicle schedule (PB-129).
"""

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
    Percent,
    Str,
    Year,
)
from packetbench.generator.doctypes.common import (
    Address,
    Gender,
    MaritalStatus,
    QuestionAnswer,
    SectionHeader,
    State,
)

DRIVER_ROWS = 13
VEHICLE_ROWS = 4

SizeClass = Annotated[str | None, Leaf("enum", codes=codes.VEHICLE_SIZE_CLASS)]
VehicleUse = Annotated[str | None, Leaf("enum", codes=codes.VEHICLE_USE)]
Radius = Annotated[str | None, Leaf("enum", codes=codes.RADIUS_CLASS)]
Ownership = Annotated[str | None, Leaf("enum", codes=codes.VEHICLE_OWNERSHIP)]


class AutoDriver(DocModel):
    """One driver row."""

    record_key = ("license_number",)

    driver_number: Count = None
    """Driver number."""
    first_name: Str = None
    """Given name."""
    middle_initial: Str = None
    """Middle initial."""
    last_name: Str = None
    """Surname."""
    birth_date: Date = None
    """Date of birth."""
    gender: Gender = None
    """Gender."""
    marital_status: MaritalStatus = None
    """Marital status."""
    license_number: Id = None
    """Driver's licence number."""
    license_state: State = None
    """State that issued the licence."""
    year_licensed: Year = None
    """Year first licensed."""
    hire_date: Date = None
    """Date hired."""
    vehicle_number: Count = None
    """Number of the vehicle principally driven; empty when none is assigned."""
    percent_use: Percent = None
    """Share of that vehicle's use by this driver, in percent."""


class VehicleCoverages(DocModel):
    """The coverages of one vehicle: a box per coverage, and its deductibles."""

    liability: Checkbox = None
    """Liability coverage."""
    medical_payments: Checkbox = None
    """Medical payments coverage."""
    uninsured_motorists: Checkbox = None
    """Uninsured motorists coverage."""
    underinsured_motorists: Checkbox = None
    """Underinsured motorists coverage."""
    comprehensive: Checkbox = None
    """Comprehensive (physical damage) coverage."""
    collision: Checkbox = None
    """Collision (physical damage) coverage."""
    towing: Checkbox = None
    """Towing and labor coverage."""
    rental_reimbursement: Checkbox = None
    """Rental reimbursement coverage."""
    comprehensive_deductible: Money = None
    """Comprehensive deductible in dollars; empty without comprehensive."""
    collision_deductible: Money = None
    """Collision deductible in dollars; empty without collision."""


class AutoVehicle(DocModel):
    """One vehicle of the section."""

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
    garaging: Address = Field(default_factory=Address)
    """Address where the vehicle is garaged."""
    registration_state: State = None
    """State of registration."""
    territory: Id = None
    """Rating territory."""
    size_class: SizeClass = None
    """ISO size class."""
    use: VehicleUse = None
    """Business use class."""
    radius: Radius = None
    """Radius class of operation."""
    class_code: Id = None
    """Five-digit primary rating class code."""
    ownership: Ownership = None
    """Whether the vehicle is owned, financed or leased."""
    coverages: VehicleCoverages = Field(default_factory=VehicleCoverages)
    """Coverages and deductibles of the vehicle."""
    premium: Money = None
    """Annual premium of the vehicle in dollars."""


class GeneralInformation(DocModel):
    """Answers to the auto underwriting questions."""

    non_owned_registration: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are any vehicles not owned by or registered to the applicant?"""
    maintenance_program: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there a formal vehicle maintenance program?"""
    leased_to_others: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are any vehicles leased to others?"""
    hazardous_cargo: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are hazardous materials transported?"""
    mvr_checks: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are motor vehicle records obtained for every driver?"""
    family_use: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Do family members use company vehicles?"""
    telematics: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are vehicles fitted with electronic monitoring or telematics?"""


class BusinessAutoSection(DocModel):
    """An ACORD 127-style business auto section."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    drivers: list[AutoDriver] = Field(default_factory=list)
    """Driver rows (the first thirteen drivers; the rest are on the driver schedule)."""
    driver_count: Count = None
    """Total number of drivers, listed here or not."""
    vehicles: list[AutoVehicle] = Field(default_factory=list)
    """Vehicle blocks (the first four vehicles; the rest are on the vehicle schedule)."""
    vehicle_count: Count = None
    """Total number of vehicles, listed here or not."""
    general_information: GeneralInformation = Field(default_factory=GeneralInformation)
    """Underwriting questions and answers."""
