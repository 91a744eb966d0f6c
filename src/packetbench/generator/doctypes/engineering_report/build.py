"""Project the world's loss-control survey onto the engineering report."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.common import address_of
from packetbench.generator.doctypes.engineering_report.model import (
    EngineeringReport,
    Recommendation,
    ReportInfo,
    Summary,
    SurveyedBuilding,
)
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> EngineeringReport:
    survey = world.inspection
    assert survey is not None  # the type applies only to worlds with a property survey
    schedule = {(b.location_number, b.building_number): b for b in world.buildings()}
    buildings = []
    for seen in survey.buildings:
        b = schedule[(seen.location_number, seen.building_number)]
        north, east, south, west = seen.exposure_feet
        buildings.append(
            SurveyedBuilding(
                premises_number=b.location_number,
                building_number=b.building_number,
                address=address_of(b.address),
                construction=b.construction,
                year_built=b.year_built,
                stories=b.stories,
                square_feet=b.square_feet,
                roof_covering=b.roof_covering,
                roof_year=b.roof_year,
                occupancy=b.occupancy,
                housekeeping=seen.housekeeping,
                maintenance=seen.maintenance,
                protection_class=b.protection_class,
                hydrant_feet=b.hydrant_feet,
                station_miles=b.station_miles,
                sprinklered_percent=b.sprinklered_percent,
                sprinkler_type=b.sprinkler_type,
                fire_alarm=b.fire_alarm,
                burglar_alarm=b.burglar_alarm,
                exposure_north_feet=north,
                exposure_east_feet=east,
                exposure_south_feet=south,
                exposure_west_feet=west,
                flood_zone=seen.flood_zone,
                cost_per_square_foot=seen.cost_per_square_foot,
                replacement_cost=seen.replacement_cost,
                building_limit=b.building_value or None,
            )
        )
    recommendations = [
        Recommendation(
            number=r.number,
            premises_number=r.location_number,
            building_number=r.building_number,
            priority=r.priority,
            category=r.category,
            description=r.description,
            due_date=r.due_date,
            status=r.status,
        )
        for r in survey.recommendations
    ]
    priorities = [r.priority for r in survey.recommendations]
    return EngineeringReport(
        report=ReportInfo(
            report_number=survey.report_number,
            survey_type=survey.survey_type,
            survey_date=survey.survey_date,
            report_date=survey.report_date,
            firm=survey.firm,
            surveyor_name=survey.surveyor,
            surveyor_credentials=survey.credentials,
            carrier_name=world.carrier.name,
            policy_number=world.policy.number,
            named_insured=world.insured.name,
            contact_name=survey.contact_name,
            contact_title=survey.contact_title,
            risk_grade=survey.risk_grade,
        ),
        summary=Summary(
            buildings_surveyed=len(buildings),
            recommendation_count=len(recommendations),
            critical_count=priorities.count("Critical"),
            important_count=priorities.count("Important"),
            advisory_count=priorities.count("Advisory"),
        ),
        buildings=buildings,
        recommendations=recommendations,
    )
