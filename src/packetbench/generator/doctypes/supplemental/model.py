"""Carriers' supplemental applications by class of business: trucking, contractors,
restaurant and habitational. Each variant is its own document type and schema (a model
extracting a restaurant questionnaire is never asked for fleet radius), sharing the header,
the applicant's years in business and the signature block."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import Count, Date, DocModel, Id, Leaf, Money, Percent, Str, Year
from packetbench.generator.doctypes.common import QuestionAnswer, SectionHeader, Signature, State

Authority = Annotated[str | None, Leaf("enum", codes=codes.TRUCKING_AUTHORITY)]
RentalBasis = Annotated[str | None, Leaf("enum", codes=codes.RENTAL_BASIS)]


class TruckingAnswers(DocModel):
    """Answers to the trucking underwriting questions."""

    hazmat: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are hazardous materials requiring placards ever hauled?"""
    team_drivers: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are team drivers or sleeper berths used?"""
    owner_operators: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are owner-operators or leased-on drivers used?"""
    drug_testing: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there a DOT drug and alcohol testing program?"""
    eld: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are electronic logging devices installed in every power unit?"""
    mvr_annual: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are driver MVRs reviewed at hire and at least annually?"""
    trailer_interchange: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are trailers interchanged with other carriers?"""
    refrigerated: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are refrigerated loads hauled?"""


class ContractorAnswers(DocModel):
    """Answers to the contractors underwriting questions."""

    over_three_stories: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is any work performed on exteriors above three stories?"""
    excavation: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is any excavation, trenching or blasting performed?"""
    roofing: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is any roofing work performed?"""
    hazardous_waste: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is any asbestos, lead or mold abatement performed?"""
    written_contracts: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are written contracts used with every customer?"""
    hold_harmless: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Do subcontract agreements include hold-harmless clauses?"""
    sub_certificates: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are certificates of insurance obtained from every subcontractor?"""
    safety_program: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there a written safety program with jobsite inspections?"""


class RestaurantAnswers(DocModel):
    """Answers to the restaurant underwriting questions."""

    deep_fryers: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are deep-fat fryers used?"""
    hood_system: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is a UL 300 wet-chemical hood suppression system installed?"""
    hood_cleaning: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are hoods and ducts professionally cleaned at least quarterly?"""
    entertainment: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is live entertainment or dancing offered?"""
    security_staff: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is security staff or door staff employed?"""
    delivery: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Does the restaurant offer delivery by its own employees?"""
    catering: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is catering off premises offered?"""
    late_hours: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is the premises open after midnight?"""


class HabitationalAnswers(DocModel):
    """Answers to the habitational underwriting questions."""

    pool: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there a swimming pool, spa or fitness room?"""
    playground: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there a playground?"""
    subsidized: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are any units government-subsidized?"""
    student_housing: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is any building more than 25% student housing?"""
    short_term: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are any units rented for terms under 30 days?"""
    smoke_detectors: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Are hard-wired smoke detectors installed in every unit?"""
    aluminum_wiring: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there any aluminum branch wiring?"""
    security_patrol: QuestionAnswer = Field(default_factory=QuestionAnswer)
    """Is there on-site management or a security patrol?"""


class CommodityRow(DocModel):
    """One commodity hauled."""

    record_key = ("commodity",)

    commodity: Str = None
    """Commodity description."""
    percent_of_loads: Percent = None
    """Share of loads carrying the commodity, in percent."""
    max_load_value: Money = None
    """Value of the most valuable single load of the commodity, in dollars."""


class TruckingOperations(DocModel):
    """The carrier's authority, equipment and operating radius."""

    usdot_number: Id = None
    """USDOT number."""
    mc_number: Id = None
    """Motor carrier (MC) docket number, e.g. "MC-123456"."""
    authority: Authority = None
    """Operating authority: common, contract or private carrier."""
    power_units: Count = None
    """Number of power units (trucks and tractors)."""
    trailers: Count = None
    """Number of trailers."""
    drivers: Count = None
    """Number of drivers."""
    owner_operators: Count = None
    """Number of owner-operators leased on."""
    annual_miles: Count = None
    """Total annual miles driven by the fleet."""
    local_percent: Percent = None
    """Share of units operating locally (up to 50 miles), in percent."""
    intermediate_percent: Percent = None
    """Share of units operating at intermediate radius (51-200 miles), in percent."""
    long_distance_percent: Percent = None
    """Share of units operating long distance (over 200 miles), in percent."""


