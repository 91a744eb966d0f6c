"""The driver schedule: one row per driver with licence, assignment and MVR summary."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import Count, Date, DocModel, Id, Leaf, Percent, Str, Year, YesNo
from packetbench.generator.doctypes.common import Gender, MaritalStatus, State

LicenseClass = Annotated[str | None, Leaf("enum", codes=codes.LICENSE_CLASS)]
DriverPosition = Annotated[str | None, Leaf("enum", codes=codes.DRIVER_POSITION)]


class ScheduledDriver(DocModel):
    """One driver on the schedule."""

    record_key = ("license_number",)

    driver_number: Count = None
    """Driver number on the schedule."""
    first_name: Str = None
    """Driver's first (given) name."""
    middle_initial: Str = None
    """Driver's middle initial, without a period."""
    last_name: Str = None
    """Driver's last (family) name."""
    birth_date: Date = None
    """Driver's date of birth."""
    gender: Gender = None
    """Driver's gender (M = Male, F = Female)."""
    marital_status: MaritalStatus = None
    """Driver's marital status (S single, M married, D divorced, P separated, W widowed, C
    domestic partner)."""
    license_number: Id = None
    """Driver's licence number, exactly as shown."""
    license_state: State = None
    """Two-letter code of the state that issued the driver's licence."""
    license_class: LicenseClass = None
    """Licence class: commercial driver licence class A, B or C, or a regular licence."""
    endorsements: Str = None
    """CDL endorsement codes as shown (e.g. "H, N"); null when the driver has none."""
    year_licensed: Year = None
    """Year the driver was first licensed."""
    hire_date: Date = None
    """Date the driver was hired."""
    position: DriverPosition = None
    """Driver's relationship to the insured (owner, employee, contractor, officer)."""
    years_experience: Count = None
    """Years of driving experience of the kind scheduled."""
    vehicle_number: Count = None
    """Number of the vehicle principally assigned to the driver; null when none."""
    vehicle_description: Str = None
    """Year, make and model of the assigned vehicle (e.g. "2021 Ford F-150"); null when
    none."""
    percent_use: Percent = None
    """Share of the assigned vehicle's use by this driver in percent; null when no vehicle."""
    violation_count: Count = None
    """Number of moving violations on the driver's motor vehicle record."""
    accident_count: Count = None
    """Number of accidents on the driver's motor vehicle record."""
    mvr_points: Count = None
    """Total points on the driver's motor vehicle record."""
    excluded: YesNo = None
    """Whether the driver is excluded from coverage."""
    mvr_date: Date = None
    """Date the motor vehicle record was ordered."""


class DriverSchedule(DocModel):
    """A schedule of the drivers who operate the insured's vehicles."""

    insured_name: Str = None
    """Named insured the schedule is for."""
    agency_name: Str = None
    """Agency (producer) that submitted the schedule."""
    policy_effective_date: Date = None
    """Effective date of the proposed policy."""
    as_of_date: Date = None
    """Date the schedule is stated as of (the application completion date)."""
    drivers: list[ScheduledDriver] = Field(default_factory=list)
    """Every driver on the schedule, in schedule order."""
    driver_count: Count = None
    """Total number of drivers stated on the schedule."""
