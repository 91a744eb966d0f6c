"""Supplemental applications (trucking, contractors, restaurant, habitational): which packets
carry which, each variant's arithmetic and agreement with the world over 100 worlds per tier,
mutations the checks must catch, and a rendered read-back of every variant at every tier."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from packetbench.core.leaves import DocModel, iter_leaves
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.doctypes.common import signature_of
from packetbench.generator.doctypes.supplemental import model
from packetbench.generator.fakers import supplements as questions
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import seeds
from tests.support.values import half_up

TIERS = tuple(PRESETS)
VARIANTS = ("trucking", "contractors", "restaurant", "habitational")
ALL_LINES: dict[str, object] = {"lines": ("property", "gl", "wc", "auto", "umbrella", "cargo")}
LIGHT: dict[str, object] = {
    "loss_run.min_claims": 0,
    "loss_run.max_claims": 0,
    "loss_run.years": 1,
    "financials.years": 1,
    "drivers.min_rows": 1,
}
SEEDS = seeds(100)
QUESTIONS: dict[str, tuple[type[Any], tuple[Any, ...]]] = {
    "trucking": (model.TruckingAnswers, questions.TRUCKING_QUESTIONS),
    "contractors": (model.ContractorAnswers, questions.CONTRACTOR_QUESTIONS),
    "restaurant": (model.RestaurantAnswers, questions.RESTAURANT_QUESTIONS),
    "habitational": (model.HabitationalAnswers, questions.HABITATIONAL_QUESTIONS),
}
VALIDATORS = {
    v: jsonschema.Draft202012Validator(
        document_schema(f"supplemental_{v}", DOC_TYPES[f"supplemental_{v}"].model)
    )
    for v in VARIANTS
}
HEADER_LINES = {
    "trucking": ("auto",),
    "contractors": ("gl",),
    "restaurant": ("gl", "property"),
    "habitational": ("property", "gl"),
}


def percent(part: float | None, whole: float | None) -> float:
    assert part is not None and whole
    return float(half_up(Fraction(round(part)) * 100 / round(whole), 1))


def built(variant: str, world: World, seed: int) -> Any:
    name = f"supplemental_{variant}"
    return DOC_TYPES[name].build(world, random.Random(sub_seed(seed, name)), {})


def common_problems(variant: str, doc: Any, world: World) -> list[str]:
    problems: list[str] = []
    line = next((line for line in HEADER_LINES[variant] if world.carries(line)), None)
    number = world.policy_line(line).policy_number if line else world.policy.number
    if (doc.header.policy_number, doc.header.named_insured) != (number, world.insured.name):
        problems.append(f"header {doc.header.policy_number} / {doc.header.named_insured}")
    start = dt.date.fromisoformat(world.insured.business_start_date)
    done = dt.date.fromisoformat(world.policy.completion_date)
    if not (done - start).days // 366 <= (doc.years_in_business or 0) <= (done - start).days // 365:
        problems.append(f"years in business {doc.years_in_business}")
    if doc.signature != signature_of(world):
        problems.append("signature block disagrees with the world")
    for field in QUESTIONS[variant][0].model_fields:
        answer = getattr(doc.answers, field)
        if (answer.answer == "Yes") != (answer.explanation is not None):
            problems.append(f"question {field}: {answer.answer} with {answer.explanation!r}")
    return problems


def trucking_problems(doc: model.TruckingSupplement, world: World) -> list[str]:
    problems: list[str] = []
    o, auto = doc.operations, world.business_auto
    assert auto is not None
    shares = (o.local_percent, o.intermediate_percent, o.long_distance_percent)
    if sum(s or 0 for s in shares) != 100:
        problems.append(f"radius shares {shares} do not sum to 100")
    for share, radius in zip(shares, ("Local", "Intermediate", "Long Distance"), strict=True):
        exact = 100 * sum(u.radius == radius for u in auto.units) / len(auto.units)
        if abs((share or 0) - exact) >= 1:
            problems.append(f"{radius} share {share} for {exact:.2f}% of the units")
    if (o.power_units, o.drivers) != (len(world.vehicles), len(world.drivers)):
        problems.append(f"{o.power_units} units / {o.drivers} drivers disagree with the fleet")
    if not any(v.body_type == "Tractor" for v in world.vehicles) and o.trailers:
        problems.append(f"{o.trailers} trailers without a tractor")
    loads = [c.percent_of_loads or 0 for c in doc.commodities]
    if sum(loads) != 100 or any(p % 5 or p <= 0 for p in loads):
        problems.append(f"commodity shares {loads}")
    hazardous = next(a.answer for a in auto.answers if a.question == "hazardous_cargo")
    if (doc.answers.hazmat.answer == "Yes") != hazardous:
        problems.append("hazmat answer disagrees with the auto section")
    if world.cargo and (doc.answers.refrigerated.answer == "Yes") != world.cargo.refrigeration:
        problems.append("refrigerated answer disagrees with the cargo section")
    if (doc.answers.owner_operators.answer == "Yes") != bool(o.owner_operators):
        problems.append(f"{o.owner_operators} owner-operators")
    return problems


def contractors_problems(doc: model.ContractorsSupplement, world: World) -> list[str]:
    problems: list[str] = []
    w, gl = doc.work, world.general_liability
    assert gl is not None
    mix = (w.residential_percent, w.commercial_percent, w.industrial_percent)
    if sum(m or 0 for m in mix) != 100:
        problems.append(f"work mix {mix}")
    if (w.new_construction_percent or 0) + (w.remodel_percent or 0) != 100:
        problems.append("new construction and remodel do not sum to 100")
    rated = next(h.exposure for h in gl.hazards if h.class_code == "91583")
    if w.subcontracted_cost != rated:
        problems.append(f"subcontracted cost {w.subcontracted_cost} != GL exposure {rated}")
    if w.annual_receipts != world.insured.annual_revenue:
        problems.append("receipts disagree with the insured's revenue")
    if w.subcontracted_percent != percent(w.subcontracted_cost, w.annual_receipts):
        problems.append(f"subcontracted percent {w.subcontracted_percent}")
    states = {loc.address.state for loc in world.locations}
    for project in doc.projects:
        if not (project.start_date or "") <= (project.completion_date or ""):
            problems.append(f"project {project.project_name} ends before it starts")
        if (project.start_date or "") > world.policy.completion_date:
            problems.append(f"project {project.project_name} starts after the application")
        if project.state not in states:
            problems.append(f"project in {project.state}, outside the insured's states")
    return problems


def restaurant_problems(doc: model.RestaurantSupplement, world: World) -> list[str]:
    problems: list[str] = []
    o, s = doc.operations, doc.sales
    food, liquor, total = (
        round((v or 0) * 100) for v in (s.food_sales, s.liquor_sales, s.total_sales)
    )
    if food + liquor != total or s.total_sales != world.insured.annual_revenue:
        problems.append(f"sales {s.food_sales} + {s.liquor_sales} != {s.total_sales}")
    if o.liquor_percent != percent(s.liquor_sales, s.total_sales):
        problems.append(f"liquor percent {o.liquor_percent}")
    late = (o.closing_time or "").endswith("AM")
    if late != (doc.answers.late_hours.answer == "Yes"):
        problems.append(f"closes {o.closing_time} but late hours {doc.answers.late_hours}")
    return problems


def habitational_problems(doc: model.HabitationalSupplement, world: World) -> list[str]:
    problems: list[str] = []
    buildings = world.buildings()
    if len(doc.residences) != len(buildings):
        return [f"{len(doc.residences)} rows for {len(buildings)} buildings"]
    for row, building in zip(doc.residences, buildings, strict=True):
        expected = (
            building.location_number,
            building.building_number,
            building.address.street,
            building.address.city,
            building.address.state,
            building.year_built,
            building.stories,
        )
        found = (
            row.location_number,
            row.building_number,
            row.street,
            row.city,
            row.state,
            row.year_built,
            row.stories,
        )
        if found != expected:
            problems.append(f"row {found} is not building {expected}")
        if not 0 < (row.occupancy_percent or 0) <= 100 or not (row.units or 0) >= 2:
            problems.append(f"row {found[:2]}: {row.units} units at {row.occupancy_percent}%")
    if doc.unit_count != sum(r.units or 0 for r in doc.residences):
        problems.append(f"total units {doc.unit_count}")
    basis = {"apartment owner": "Monthly", "hotel operator": "Nightly"}[world.insured.industry]
    if doc.rental_basis != basis:
        problems.append(f"rental basis {doc.rental_basis} for {world.insured.industry}")
    return problems


CHECKS: dict[str, Callable[[Any, World], list[str]]] = {
    "trucking": trucking_problems,
    "contractors": contractors_problems,
    "restaurant": restaurant_problems,
    "habitational": habitational_problems,
}


def problems_of(variant: str, doc: Any, world: World) -> list[str]:
    return common_problems(variant, doc, world) + CHECKS[variant](doc, world)


def expected_variants(world: World) -> set[str]:
    """Which supplements a world's class of business and lines call for."""
    out = set()
    industry = world.insured.industry
    if (
        world.business_auto
        and world.vehicles
        and (world.cargo or industry == "general freight trucking")
    ):
        out.add("trucking")
    if world.insured.nature_of_business == "Contractor" and world.general_liability:
        out.add("contractors")
    if industry == "full-service restaurant":
        out.add("restaurant")
    if industry in ("apartment owner", "hotel operator"):
        out.add("habitational")
    return out


