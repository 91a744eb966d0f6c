"""The world model: one fictional insured and everything a broker sends for it.

Documents are projections of this model. Money is carried as float dollars that were built
from integer cents, so sums are exact at cent precision; dates are ISO strings.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class WorldModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Address(WorldModel):
    street: str
    city: str
    state: str
    zip: str
    county: str

    def one_line(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip}"


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


class PolicyLine(WorldModel):
    line: str  # LOSS_LINE value
    premium: float


class Policy(WorldModel):
    number: str
    status: str  # TRANSACTION_STATUS value
    effective_date: str
    expiration_date: str
    lines: tuple[PolicyLine, ...]
    payment_plan: str
    billing_method: str
    audit_frequency: str
    deposit: float
    minimum_premium: float
    total_premium: float
    completion_date: str


class Building(WorldModel):
    location_number: int
    building_number: int
    address: Address
    description: str
    occupancy: str
    construction: str
    year_built: int
    stories: int
    basements: int
    square_feet: int
    roof_covering: str
    roof_year: int
    wiring_year: int
    plumbing_year: int
    heating_year: int
    sprinklered_percent: float
    sprinkler_type: str
    fire_alarm: str
    burglar_alarm: str
    protection_class: int
    hydrant_feet: int
    station_miles: float
    wind_class: str
    building_value: float
    contents_value: float
    business_income_value: float
    tiv: float
    valuation: str
    coinsurance_percent: float
    causes_of_loss: str
    deductible: float
    interest: str  # "Owner" | "Tenant"
    mortgagee: str | None
    loan_number: str | None


class Location(WorldModel):
    number: int
    address: Address
    full_time_employees: int
    part_time_employees: int
    annual_revenue: float
    operations: str
    buildings: tuple[Building, ...]


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


class Claim(WorldModel):
    claim_number: str
    loss_date: str
    report_date: str
    closed_date: str | None
    claimant: str
    description: str
    location_number: int | None
    status: str  # CLAIM_STATUS value
    paid: float
    reserve: float
    incurred: float


class PolicyTerm(WorldModel):
    """One policy year of one line at one carrier, with the claims reported under it."""

    carrier: str
    policy_number: str
    line: str
    effective_date: str
    expiration_date: str
    premium: float
    claims: tuple[Claim, ...]


class LossHistory(WorldModel):
    valuation_date: str
    run_date: str
    terms: tuple[PolicyTerm, ...]


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


class Answer(WorldModel):
    """The applicant's answer to one general-information question (see providers.QUESTIONS)."""

    question: str  # question id
    answer: bool
    explanation: str | None


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

    def buildings(self) -> list[Building]:
        return [b for loc in self.locations for b in loc.buildings]
