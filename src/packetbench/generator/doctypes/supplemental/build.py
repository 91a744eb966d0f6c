"""Project the world's supplement facts onto each variant of the supplemental application."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction
from typing import Any

from packetbench.generator.doctypes.common import (
    SectionHeader,
    answers_of,
    section_header,
    signature_of,
)
from packetbench.generator.doctypes.supplemental.model import (
    CommodityRow,
    ContractorAnswers,
    ContractorsSupplement,
    ContractorWork,
    HabitationalAnswers,
    HabitationalSupplement,
    ProjectRow,
    ResidenceRow,
    RestaurantAnswers,
    RestaurantOperations,
    RestaurantSales,
    RestaurantSupplement,
    TruckingAnswers,
    TruckingOperations,
    TruckingSupplement,
)
from packetbench.generator.world.experience import half_up
from packetbench.generator.world.models import World


def years_in_business(world: World) -> int:
    """Whole years from the business start to the application's completion."""
    start = dt.date.fromisoformat(world.insured.business_start_date)
    done = dt.date.fromisoformat(world.policy.completion_date)
    return done.year - start.year - ((done.month, done.day) < (start.month, start.day))


def share(part: float, whole: float) -> float:
    """`part` as a percentage of `whole`, rounded half up to one decimal."""
    return float(half_up(Fraction(round(part)) * 100 / round(whole), 1))


def header(world: World, lines: tuple[str, ...]) -> SectionHeader:
    """The header names the policy of the first of `lines` the world carries, else the
    submission's first policy."""
    line = next((line for line in lines if world.carries(line)), None)
    number = world.policy_line(line).policy_number if line else world.policy.number
    return section_header(world, number)


def build_trucking(world: World, rng: random.Random, knobs: dict[str, Any]) -> TruckingSupplement:
    facts = world.supplements.trucking if world.supplements else None
    assert facts is not None, "the trucking supplement needs trucking facts"
    local, intermediate, long_distance = facts.radius_percent
    return TruckingSupplement(
        header=header(world, ("auto",)),
        years_in_business=years_in_business(world),
        operations=TruckingOperations(
            usdot_number=facts.usdot_number,
            mc_number=facts.mc_number,
            authority=facts.authority,
            power_units=facts.power_units,
            trailers=facts.trailers,
            drivers=len(world.drivers),
            owner_operators=facts.owner_operators,
            annual_miles=facts.annual_miles,
            local_percent=float(local),
            intermediate_percent=float(intermediate),
            long_distance_percent=float(long_distance),
        ),
        commodities=[
            CommodityRow(
                commodity=c.name, percent_of_loads=float(c.percent), max_load_value=c.max_value
            )
            for c in facts.commodities
        ],
        answers=TruckingAnswers(**answers_of(facts.answers)),
        signature=signature_of(world),
    )


def build_contractors(
    world: World, rng: random.Random, knobs: dict[str, Any]
) -> ContractorsSupplement:
    facts = world.supplements.contractors if world.supplements else None
    assert facts is not None, "the contractors supplement needs contractor facts"
    receipts = world.insured.annual_revenue
    return ContractorsSupplement(
        header=header(world, ("gl",)),
        years_in_business=years_in_business(world),
        work=ContractorWork(
            residential_percent=float(facts.residential_percent),
            commercial_percent=float(facts.commercial_percent),
            industrial_percent=float(facts.industrial_percent),
            new_construction_percent=float(facts.new_construction_percent),
            remodel_percent=float(100 - facts.new_construction_percent),
            annual_receipts=receipts,
            subcontracted_cost=facts.subcontracted_cost,
            subcontracted_percent=share(facts.subcontracted_cost, receipts),
            max_stories=facts.max_stories,
        ),
        projects=[
            ProjectRow(
                project_name=p.name,
                client=p.client,
                city=p.city,
                state=p.state,
                contract_value=p.contract_value,
                start_date=p.start_date,
                completion_date=p.completion_date,
            )
            for p in facts.projects
        ],
        answers=ContractorAnswers(**answers_of(facts.answers)),
        signature=signature_of(world),
    )


def build_restaurant(
    world: World, rng: random.Random, knobs: dict[str, Any]
) -> RestaurantSupplement:
    facts = world.supplements.restaurant if world.supplements else None
    assert facts is not None, "the restaurant supplement needs restaurant facts"
    total = facts.food_sales + facts.liquor_sales
    return RestaurantSupplement(
        header=header(world, ("gl", "property")),
        years_in_business=years_in_business(world),
        operations=RestaurantOperations(
            seating_capacity=facts.seating_capacity,
            opening_time=facts.opening_time,
            closing_time=facts.closing_time,
            liquor_percent=share(facts.liquor_sales, total),
        ),
        sales=RestaurantSales(
            food_sales=facts.food_sales, liquor_sales=facts.liquor_sales, total_sales=total
        ),
        answers=RestaurantAnswers(**answers_of(facts.answers)),
        signature=signature_of(world),
    )


def build_habitational(
    world: World, rng: random.Random, knobs: dict[str, Any]
) -> HabitationalSupplement:
    facts = world.supplements.habitational if world.supplements else None
    assert facts is not None, "the habitational supplement needs habitational facts"
    buildings = {(b.location_number, b.building_number): b for b in world.buildings()}
    rows = []
    for residence in facts.residences:
        building = buildings[(residence.location_number, residence.building_number)]
        rows.append(
            ResidenceRow(
                location_number=residence.location_number,
                building_number=residence.building_number,
                street=building.address.street,
                city=building.address.city,
                state=building.address.state,
                year_built=building.year_built,
                stories=building.stories,
                units=residence.units,
                occupancy_percent=float(residence.occupancy_percent),
                average_rate=residence.average_rate,
            )
        )
    return HabitationalSupplement(
        header=header(world, ("property", "gl")),
        years_in_business=years_in_business(world),
        rental_basis=facts.rental_basis,
        residences=rows,
        unit_count=sum(r.units for r in facts.residences),
        answers=HabitationalAnswers(**answers_of(facts.answers)),
        signature=signature_of(world),
    )
