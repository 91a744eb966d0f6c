"""Facts of the carriers' supplemental applications: the general one every packet carries,
and those of a class of business.

A trucking supplement comes with a fleet that hauls (an auto account with cargo cover, or a
trucking company), a contractors supplement with a contractor's GL, a restaurant or a
habitational supplement with those classes. Each variant draws from a stream of its own, so
neither the other variants nor any earlier fact moves; where the world already knows a fact
(radius of each unit, the hazardous-cargo answer of the auto section, the subcontracted cost
rated on the GL, the buildings) the supplement repeats it.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
from typing import TYPE_CHECKING

from packetbench.generator.fakers.supplements import (
    CLIENT_WORDS,
    COMMODITIES,
    CONTRACTOR_QUESTIONS,
    GENERAL_QUESTIONS,
    HABITATIONAL_QUESTIONS,
    PROJECT_KINDS,
    RESTAURANT_QUESTIONS,
    TRUCKING_QUESTIONS,
)
from packetbench.generator.world.base import Answer, WorldModel
from packetbench.generator.world.draw import (
    add_years,
    answer_all,
    date_between,
    iso,
    round_to,
    stream,
)

if TYPE_CHECKING:
    from packetbench.generator.world.models import World

TRUCKING_INDUSTRY = "general freight trucking"
RESTAURANT_INDUSTRY = "full-service restaurant"
HABITATIONAL_INDUSTRIES = {"apartment owner": "Monthly", "hotel operator": "Nightly"}
SUBCONTRACTED_CLASS = "91583"
RADIUS_ORDER = ("Local", "Intermediate", "Long Distance")


class Commodity(WorldModel):
    name: str
    percent: int  # share of loads; the schedule sums to 100
    max_value: float  # most valuable single load, dollars


class TruckingFacts(WorldModel):
    usdot_number: str
    mc_number: str
    authority: str  # TRUCKING_AUTHORITY value
    power_units: int
    trailers: int
    annual_miles: int
    owner_operators: int
    radius_percent: tuple[int, int, int]  # local, intermediate, long distance: sums to 100
    commodities: tuple[Commodity, ...]
    answers: tuple[Answer, ...]


class Project(WorldModel):
    name: str
    client: str
    city: str
    state: str
    contract_value: float
    start_date: str
    completion_date: str


class ContractorFacts(WorldModel):
    residential_percent: int
    commercial_percent: int
    industrial_percent: int
    new_construction_percent: int
    subcontracted_cost: float
    max_stories: int
    projects: tuple[Project, ...]
    answers: tuple[Answer, ...]


class RestaurantFacts(WorldModel):
    seating_capacity: int
    opening_time: str
    closing_time: str
    food_sales: float
    liquor_sales: float
    answers: tuple[Answer, ...]


class Residence(WorldModel):
    """A habitational building: how many units it rents and at what rate."""

    location_number: int
    building_number: int
    units: int
    occupancy_percent: int
    average_rate: float  # monthly rent of an apartment, nightly rate of a room


class HabitationalFacts(WorldModel):
    rental_basis: str  # RENTAL_BASIS value
    residences: tuple[Residence, ...]
    answers: tuple[Answer, ...]


class GeneralFacts(WorldModel):
    """The general supplemental application's own facts: its answers (in GENERAL_QUESTIONS
    order) and the prior terms its insurance history marks as not renewed by the carrier."""

    answers: tuple[Answer, ...]
    non_renewed: tuple[str, ...]  # policy numbers of loss-history terms


class Supplements(WorldModel):
    general: GeneralFacts
    trucking: TruckingFacts | None
    contractors: ContractorFacts | None
    restaurant: RestaurantFacts | None
    habitational: HabitationalFacts | None


def shares(rng: random.Random, count: int, step: int = 5) -> list[int]:
    """`count` positive multiples of `step` summing to 100, largest first."""
    cuts = sorted(rng.sample(range(1, 100 // step), count - 1))
    edges = [0, *cuts, 100 // step]
    return sorted(((b - a) * step for a, b in itertools.pairwise(edges)), reverse=True)


def largest_remainder(counts: list[int]) -> list[int]:
    """Whole percentages of `counts` summing to 100 (largest remainders round up)."""
    total = sum(counts)
    raw = [100 * c / total for c in counts]
    out = [int(r) for r in raw]
    order = sorted(range(len(raw)), key=lambda i: (out[i] - raw[i], i))
    for i in order[: 100 - sum(out)]:
        out[i] += 1
    return out


def _trucking(rng: random.Random, world: World) -> TruckingFacts:
    auto = world.business_auto
    assert auto is not None
    radius = largest_remainder([sum(u.radius == r for u in auto.units) for r in RADIUS_ORDER])
    picked = rng.sample(COMMODITIES, rng.randint(2, 4))
    answers = list(answer_all(rng, TRUCKING_QUESTIONS))
    # The auto section already answered whether hazardous materials are hauled.
    hazardous = next(a.answer for a in auto.answers if a.question == "hazardous_cargo")
    answers[0] = Answer(
        question="hazmat",
        answer=hazardous,
        explanation=TRUCKING_QUESTIONS[0].explanations[0] if hazardous else None,
    )
    if world.cargo is not None:
        index = next(i for i, q in enumerate(TRUCKING_QUESTIONS) if q.id == "refrigerated")
        cold = world.cargo.refrigeration
        answers[index] = Answer(
            question="refrigerated",
            answer=cold,
            explanation=(TRUCKING_QUESTIONS[index].explanations[0] if cold else None),
        )
    leased = next(a.answer for a in answers if a.question == "owner_operators")
    tractors = sum(v.body_type == "Tractor" for v in world.vehicles)
    units = len(world.vehicles)
    return TruckingFacts(
        usdot_number=str(rng.randint(1_000_000, 3_999_999)),
        mc_number=f"MC-{rng.randint(100_000, 999_999)}",
        authority=rng.choice(("Common Carrier", "Contract Carrier", "Private Carrier")),
        power_units=units,
        trailers=round(tractors * rng.uniform(1.2, 2.2)),
        annual_miles=round_to(units * rng.uniform(35_000, 110_000), 1000),
        owner_operators=rng.randint(1, max(1, units // 5)) if leased else 0,
        radius_percent=(radius[0], radius[1], radius[2]),
        commodities=tuple(
            Commodity(
                name=name, percent=percent, max_value=float(round_to(rng.uniform(low, high), 5000))
            )
            for (name, low, high), percent in zip(picked, shares(rng, len(picked)), strict=True)
        ),
        answers=tuple(answers),
    )


def _contractors(rng: random.Random, world: World) -> ContractorFacts:
    gl = world.general_liability
    assert gl is not None
    work = shares(rng, 3)
    rng.shuffle(work)
    cost = next((h.exposure for h in gl.hazards if h.class_code == SUBCONTRACTED_CLASS), None)
    if cost is None:
        cost = round_to(world.insured.annual_revenue * rng.uniform(0.04, 0.18), 1000)
    completion = dt.date.fromisoformat(world.policy.completion_date)
    projects = []
    states = sorted({loc.address.state for loc in world.locations})
    for kind in rng.sample(PROJECT_KINDS, rng.randint(3, 6)):
        location = rng.choice(world.locations)
        start = date_between(rng, add_years(completion, -2), completion)
        finish = start + dt.timedelta(days=rng.randint(90, 540))
        projects.append(
            Project(
                name=f"{kind} - {location.address.city}",
                client=f"{location.address.city.split()[0]} {rng.choice(CLIENT_WORDS)} "
                f"{rng.choice(('LLC', 'Inc.'))}",
                city=location.address.city,
                state=rng.choice(states) if rng.random() < 0.1 else location.address.state,
                contract_value=float(
                    round_to(world.insured.annual_revenue * rng.uniform(0.02, 0.25), 5000)
                ),
                start_date=iso(start),
                completion_date=iso(finish),
            )
        )
    projects.sort(key=lambda p: (p.start_date, p.name))
    return ContractorFacts(
        residential_percent=work[0],
        commercial_percent=work[1],
        industrial_percent=work[2],
        new_construction_percent=rng.choice(range(10, 95, 5)),
        subcontracted_cost=float(cost),
        max_stories=rng.randint(1, 6),
        projects=tuple(projects),
        answers=answer_all(rng, CONTRACTOR_QUESTIONS),
    )


def _restaurant(rng: random.Random, world: World) -> RestaurantFacts:
    revenue = round(world.insured.annual_revenue)
    liquor = round_to(revenue * rng.uniform(0.12, 0.42), 1000)
    answers = answer_all(rng, RESTAURANT_QUESTIONS)
    late = next(a.answer for a in answers if a.question == "late_hours")
    return RestaurantFacts(
        seating_capacity=rng.randint(8, 52) * 5,
        opening_time=rng.choice(("7:00 AM", "10:30 AM", "11:00 AM", "11:30 AM", "4:00 PM")),
        closing_time=rng.choice(("1:00 AM", "2:00 AM"))
        if late
        else rng.choice(("9:00 PM", "10:00 PM", "10:30 PM", "11:00 PM", "11:30 PM")),
        food_sales=float(revenue - liquor),
        liquor_sales=float(liquor),
        answers=answers,
    )


def _habitational(rng: random.Random, world: World, basis: str) -> HabitationalFacts:
    monthly = basis == "Monthly"
    residences = []
    for building in world.buildings():
        per_unit = rng.uniform(800, 1150) if monthly else rng.uniform(380, 540)
        rate = round_to(rng.uniform(850, 2600), 25) if monthly else round(rng.uniform(89, 289))
        residences.append(
            Residence(
                location_number=building.location_number,
                building_number=building.building_number,
                units=max(2, round(building.square_feet / per_unit)),
                occupancy_percent=rng.randint(78, 99),
                average_rate=float(rate),
            )
        )
    return HabitationalFacts(
        rental_basis=basis,
        residences=tuple(residences),
        answers=answer_all(rng, HABITATIONAL_QUESTIONS),
    )


# General questions the world already answers: the application's own underwriting answers,
# or a fact of every building (id -> the application's question id, or a building test).
GENERAL_FROM_APPLICATION = {
    "declined_cancelled": "declined_cancelled",
    "safety_program": "safety_program",
    "code_violations": "fire_code_violations",
}
NON_RENEWAL_YEARS = 3


def all_sprinklered(world: World) -> bool:
    return all(b.sprinklered_percent == 100 for b in world.buildings())


def all_central_alarm(world: World) -> bool:
    return all(b.fire_alarm == "Central Station" for b in world.buildings())


GENERAL_FROM_BUILDINGS = {"fully_sprinklered": all_sprinklered, "central_alarm": all_central_alarm}


def non_renewed(world: World, declined: bool) -> tuple[str, ...]:
    """The loss-history terms a carrier did not renew: when the applicant says coverage was
    declined or non-renewed, every term of the past three years after which the line moved
    to another carrier (a move the applicant asked for is the cancellation request, at the
    expiring term, which the history never follows)."""
    if not declined:
        return ()
    effective = dt.date.fromisoformat(world.policy.effective_date)
    since = add_years(effective, -NON_RENEWAL_YEARS).isoformat()
    out = []
    for term in world.loss_history.terms:
        following = next(
            (
                t
                for t in world.loss_history.terms
                if t.line == term.line and t.effective_date == term.expiration_date
            ),
            None,
        )
        if (
            following is not None
            and following.carrier != term.carrier
            and term.expiration_date > since
        ):
            out.append(term.policy_number)
    return tuple(out)


def _general(rng: random.Random, world: World) -> GeneralFacts:
    drawn = answer_all(rng, GENERAL_QUESTIONS)
    stated = {a.question: a for a in world.underwriting}
    answers = []
    for question, answer in zip(GENERAL_QUESTIONS, drawn, strict=True):
        if question.id in GENERAL_FROM_APPLICATION:
            given = stated[GENERAL_FROM_APPLICATION[question.id]]
            answer = Answer(
                question=question.id, answer=given.answer, explanation=given.explanation
            )
        elif question.id in GENERAL_FROM_BUILDINGS:
            yes = GENERAL_FROM_BUILDINGS[question.id](world)
            answer = Answer(
                question=question.id,
                answer=yes,
                explanation=question.explanations[0] if yes else None,
            )
        answers.append(answer)
    declined = stated["declined_cancelled"].answer
    return GeneralFacts(answers=tuple(answers), non_renewed=non_renewed(world, declined))


def build_supplements(seed: int, world: World) -> Supplements:
    """The facts of every supplement the world's class of business and lines call for."""
    industry = world.insured.industry
    trucking = (
        world.business_auto is not None
        and world.vehicles
        and (world.cargo is not None or industry == TRUCKING_INDUSTRY)
    )
    contractor = world.insured.nature_of_business == "Contractor" and (
        world.general_liability is not None
    )
    basis = HABITATIONAL_INDUSTRIES.get(industry)
    return Supplements(
        general=_general(stream(seed, "supplement.general"), world),
        trucking=_trucking(stream(seed, "supplement.trucking"), world) if trucking else None,
        contractors=(
            _contractors(stream(seed, "supplement.contractors"), world) if contractor else None
        ),
        restaurant=(
            _restaurant(stream(seed, "supplement.restaurant"), world)
            if industry == RESTAURANT_INDUSTRY
            else None
        ),
        habitational=(
            _habitational(stream(seed, "supplement.habitational"), world, basis) if basis else None
        ),
    )
