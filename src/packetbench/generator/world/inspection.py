"""The loss-control survey of the property: who surveyed which buildings, what they found on
each side of them, and the recommendations they left with priorities and due dates.

Drawn from its own stream after the buildings exist; the survey reads the buildings' COPE and
never changes it. The survey happens before the application is signed, so the report can be
part of the submission.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from packetbench.generator.world.base import WorldModel
from packetbench.generator.world.draw import dollars, iso, weighted
from packetbench.generator.world.premises import Building

FIRMS = (
    "Keystone Risk Engineering",
    "Summit Loss Control Services",
    "Beacon Property Surveys",
    "Ridgeline Risk Consultants",
    "Harbor Point Engineering",
    "Cardinal Loss Prevention",
)
CREDENTIALS = ("CSP", "ARM", "CFPS", "CSP, ARM", "P.E.", "ALCM")

# Replacement cost per square foot by occupancy (dollars): the valuation check of the report.
COST_PER_SQUARE_FOOT: dict[str, tuple[int, int]] = {
    "Office": (210, 330),
    "Retail": (150, 260),
    "Warehouse": (95, 160),
    "Light Manufacturing": (120, 210),
    "Heavy Manufacturing": (150, 260),
    "Restaurant": (260, 420),
    "Apartments": (180, 290),
    "Hotel": (230, 360),
    "Medical Office": (280, 430),
    "Distribution Center": (100, 170),
    "Auto Repair": (130, 220),
    "School": (240, 350),
    "Self Storage": (70, 120),
    "Vacant Land": (5, 10),
}

# (category, description) by what a surveyor sees; `when` decides whether it applies.
Rule = tuple[str, str]
ALWAYS: tuple[Rule, ...] = (
    (
        "Housekeeping",
        "Remove combustible waste from the building at the end of each shift and "
        "keep it in closed metal containers at least ten feet from the walls.",
    ),
    (
        "Electrical",
        "Have a licensed electrician survey the electrical distribution system with "
        "an infrared scan and correct the deficiencies found.",
    ),
    ("Electrical", "Replace the extension cords used as permanent wiring with fixed outlets."),
    (
        "Management",
        "Adopt a written hot-work permit program for cutting, welding and roofing "
        "work by employees and contractors.",
    ),
    (
        "Security",
        "Improve exterior lighting along the rear of the building and at the loading doors.",
    ),
    ("Management", "Keep a written self-inspection checklist and complete it every month."),
)
SPRINKLERED: tuple[Rule, ...] = (
    (
        "Fire Protection",
        "Have the sprinkler system inspected, tested and maintained by a "
        "licensed contractor as NFPA 25 requires and keep the reports on site.",
    ),
    (
        "Fire Protection",
        "Keep at least 18 inches of clearance below the sprinkler deflectors in the storage areas.",
    ),
    ("Fire Protection", "Lock the sprinkler control valves open and inspect them weekly."),
)
UNSPRINKLERED: tuple[Rule, ...] = (
    (
        "Fire Protection",
        "Install an automatic sprinkler system throughout the building, or "
        "provide the insurer with a plan and schedule for doing so.",
    ),
    ("Fire Protection", "Connect the fire alarm to a central station and test it yearly."),
)
OLD_ROOF: tuple[Rule, ...] = (
    (
        "Roof",
        "Have a roofing contractor survey the roof covering, now past its expected "
        "life, and replace it or repair the deficiencies found.",
    ),
)
NO_BURGLAR_ALARM: tuple[Rule, ...] = (
    (
        "Security",
        "Install a burglar alarm monitored by a central station covering all doors "
        "and accessible openings.",
    ),
)
COASTAL = {"FL", "TX", "LA", "SC", "NC", "GA", "AL", "MS", "VA", "NJ", "NY", "MA", "CT"}
NATURAL: tuple[Rule, ...] = (
    (
        "Natural Hazard",
        "Prepare a written windstorm and flood emergency plan, including "
        "securing outdoor equipment and raising stock off the floor.",
    ),
)

DUE_DAYS = {"Critical": (30, 60), "Important": (60, 120), "Advisory": (90, 180)}


class SurveyedBuilding(WorldModel):
    """What the surveyor recorded at one building beyond the schedule's COPE."""

    location_number: int
    building_number: int
    housekeeping: str  # CONDITION value
    maintenance: str  # CONDITION value
    exposure_feet: tuple[int, int, int, int]  # nearest exposure north, east, south, west
    flood_zone: str  # FLOOD_ZONE value
    cost_per_square_foot: float  # whole dollars
    replacement_cost: float  # square feet x cost per square foot


class Recommendation(WorldModel):
    number: str
    location_number: int
    building_number: int
    priority: str  # RECOMMENDATION_PRIORITY value
    category: str  # RECOMMENDATION_CATEGORY value
    description: str
    due_date: str
    status: str  # RECOMMENDATION_STATUS value


