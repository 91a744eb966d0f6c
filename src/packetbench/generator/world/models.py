"""The world model: one fictional insured and everything a broker sends for it.

Documents are projections of this model. Money is carried as float dollars that were built
from integer cents, so sums are exact at cent precision; dates are ISO strings. The terms of
each line of business live in `coverage`, the other parties and the workforce in `parties`.
"""

from __future__ import annotations

from packetbench.generator.world.base import Address as Address
from packetbench.generator.world.base import Answer as Answer
from packetbench.generator.world.base import WorldModel as WorldModel
from packetbench.generator.world.coverage import (
    BusinessAuto,
    Businessowners,
    GeneralLiability,
    MotorTruckCargo,
    Umbrella,
    WorkersComp,
)
from packetbench.generator.world.experience import ExperienceRating
from packetbench.generator.world.expiring import ExpiringPolicy
from packetbench.generator.world.inspection import Inspection
from packetbench.generator.world.narrative import Narrative
from packetbench.generator.world.parties import (
    AdditionalInterest,
    CertificateHolder,
    Endorsement,
    PayrollClass,
    Principal,
)
from packetbench.generator.world.policy import LossHistory, Policy, PolicyLine
from packetbench.generator.world.premises import Building, Location
from packetbench.generator.world.supplements import Supplements


class Contact(WorldModel):
    role: str
    name: str
    phone: str
    email: str


class Insured(WorldModel):
    name: str
    dba: str | None
    entity_type: str
    fein: str
    sic: str
    naics: str
    gl_code: str
    industry: str
    nature_of_business: str
    business_start_date: str
    phone: str
    website: str
    mailing_address: Address
    operations_description: str
    full_time_employees: int
    part_time_employees: int
    annual_revenue: float
    contacts: tuple[Contact, ...]


class Producer(WorldModel):
    agency_name: str
    address: Address
    contact_name: str
    phone: str
    fax: str
    email: str
    agency_code: str
    customer_id: str
    license_number: str
    npn: str


class Carrier(WorldModel):
    name: str
    naic: str
    underwriter: str
    underwriter_office: str


class Preparer(WorldModel):
    name: str
    title: str
    email: str
    phone: str


class Binder(WorldModel):
    """The agent's binder of the new program, issued when it is bound or renewed."""

    number: str
    issued_date: str
    effective_date: str  # the policy's effective date, at 12:01 a.m.
    expiration_date: str  # binders run until the policy issues, here 30 or 60 days
    lines: tuple[str, ...]  # line ids bound


class CancellationRequest(WorldModel):
    """The insured's request that the incumbent not continue the expiring policy of one
    line, replaced by the new program at its effective date."""

    line: str  # line id
    carrier: str
    policy_number: str  # the expiring term's number (as on the loss run)
    term_effective_date: str
    term_expiration_date: str
    cancel_effective_date: str  # the expiration date: nothing is returned
    reason: str  # CANCELLATION_REASON value
    return_premium_method: str  # RETURN_PREMIUM_METHOD value
    request_date: str
    lost_policy_release: bool  # the insured states the policy was lost or destroyed


class Vehicle(WorldModel):
    number: int
    year: int
    make: str
    model: str
    body_type: str
    vin: str
    gvw: int
    cost_new: float
    garage_location: int


class Violation(WorldModel):
    date: str
    description: str
    points: int


class Driver(WorldModel):
    number: int
    first_name: str
    middle_initial: str
    last_name: str
    birth_date: str
    gender: str
    marital_status: str
    license_number: str
    license_state: str
    license_class: str
    endorsements: str
    year_licensed: int
    hire_date: str
    position: str
    years_experience: int
    vehicle_number: int | None
    percent_use: float
    violations: tuple[Violation, ...]
    accidents: int
    points: int
    excluded: bool
    mvr_date: str


class IncomeStatement(WorldModel):
    revenue: float
    cost_of_revenue: float
    gross_profit: float
    salaries_wages: float
    rent: float
    depreciation_amortization: float
    other_operating_expenses: float
    total_operating_expenses: float
    operating_income: float
    interest_expense: float
    other_income: float
    pre_tax_income: float
    income_tax: float
    net_income: float


class BalanceSheet(WorldModel):
    cash: float
    accounts_receivable: float
    inventory: float
    prepaid_expenses: float
    total_current_assets: float
    property_equipment_gross: float
    accumulated_depreciation: float  # negative
    other_assets: float
    total_noncurrent_assets: float
    total_assets: float
    accounts_payable: float
    accrued_liabilities: float
    current_portion_debt: float
    total_current_liabilities: float
    long_term_debt: float
    total_liabilities: float
    common_stock: float
    retained_earnings: float
    total_equity: float
    total_liabilities_and_equity: float


class FiscalYear(WorldModel):
    year_end: str
    income: IncomeStatement
    balance: BalanceSheet


class Financials(WorldModel):
    basis: str  # FINANCIAL_BASIS value
    preparer_firm: str
    report_date: str
    years: tuple[FiscalYear, ...]  # most recent first


class World(WorldModel):
    insured: Insured
    producer: Producer
    carrier: Carrier
    preparer: Preparer
    policy: Policy
    locations: tuple[Location, ...]
    vehicles: tuple[Vehicle, ...]
    drivers: tuple[Driver, ...]
    loss_history: LossHistory
    financials: Financials
    underwriting: tuple[Answer, ...]
    principals: tuple[Principal, ...]
    payroll: tuple[PayrollClass, ...]
    general_liability: GeneralLiability | None
    business_auto: BusinessAuto | None
    workers_comp: WorkersComp | None
    umbrella: Umbrella | None
    cargo: MotorTruckCargo | None
    businessowners: Businessowners | None
    interests: tuple[AdditionalInterest, ...]
    certificate_holders: tuple[CertificateHolder, ...]
    endorsements: tuple[Endorsement, ...]
    binder: Binder | None
    cancellation: CancellationRequest | None
    # Drawn from streams of their own after everything above (added later): the incumbent's
    # expiring policy, the loss-control survey of the property, the broker's cover letter.
    expiring: ExpiringPolicy | None
    inspection: Inspection | None
    narrative: Narrative
    # The WC experience-rating worksheet behind the experience mod (None when not rated).
    experience_rating: ExperienceRating | None = None
    # The broker's stated amount of each vehicle, in vehicle order.
    stated_amounts: tuple[float, ...] = ()
    # Facts of the supplemental applications the class of business calls for.
    supplements: Supplements | None = None

    def buildings(self) -> list[Building]:
        return [b for loc in self.locations for b in loc.buildings]

    def lines(self) -> tuple[str, ...]:
        """The short ids of the lines of business the submission carries, in policy order."""
        return tuple(line.line_id for line in self.policy.lines)

    def carries(self, line_id: str) -> bool:
        return line_id in self.lines()

    def policy_line(self, line_id: str) -> PolicyLine:
        """The policy of one carried line; asking for a line not carried is a bug."""
        for line in self.policy.lines:
            if line.line_id == line_id:
                return line
        raise KeyError(f"the world carries no {line_id!r} line")

    def location(self, number: int) -> Location:
        return self.locations[number - 1]