def test_answers_models_follow_their_question_banks() -> None:
    for answers, bank in QUESTIONS.values():
        assert list(answers.model_fields) == [q.id for q in bank]


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_supplement_invariants_hold_over_many_worlds(tier: str) -> None:
    seen = dict.fromkeys(VARIANTS, 0)
    for lines in (None, ALL_LINES):
        knobs = plain(tier, {**LIGHT, **(lines or {})})
        for seed in SEEDS if lines else range(1, 41):
            world = build_world(seed, knobs)
            carried = {v for v in VARIANTS if DOC_TYPES[f"supplemental_{v}"].carried_by(world)}
            assert carried == expected_variants(world), (tier, seed)
            for variant in sorted(carried):
                doc = built(variant, world, seed)
                problems = problems_of(variant, doc, world)
                assert not problems, f"{tier} seed {seed} {variant}: {problems[:5]}"
                if seed <= 3 or seen[variant] < 2:
                    VALIDATORS[variant].validate(doc.model_dump(mode="json"))
                seen[variant] += 1
    assert all(seen.values()), seen


def _found(variant: str) -> tuple[Any, World]:
    knobs = plain("N3", {**ALL_LINES, **LIGHT})
    for seed in range(1, 200):
        world = build_world(seed, knobs)
        if variant in expected_variants(world):
            return built(variant, world, seed), world
    raise AssertionError(f"no world carries the {variant} supplement")


