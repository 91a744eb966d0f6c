"""The broker's account workbook: one sheet each for the account, locations, vehicles,
drivers, loss summary and contacts, consistent with the packet's other documents."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, Date, DocModel, Id, Money, Str, Year
from packetbench.generator.doctypes.common import Address, LossLine, State


class Account(DocModel):
    """The account sheet: who the insured is and the proposed term."""

    insured_name: Str = None
    """Named insured."""
    fein: Id = None
    """Federal employer identification number."""
    mailing_address: Address = Field(default_factory=Address)
    """Mailing address of the insured."""
    agency_name: Str = None
    """Broker (agency) that keeps the workbook."""
    account_manager: Str = None
    """The agency's account manager for the insured."""
    effective_date: Date = None
    """Proposed effective date."""
    expiration_date: Date = None
    """Proposed expiration date."""


class WorkbookLocation(DocModel):
    """One location, its buildings' values summed."""

    record_key = ("location_number",)

    location_number: Count = None
    """Location number."""
    address: Address = Field(default_factory=Address)
    """Location address."""
    buildings: Count = None
    """Number of buildings at the location."""
    building_value: Money = None
    """Sum of the buildings' building values, in dollars."""
    contents_value: Money = None
    """Sum of the buildings' contents values, in dollars."""
    business_income_value: Money = None
    """Sum of the buildings' business income values, in dollars."""
    tiv: Money = None
    """Total insured value of the location, in dollars."""


class WorkbookVehicle(DocModel):
    """One vehicle."""

    record_key = ("vin",)

    unit_number: Count = None
    """Unit (vehicle) number."""
    year: Year = None
    """Model year."""
    make: Str = None
    """Make."""
    model: Str = None
    """Model."""
    vin: Id = None
    """Vehicle identification number."""
    garage_location: Count = None
    """Location number where the vehicle is garaged."""
    cost_new: Money = None
    """Cost new, in dollars."""
    stated_amount: Money = None
    """Stated amount, in dollars."""


class WorkbookDriver(DocModel):
    """One driver."""

    record_key = ("license_number",)

    driver_number: Count = None
    """Driver number."""
    name: Str = None
    """Driver's first and last name."""
    birth_date: Date = None
    """Date of birth."""
    license_number: Id = None
    """Licence number."""
    license_state: State = None
    """Licence state."""
    unit_number: Count = None
    """Unit principally driven; null when none."""


class LossSummaryRow(DocModel):
    """One policy term of one line: its claims summed."""

    record_key = ("policy_number",)

    line: LossLine = None
    """Line of business."""
    carrier: Str = None
    """Carrier of the term."""
    policy_number: Id = None
    """Policy number of the term."""
    effective_date: Date = None
    """Term effective date."""
    claim_count: Count = None
    """Number of claims reported in the term."""
    incurred: Money = None
    """Total incurred of the term's claims, in dollars."""


class ContactRow(DocModel):
    """One contact of the account."""

    record_key = ("name",)

    role: Str = None
    """Role of the contact (insured's accounting, claims...; agency producer, preparer)."""
    name: Str = None
    """Contact name."""
    phone: Str = None
    """Phone number."""
    email: Str = None
    """Email address."""


class WorkbookTotals(DocModel):
    """Totals written under the sheets' tables."""

    location_count: Count = None
    """Number of locations."""
    total_tiv: Money = None
    """Total insured value of all locations, in dollars."""
    vehicle_count: Count = None
    """Number of vehicles; null when the workbook has no vehicles sheet."""
    driver_count: Count = None
    """Number of drivers; null when the workbook has no drivers sheet."""
    claim_count: Count = None
    """Number of claims over the loss summary."""
    total_incurred: Money = None
    """Total incurred over the loss summary, in dollars."""


class BrokerWorkbook(DocModel):
    """A broker's multi-sheet account workbook."""

    account: Account = Field(default_factory=Account)
    """The account sheet."""
    locations: list[WorkbookLocation] = Field(default_factory=list)
    """Every location (Locations sheet)."""
    vehicles: list[WorkbookVehicle] = Field(default_factory=list)
    """Every vehicle (Vehicles sheet; empty without an auto line)."""
    drivers: list[WorkbookDriver] = Field(default_factory=list)
    """Every driver (Drivers sheet; empty without an auto line)."""
    losses: list[LossSummaryRow] = Field(default_factory=list)
    """Loss summary by policy term, most recent first."""
    contacts: list[ContactRow] = Field(default_factory=list)
    """Contacts of the insured and the agency."""
    totals: WorkbookTotals = Field(default_factory=WorkbookTotals)
    """Totals of the sheets."""
