"""The terms of each line of business: GL, business auto, workers compensation, umbrella,
motor truck cargo, and the businessowners alternative.

A line's premium is the sum of its rated parts, built in integer cents; the submission's
policy carries one `PolicyLine` per line with that premium and the line's policy number.
"""

from __future__ import annotations

from packetbench.generator.world.base import Answer, WorldModel


class GlHazard(WorldModel):
    """One row of the GL schedule of hazards: a classification rated at one location."""

    location_number: int
    hazard_number: int
    class_code: str  # ISO five-digit GL class
    description: str
    premium_basis: str  # GL_PREMIUM_BASIS value
    exposure: int  # dollars (sales, payroll, cost), square feet, or units
    territory: str
    premises_rate: float  # per basis unit: $1,000, 1,000 sq ft, or one unit
    products_rate: float | None  # None: products-completed operations included
    premises_premium: float
    products_premium: float


class GeneralLiability(WorldModel):
    trigger: str  # COVERAGE_TRIGGER value
    retroactive_date: str | None  # claims-made only
    each_occurrence: float
    general_aggregate: float
    aggregate_applies: str  # AGGREGATE_APPLIES value
    products_aggregate: float
    personal_advertising: float
    damage_to_premises: float
    medical_expense: float
    deductible: float | None
    deductible_basis: str | None  # DEDUCTIBLE_BASIS value
    hazards: tuple[GlHazard, ...]
    premises_premium: float  # sum over the hazards
    products_premium: float
    premium: float  # premises + products
    answers: tuple[Answer, ...]


class AutoUnit(WorldModel):
    """Rating and coverages of one scheduled vehicle (its description is `Vehicle`)."""

    vehicle_number: int
    size_class: str  # VEHICLE_SIZE_CLASS value
    use: str  # VEHICLE_USE value
    radius: str  # RADIUS_CLASS value
    class_code: str  # five-digit primary class: size, use, radius
    territory: str
    registration_state: str  # the garaging location's state
    ownership: str  # VEHICLE_OWNERSHIP value
    medical_payments: bool
    uninsured_motorists: bool
    underinsured_motorists: bool
    comprehensive_deductible: float | None  # None: no physical-damage coverage
    collision_deductible: float | None
    towing: bool
    rental_reimbursement: bool
    liability_premium: float
    physical_damage_premium: float
    premium: float  # liability + physical damage


class CoverageSymbols(WorldModel):
    coverage: str  # one of AUTO_COVERAGES
    symbols: tuple[str, ...]  # AUTO_SYMBOL values


class AutoState(WorldModel):
    """Limits that vary by the state vehicles are garaged in."""

    state: str
    uninsured_motorists_limit: float
    underinsured_motorists_limit: float
    um_rejected: bool  # the insured rejected UM/UIM in writing (limits then 0)
    vehicle_count: int


class BusinessAuto(WorldModel):
    combined_single_limit: float
    medical_payments_limit: float | None  # None: no medical payments coverage
    towing_limit: float | None  # per disablement; None: no towing and labor
    symbols: tuple[CoverageSymbols, ...]
    hired_liability: bool
    hired_cost: float  # estimated annual cost of hire
    non_owned_liability: bool
    non_owned_employees: int
    hired_non_owned_premium: float
    units: tuple[AutoUnit, ...]  # one per world vehicle, same order
    states: tuple[AutoState, ...]  # garaging states, most vehicles first
    premium: float  # vehicle premiums + hired and non-owned
    answers: tuple[Answer, ...]


class WcRating(WorldModel):
    """One class of one state on the rating worksheet."""

    state: str
    class_code: str  # NCCI four-digit class
    description: str
    full_time_employees: int
    part_time_employees: int
    payroll: float  # whole hundreds of dollars
    rate: float  # per $100 of payroll
    manual_premium: float  # payroll / 100 x rate


class WcState(WorldModel):
    """The premium of one state, from manual premium to estimated premium."""

    state: str
    payroll: float
    manual_premium: float
    modified_premium: float  # manual x experience mod
    discount_percent: float
    premium_discount: float
    expense_constant: float
    terrorism_rate: float  # per $100 of payroll
    terrorism_premium: float
    estimated_premium: float  # modified - discount + expense constant + terrorism


class Declination(WorldModel):
    """A voluntary-market carrier that declined the account (assigned-risk applications)."""

    carrier: str
    date: str
    reason: str


class WorkersComp(WorldModel):
    market: str  # WC_MARKET value
    risk_id: str  # NCCI risk identifier
    experience_mod: float
    mod_effective_date: str
    each_accident: float
    disease_policy_limit: float
    disease_each_employee: float
    classes: tuple[WcRating, ...]
    states: tuple[WcState, ...]
    excluded_states: tuple[str, ...]  # monopolistic-fund states with locations
    officer_state: str  # where included officers are rated
    officer_class: str
    premium: float  # sum of the states' estimated premiums
    deposit_premium: float
    minimum_premium: float
    declinations: tuple[Declination, ...]  # only in the assigned-risk market
    answers: tuple[Answer, ...]
    plan_answers: tuple[Answer, ...]  # the assigned-risk plan's questions


class Umbrella(WorldModel):
    form: str  # UMBRELLA_FORM value
    trigger: str  # COVERAGE_TRIGGER value
    each_occurrence: float
    aggregate: float
    retention: float  # self-insured retention where no underlying policy applies
    first_dollar_defense: bool
    underlying: tuple[str, ...]  # line ids of the scheduled underlying policies
    premium: float
    answers: tuple[Answer, ...]


class MotorTruckCargo(WorldModel):
    limit_per_vehicle: float
    limit_per_occurrence: float
    deductible: float
    commodities: str
    radius: str  # RADIUS_CLASS value
    refrigeration: bool
    rate_per_vehicle: float
    vehicle_count: int  # power units carrying cargo
    premium: float  # rate per vehicle x vehicles


class BopPremises(WorldModel):
    location_number: int
    building_number: int
    building_limit: float  # the building value of the schedule (0 for a tenant)
    bpp_limit: float  # the contents value of the schedule
    rate: float  # per $100 of limit
    premium: float


class BopOption(WorldModel):
    coverage: str
    limit: float
    deductible: float | None
    premium: float


class Businessowners(WorldModel):
    """A businessowners program quoted as an alternative to the property and GL package:
    the same premises at the same values, with the program's own liability limits."""

    quote_number: str
    policy_type: str  # BOP_POLICY_TYPE value
    property_deductible: float
    each_occurrence: float
    general_aggregate: float
    products_aggregate: float
    personal_advertising: float
    damage_to_premises: float
    medical_expense: float
    premises: tuple[BopPremises, ...]  # every building of the schedule
    options: tuple[BopOption, ...]
    property_premium: float  # sum over the premises
    liability_premium: float
    optional_premium: float  # sum over the options
    premium: float  # property + liability + optional
    answers: tuple[Answer, ...]