class Inspection(WorldModel):
    firm: str
    surveyor: str
    credentials: str
    report_number: str
    survey_type: str  # SURVEY_TYPE value
    survey_date: str
    report_date: str
    contact_name: str  # who accompanied the surveyor for the insured
    contact_title: str
    buildings: tuple[SurveyedBuilding, ...]
    recommendations: tuple[Recommendation, ...]
    risk_grade: str  # RISK_GRADE value, from the recommendations' priorities


def _rules(b: Building, effective: dt.date) -> list[Rule]:
    rules = list(ALWAYS)
    rules += SPRINKLERED if b.sprinklered_percent > 0 else UNSPRINKLERED
    if effective.year - b.roof_year >= 18:
        rules += OLD_ROOF
    if b.burglar_alarm == "None":
        rules += NO_BURGLAR_ALARM
    if b.address.state in COASTAL:
        rules += NATURAL
    return rules


def _grade(priorities: list[str]) -> str:
    if priorities.count("Critical") >= 2:
        return "Poor"
    if "Critical" in priorities:
        return "Below Average"
    if priorities.count("Important") >= 2:
        return "Average"
    return "Above Average" if priorities else "Superior"


def build_inspection(
    fake: Faker,
    rng: random.Random,
    buildings: list[Building],
    contact: tuple[str, str],
    completion: dt.date,
    effective: dt.date,
) -> Inspection:
    """A survey of the first one to three buildings of the schedule."""
    surveyed = buildings[: rng.randint(1, 3)]
    survey = completion - dt.timedelta(days=rng.randint(25, 120))
    report = survey + dt.timedelta(days=rng.randint(4, 18))
    survey_type = weighted(
        rng,
        [
            ("New Business Survey", 4),
            ("Renewal Survey", 3),
            ("Recommendation Follow-up", 1),
            ("Post-Loss Survey", 0.5),
        ],
    )
    records: list[SurveyedBuilding] = []
    recommendations: list[Recommendation] = []
    for b in surveyed:
        low, high = COST_PER_SQUARE_FOOT[b.occupancy]
        if b.building_value and b.square_feet:
            # The surveyor's estimate sits near the scheduled value, a little above it as
            # often as not: the valuation check an underwriter reads for underinsurance.
            cost = max(1, round(b.building_value / b.square_feet * rng.uniform(0.92, 1.3)))
        else:
            cost = rng.randint(low, high)
        records.append(
            SurveyedBuilding(
                location_number=b.location_number,
                building_number=b.building_number,
                housekeeping=weighted(rng, [("Good", 5), ("Fair", 3), ("Poor", 1)]),
                maintenance=weighted(rng, [("Good", 5), ("Fair", 3), ("Poor", 1)]),
                exposure_feet=(
                    rng.choice((10, 25, 40, 60, 75, 100, 150, 200)),
                    rng.choice((0, 15, 30, 50, 80, 120, 250)),
                    rng.choice((20, 35, 60, 90, 150, 300)),
                    rng.choice((5, 12, 30, 45, 70, 110)),
                ),
                flood_zone=weighted(
                    rng,
                    [
                        ("X", 8),
                        ("X500", 2),
                        ("AE", 1.5),
                        ("A", 0.5),
                        ("VE", 0.2 if b.address.state in COASTAL else 0.0),
                    ],
                ),
                cost_per_square_foot=float(cost),
                replacement_cost=dollars(b.square_feet * cost * 100),
            )
        )
        for category, description in rng.sample(_rules(b, effective), rng.randint(1, 3)):
            priority = weighted(rng, [("Critical", 1), ("Important", 3), ("Advisory", 3)])
            low_days, high_days = DUE_DAYS[priority]
            done = survey_type == "Recommendation Follow-up" and rng.random() < 0.4
            recommendations.append(
                Recommendation(
                    number=f"{report.year % 100:02d}-{len(recommendations) + 1:02d}",
                    location_number=b.location_number,
                    building_number=b.building_number,
                    priority=priority,
                    category=category,
                    description=description,
                    due_date=iso(report + dt.timedelta(days=rng.randint(low_days, high_days))),
                    status="Complete" if done else weighted(rng, [("New", 4), ("Open", 1)]),
                )
            )
    open_priorities = [r.priority for r in recommendations if r.status != "Complete"]
    return Inspection(
        firm=rng.choice(FIRMS),
        surveyor=fake.person_name(),
        credentials=rng.choice(CREDENTIALS),
        report_number=f"LC-{report.year}-{rng.randint(10000, 99999)}",
        survey_type=survey_type,
        survey_date=iso(survey),
        report_date=iso(report),
        contact_name=contact[0],
        contact_title=contact[1],
        buildings=tuple(records),
        recommendations=tuple(recommendations),
        risk_grade=_grade(open_priorities),
    )
