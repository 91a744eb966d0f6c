"""The property loss-control (engineering) survey report: COPE per building, protection,
exposures, the valuation check, and the recommendations with priorities and due dates."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import (
    Count,
    Date,
    DocModel,
    Id,
    Leaf,
    Money,
    Number,
    Percent,
    Str,
    Text,
    Year,
)
from packetbench.generator.doctypes.common import (
    Address,
    BurglarAlarm,
    Construction,
    FireAlarm,
    Occupancy,
    RoofCovering,
    SprinklerType,
)


def _enum(code_list: codes.CodeList) -> Leaf:
    return Leaf("enum", codes=code_list)


SurveyType = Annotated[str | None, _enum(codes.SURVEY_TYPE)]
RiskGrade = Annotated[str | None, _enum(codes.RISK_GRADE)]
Condition = Annotated[str | None, _enum(codes.CONDITION)]
FloodZone = Annotated[str | None, _enum(codes.FLOOD_ZONE)]
Priority = Annotated[str | None, _enum(codes.RECOMMENDATION_PRIORITY)]
Category = Annotated[str | None, _enum(codes.RECOMMENDATION_CATEGORY)]
Status = Annotated[str | None, _enum(codes.RECOMMENDATION_STATUS)]


class ReportInfo(DocModel):
    """Who surveyed what, when, and for whom."""

    report_number: Id = None
    """The surveying firm's report number."""
    survey_type: SurveyType = None
    """Kind of survey (new business, renewal, recommendation follow-up, post-loss)."""
    survey_date: Date = None
    """Date of the site visit."""
    report_date: Date = None
    """Date of the report."""
    firm: Str = None
    """Loss-control firm that made the survey."""
    surveyor_name: Str = None
    """Surveyor who visited the site."""
    surveyor_credentials: Str = None
    """The surveyor's professional credentials (CSP, ARM...)."""
    carrier_name: Str = None
    """Insurance company the report is prepared for."""
    policy_number: Id = None
    """Policy or quote number the report refers to."""
    named_insured: Str = None
    """First named insured."""
    contact_name: Str = None
    """The insured's representative who accompanied the surveyor."""
    contact_title: Str = None
    """Title of that representative."""
    risk_grade: RiskGrade = None
    """Overall grade the surveyor gives the risk."""


class Summary(DocModel):
    """Counts the report's summary states."""

    buildings_surveyed: Count = None
    """Number of buildings surveyed."""
    recommendation_count: Count = None
    """Recommendations made, all priorities."""
    critical_count: Count = None
    """Recommendations of critical priority."""
    important_count: Count = None
    """Recommendations of important priority."""
    advisory_count: Count = None
    """Recommendations of advisory priority."""


class SurveyedBuilding(DocModel):
    """One building surveyed: construction, occupancy, protection, exposure, valuation."""

    record_key = ("premises_number", "building_number")

    premises_number: Count = None
    """Premises (location) number, as on the statement of values."""
    building_number: Count = None
    """Building number within the premises."""
    address: Address = Field(default_factory=Address)
    """Address of the building."""
    construction: Construction = None
    """ISO construction class."""
    year_built: Year = None
    """Year built."""
    stories: Count = None
    """Stories above grade."""
    square_feet: Count = None
    """Total floor area in square feet."""
    roof_covering: RoofCovering = None
    """Roof covering."""
    roof_year: Year = None
    """Year the roof covering was installed."""
    occupancy: Occupancy = None
    """Occupancy of the building."""
    housekeeping: Condition = None
    """Housekeeping as observed."""
    maintenance: Condition = None
    """Building maintenance as observed."""
    protection_class: Count = None
    """ISO public protection class."""
    hydrant_feet: Count = None
    """Distance to the nearest hydrant in feet."""
    station_miles: Number = None
    """Distance to the responding fire station in miles."""
    sprinklered_percent: Percent = None
    """Share of the floor area protected by automatic sprinklers, in percent."""
    sprinkler_type: SprinklerType = None
    """Type of sprinkler system ("None" when unsprinklered)."""
    fire_alarm: FireAlarm = None
    """Fire alarm ("None" when there is none)."""
    burglar_alarm: BurglarAlarm = None
    """Burglar alarm ("None" when there is none)."""
    exposure_north_feet: Count = None
    """Distance to the nearest exposure to the north, in feet."""
    exposure_east_feet: Count = None
    """Distance to the nearest exposure to the east, in feet."""
    exposure_south_feet: Count = None
    """Distance to the nearest exposure to the south, in feet."""
    exposure_west_feet: Count = None
    """Distance to the nearest exposure to the west, in feet."""
    flood_zone: FloodZone = None
    """FEMA flood zone of the site."""
    cost_per_square_foot: Money = None
    """Replacement cost per square foot the surveyor applies."""
    replacement_cost: Money = None
    """Estimated replacement cost of the building (floor area x cost per square foot)."""
    building_limit: Money = None
    """Building limit on the schedule; null when the insured is a tenant and insures none."""


class Recommendation(DocModel):
    """One recommendation of the report."""

    record_key = ("number",)

    number: Id = None
    """Recommendation number."""
    premises_number: Count = None
    """Premises the recommendation concerns."""
    building_number: Count = None
    """Building the recommendation concerns."""
    priority: Priority = None
    """Priority (critical, important, advisory)."""
    category: Category = None
    """What the recommendation is about."""
    description: Text = None
    """The recommendation as written."""
    due_date: Date = None
    """Date by which the recommendation should be complied with."""
    status: Status = None
    """Status at the report date."""


class EngineeringReport(DocModel):
    """A property loss-control (engineering) survey report."""

    report: ReportInfo = Field(default_factory=ReportInfo)
    """Report identification, surveyor and overall grade."""
    summary: Summary = Field(default_factory=Summary)
    """Counts stated in the summary."""
    buildings: list[SurveyedBuilding] = Field(default_factory=list)
    """Every building surveyed, in schedule order."""
    recommendations: list[Recommendation] = Field(default_factory=list)
    """Every recommendation, in number order."""