Mutation = Callable[[Any], object]
MUTATIONS: dict[str, tuple[str, Mutation, str]] = {
    "radius": (
        "trucking",
        lambda d: setattr(d.operations, "local_percent", (d.operations.local_percent or 0) + 1),
        "radius",
    ),
    "units": ("trucking", lambda d: setattr(d.operations, "power_units", 0), "units"),
    "loads": (
        "trucking",
        lambda d: setattr(d.commodities[0], "percent_of_loads", 1.0),
        "commodity",
    ),
    "hazmat": (
        "trucking",
        lambda d: d.answers.hazmat.__dict__.update(
            answer="No" if d.answers.hazmat.answer == "Yes" else "Yes"
        ),
        "hazmat",
    ),
    "mix": ("contractors", lambda d: setattr(d.work, "industrial_percent", 99.0), "work mix"),
    "subcontracted": (
        "contractors",
        lambda d: setattr(d.work, "subcontracted_percent", 99.9),
        "subcontracted percent",
    ),
    "project": (
        "contractors",
        lambda d: setattr(d.projects[0], "completion_date", "1999-01-01"),
        "ends before",
    ),
    "sales": ("restaurant", lambda d: setattr(d.sales, "liquor_sales", 1.0), "sales"),
    "closing": (
        "restaurant",
        lambda d: setattr(
            d.operations,
            "closing_time",
            "2:00 AM" if d.answers.late_hours.answer == "No" else "9:00 PM",
        ),
        "late hours",
    ),
    "total units": ("habitational", lambda d: setattr(d, "unit_count", 1), "total units"),
    "building": (
        "habitational",
        lambda d: setattr(d.residences[0], "year_built", 1800),
        "is not building",
    ),
    "explanation": (
        "habitational",
        lambda d: d.answers.pool.__dict__.update(answer="Yes", explanation=None),
        "question pool",
    ),
    "signature": (
        "restaurant",
        lambda d: setattr(d.signature, "signer_name", "Nobody"),
        "signature",
    ),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_invariant_checks_catch_a_broken_supplement(name: str) -> None:
    variant, mutate, fragment = MUTATIONS[name]
    doc, world = _found(variant)
    assert not problems_of(variant, doc, world)
    mutate(doc)
    problems = problems_of(variant, doc, world)
    assert any(fragment in problem for problem in problems), problems


def _non_null(doc: DocModel) -> list[str]:
    return [path for path, value, _ in iter_leaves(doc) if value is not None]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("tier", TIERS)
def test_rendered_supplement_reads_back(tier: str, variant: str, tmp_path: Path) -> None:
    name = f"supplemental_{variant}"
    knobs = plain(tier, ALL_LINES)
    seed = next(s for s in range(1, 300) if DOC_TYPES[name].carried_by(build_world(s, knobs)))
    packet = build_packet(tier, seed, plain(tier, {**ALL_LINES, "documents": (name,)}))
    for file, data in packet.files.items():
        (tmp_path / file).write_bytes(data)
    world = World.model_validate(json.loads(packet.files["packet_truth.json"])["world"])
    expected = built(variant, world, seed)
    truth = json.loads((tmp_path / f"document_truth_{name}.json").read_text())["truth"]
    VALIDATORS[variant].validate(truth)
    assert truth == expected.model_dump(mode="json")
    fields = json.loads((tmp_path / f"field_truth_{name}.json").read_text())["fields"]
    assert [f["path"] for f in fields] == _non_null(expected)
    checked, bad = check_document(tmp_path, name)
    assert bad == [], bad[:3]
    assert checked >= len(fields)
    # The policy identification repeats on every page.
    number = next(f for f in fields if f["path"] == "header.policy_number")
    pages = packet.pages[name]
    assert sorted({loc["page"] for loc in number["locations"]}) == list(range(1, pages + 1))


def test_packet_bytes_are_reproducible() -> None:
    knobs = plain("N5", {"documents": tuple(f"supplemental_{v}" for v in VARIANTS)})
    assert build_packet("N5", 4, knobs).files == build_packet("N5", 4, knobs).files