class TruckingSupplement(DocModel):
    """A motor carrier supplemental application."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    years_in_business: Count = None
    """Years the applicant has been in business."""
    operations: TruckingOperations = Field(default_factory=TruckingOperations)
    """Authority, equipment and radius of operation."""
    commodities: list[CommodityRow] = Field(default_factory=list)
    """Schedule of commodities hauled."""
    answers: TruckingAnswers = Field(default_factory=TruckingAnswers)
    """Underwriting questions and answers."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""


class ContractorWork(DocModel):
    """The mix of the contractor's work and what it subcontracts."""

    residential_percent: Percent = None
    """Share of work on residential projects, in percent."""
    commercial_percent: Percent = None
    """Share of work on commercial projects, in percent."""
    industrial_percent: Percent = None
    """Share of work on industrial projects, in percent."""
    new_construction_percent: Percent = None
    """Share of work that is new construction, in percent."""
    remodel_percent: Percent = None
    """Share of work that is remodelling or repair, in percent."""
    annual_receipts: Money = None
    """Gross annual receipts, in dollars."""
    subcontracted_cost: Money = None
    """Annual cost of work subcontracted to others, in dollars."""
    subcontracted_percent: Percent = None
    """Subcontracted cost as a percentage of receipts (one decimal)."""
    max_stories: Count = None
    """Greatest height worked at, in stories."""


class ProjectRow(DocModel):
    """One current or recent project."""

    record_key = ("project_name",)

    project_name: Str = None
    """Project name."""
    client: Str = None
    """Customer (owner or general contractor)."""
    city: Str = None
    """City of the project."""
    state: State = None
    """State of the project."""
    contract_value: Money = None
    """Contract value, in dollars."""
    start_date: Date = None
    """Start date."""
    completion_date: Date = None
    """Scheduled or actual completion date."""


class ContractorsSupplement(DocModel):
    """A contractors supplemental application."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    years_in_business: Count = None
    """Years the applicant has been in business."""
    work: ContractorWork = Field(default_factory=ContractorWork)
    """Work mix and subcontracting."""
    projects: list[ProjectRow] = Field(default_factory=list)
    """Schedule of current and recent projects."""
    answers: ContractorAnswers = Field(default_factory=ContractorAnswers)
    """Underwriting questions and answers."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""


class RestaurantOperations(DocModel):
    """Seating, hours and sales of the restaurant."""

    seating_capacity: Count = None
    """Seating capacity."""
    opening_time: Str = None
    """Opening time, as written (e.g. "11:00 AM")."""
    closing_time: Str = None
    """Closing time, as written (e.g. "10:00 PM")."""
    liquor_percent: Percent = None
    """Liquor sales as a percentage of total sales (one decimal)."""


class RestaurantSales(DocModel):
    """Annual sales: food and liquor, and their total (the scorer's total_* rule checks it)."""

    food_sales: Money = None
    """Annual food sales, in dollars."""
    liquor_sales: Money = None
    """Annual sales of alcoholic beverages, in dollars."""
    total_sales: Money = None
    """Annual total sales (food plus liquor), in dollars."""


class RestaurantSupplement(DocModel):
    """A restaurant supplemental application."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    years_in_business: Count = None
    """Years the applicant has been in business."""
    operations: RestaurantOperations = Field(default_factory=RestaurantOperations)
    """Seating, hours and the liquor share of sales."""
    sales: RestaurantSales = Field(default_factory=RestaurantSales)
    """Annual sales."""
    answers: RestaurantAnswers = Field(default_factory=RestaurantAnswers)
    """Underwriting questions and answers."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""


class ResidenceRow(DocModel):
    """One building of the schedule of units."""

    record_key = ("location_number", "building_number")

    location_number: Count = None
    """Location number."""
    building_number: Count = None
    """Building number at the location."""
    street: Str = None
    """Street address."""
    city: Str = None
    """City."""
    state: State = None
    """State."""
    year_built: Year = None
    """Year built."""
    stories: Count = None
    """Number of stories."""
    units: Count = None
    """Number of apartment units or guest rooms."""
    occupancy_percent: Percent = None
    """Share of units occupied, in percent."""
    average_rate: Money = None
    """Average monthly rent per unit, or average nightly rate per room, in dollars."""


class HabitationalSupplement(DocModel):
    """A habitational (apartments, hotels) supplemental application."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    years_in_business: Count = None
    """Years the applicant has been in business."""
    rental_basis: RentalBasis = None
    """Whether units rent monthly (apartments) or nightly (hotel rooms)."""
    residences: list[ResidenceRow] = Field(default_factory=list)
    """Schedule of units by building."""
    unit_count: Count = None
    """Total units of the schedule (the sum of the buildings' units)."""
    answers: HabitationalAnswers = Field(default_factory=HabitationalAnswers)
    """Underwriting questions and answers."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
