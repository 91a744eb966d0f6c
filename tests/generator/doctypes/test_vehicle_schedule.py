"""The broker's vehicle schedule: agreement with the world and its own totals over 200 worlds
per tier, mutations the checks must catch, and a rendered read-back of both formats."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from packetbench.core.leaves import iter_leaves
from packetbench.generator.doctypes.vehicle_schedule.build import build
from packetbench.generator.doctypes.vehicle_schedule.model import ScheduledUnit, VehicleSchedule
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import seeds
from tests.support.values import cents

TIERS = tuple(PRESETS)
AUTO: dict[str, object] = {"lines": ("property", "auto")}
# Shrinks what the schedule never reads; the driver knobs (vehicle counts) keep the tier's.
LIGHT: dict[str, object] = {
    "sov.min_rows": 1,
    "sov.max_rows": 3,
    "loss_run.min_claims": 0,
    "loss_run.max_claims": 0,
    "loss_run.years": 1,
    "financials.years": 1,
}
SEEDS = seeds(200)
DOCS = ("vehicle_schedule_pdf", "vehicle_schedule_excel")
SCHEMA = document_schema("vehicle_schedule", VehicleSchedule)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
# VIN check digit (position 9): letter values and position weights of ISO 3779 / 49 CFR 565.
VIN_VALUES = {
    **{str(d): d for d in range(10)},
    **dict(
        zip(
            "ABCDEFGHJKLMNPRSTUVWXYZ",
            (1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9),
            strict=True,
        )
    ),
}
VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin_ok(vin: str | None) -> bool:
    if vin is None or len(vin) != 17 or any(c not in VIN_VALUES for c in vin):
        return False
    total = sum(VIN_VALUES[c] * w for c, w in zip(vin, VIN_WEIGHTS, strict=True)) % 11
    return vin[8] == ("X" if total == 10 else str(total))


def schedule(tier: str, seed: int, light: bool = True) -> tuple[VehicleSchedule, World]:
    knobs = plain(tier, {**AUTO, **(LIGHT if light else {})})
    world = build_world(seed, knobs)
    return build(world, random.Random(sub_seed(seed, "vehicle_schedule")), knobs), world


def internal_problems(doc: VehicleSchedule) -> list[str]:
    """The schedule's own rules: numbering, VINs, values, deductibles, totals."""
    problems: list[str] = []
    try:
        VehicleSchedule.model_validate(doc.model_dump(mode="json"))
    except ValueError as error:
        problems.append(f"invalid: {str(error).splitlines()[0]}")
    if [u.unit_number for u in doc.units] != list(range(1, len(doc.units) + 1)):
        problems.append("unit numbers are not 1..n in order")
    if len({u.vin for u in doc.units}) != len(doc.units):
        problems.append("a VIN appears twice")
    effective = dt.date.fromisoformat(doc.policy_effective_date or "")
    for unit in doc.units:
        tag = f"unit {unit.unit_number}"
        if not vin_ok(unit.vin):
            problems.append(f"{tag}: VIN {unit.vin} fails its check digit")
        if not 0 < cents(unit.stated_amount) <= cents(unit.cost_new):
            problems.append(f"{tag}: stated {unit.stated_amount} vs cost new {unit.cost_new}")
        elif unit.stated_amount != unit.cost_new and cents(unit.stated_amount) % 50_000:
            problems.append(f"{tag}: stated {unit.stated_amount} not in $500 steps")
        if unit.year is None or not effective.year - 15 <= unit.year <= effective.year:
            problems.append(f"{tag}: model year {unit.year}")
        if (unit.comprehensive_deductible is None) != (unit.collision_deductible is None):
            problems.append(f"{tag}: half a physical-damage coverage")
        if (unit.lienholder is None) != (unit.ownership == "Owned"):
            problems.append(f"{tag}: lienholder {unit.lienholder!r} on a {unit.ownership} unit")
    totals = doc.totals
    if totals.vehicle_count != len(doc.units):
        problems.append(f"vehicle_count {totals.vehicle_count} for {len(doc.units)} units")
    for key in ("cost_new", "stated_amount"):
        total = sum(cents(getattr(u, key)) for u in doc.units)
        if cents(getattr(totals, key)) != total:
            problems.append(f"total {key} {getattr(totals, key)} != sum {total / 100}")
    return problems


def problems_of(doc: VehicleSchedule, world: World) -> list[str]:
    """The schedule's own rules and its agreement with the world's fleet."""
    problems = internal_problems(doc)
    header = (
        doc.insured_name,
        doc.agency_name,
        doc.prepared_by,
        doc.policy_effective_date,
        doc.as_of_date,
    )
    if header != (
        world.insured.name,
        world.producer.agency_name,
        world.preparer.name,
        world.policy.effective_date,
        world.policy.completion_date,
    ):
        problems.append(f"header {header} disagrees with the world")
    auto = world.business_auto
    assert auto is not None
    if len(doc.units) != len(world.vehicles):
        return [*problems, f"{len(doc.units)} units for {len(world.vehicles)} vehicles"]
    for row, vehicle, unit in zip(doc.units, world.vehicles, auto.units, strict=True):
        tag = f"unit {row.unit_number}"
        place = world.location(vehicle.garage_location).address
        expected = {
            "year": vehicle.year,
            "make": vehicle.make,
            "model": vehicle.model,
            "vin": vehicle.vin,
            "gvw": vehicle.gvw,
            "cost_new": vehicle.cost_new,
            "use": unit.use,
            "radius": unit.radius,
            "ownership": unit.ownership,
            "size_class": unit.size_class,
            "comprehensive_deductible": unit.comprehensive_deductible,
            "collision_deductible": unit.collision_deductible,
        }
        for name, value in expected.items():
            if getattr(row, name) != value:
                problems.append(f"{tag}: {name} {getattr(row, name)!r} != world {value!r}")
        garage = (row.garaging.street, row.garaging.city, row.garaging.state, row.garaging.zip)
        if garage != (place.street, place.city, place.state, place.zip):
            problems.append(f"{tag}: garaged at {garage}, not location {vehicle.garage_location}")
        if row.garaging.state != unit.registration_state:
            problems.append(
                f"{tag}: garaged in {row.garaging.state}, registered in {unit.registration_state}"
            )
        lenders = {i.name for i in world.interests if i.vehicle_number == vehicle.number}
        if row.lienholder is not None and row.lienholder not in lenders:
            problems.append(f"{tag}: lienholder {row.lienholder} holds no interest in it")
        drivers = [d for d in world.drivers if d.vehicle_number == vehicle.number]
        names = {f"{d.first_name} {d.last_name}": d.percent_use for d in drivers}
        if row.principal_driver is None:
            if drivers:
                problems.append(f"{tag}: no principal driver among {sorted(names)}")
        elif row.principal_driver not in names or names[row.principal_driver] < max(names.values()):
            problems.append(f"{tag}: principal driver {row.principal_driver} of {names}")
    return problems


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.sweep
def test_schedule_invariants_hold_over_many_worlds(tier: str) -> None:
    seen = {"financed": 0, "leased": 0, "no damage": 0, "no driver": 0, "new": 0}
    cases = [(seed, True) for seed in SEEDS] + [(seed, False) for seed in range(1, 3)]
    for seed, light in cases:
        doc, world = schedule(tier, seed, light)
        problems = problems_of(doc, world)
        assert not problems, f"{tier} seed {seed}: {problems[:5]}"
        for unit in doc.units:
            seen["financed"] += unit.ownership == "Financed"
            seen["leased"] += unit.ownership == "Leased"
            seen["no damage"] += unit.collision_deductible is None
            seen["no driver"] += unit.principal_driver is None
            seen["new"] += unit.stated_amount == unit.cost_new
        if seed <= 3:
            VALIDATOR.validate(doc.model_dump(mode="json"))
    # The seeds reach every branch the checks above distinguish.
    assert all(seen.values()), seen


Mutation = Callable[[VehicleSchedule, ScheduledUnit], object]
MUTATIONS: dict[str, tuple[Mutation, str]] = {
    "count": (
        lambda doc, unit: setattr(doc.totals, "vehicle_count", len(doc.units) + 1),
        "vehicle_count",
    ),
    "cost total": (
        lambda doc, unit: setattr(doc.totals, "cost_new", (doc.totals.cost_new or 0) + 1),
        "total cost_new",
    ),
    "stated": (
        lambda doc, unit: setattr(unit, "stated_amount", (unit.cost_new or 0) + 500),
        "stated",
    ),
    "vin": (
        lambda doc, unit: setattr(
            unit,
            "vin",
            (unit.vin or "")[:-1] + "0"
            if (unit.vin or "").endswith("1")
            else (unit.vin or "")[:8] + "Z" + (unit.vin or "")[9:],
        ),
        "VIN",
    ),
    "garage": (lambda doc, unit: setattr(unit.garaging, "city", "Nowhere"), "garaged"),
    "driver": (
        lambda doc, unit: setattr(unit, "principal_driver", "Nobody Atall"),
        "principal driver",
    ),
    "lienholder": (lambda doc, unit: setattr(unit, "lienholder", None), "lienholder"),
    "deductible": (
        lambda doc, unit: setattr(unit, "collision_deductible", None),
        "physical-damage",
    ),
    "header": (lambda doc, unit: setattr(doc, "prepared_by", "Someone Else"), "header"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_invariant_checks_catch_a_broken_schedule(name: str) -> None:
    mutate, fragment = MUTATIONS[name]
    doc, world = next(
        (d, w)
        for d, w in (schedule("N3", s) for s in range(1, 40))
        if any(
            u.ownership == "Financed" and u.principal_driver and u.collision_deductible
            for u in d.units
        )
    )
    assert not problems_of(doc, world)
    unit = next(
        u
        for u in doc.units
        if u.ownership == "Financed" and u.principal_driver and u.collision_deductible
    )
    mutate(doc, unit)
    problems = problems_of(doc, world)
    assert any(fragment in problem for problem in problems), problems


@pytest.mark.parametrize("tier", TIERS)
def test_rendered_documents_read_back(tier: str, tmp_path: Path) -> None:
    knobs = plain(tier, {**AUTO, "documents": DOCS})
    seed = 2
    built = build_packet(tier, seed, knobs)
    for name, data in built.files.items():
        (tmp_path / name).write_bytes(data)
    world = World.model_validate(json.loads(built.files["packet_truth.json"])["world"])
    expected = build(world, random.Random(sub_seed(seed, "vehicle_schedule")), knobs)
    non_null = [path for path, value, _ in iter_leaves(expected) if value is not None]
    header = 4  # insured, agency, effective date, as-of date repeat on every PDF page
    for doc_id in DOCS:
        truth = json.loads((tmp_path / f"document_truth_{doc_id}.json").read_text())["truth"]
        VALIDATOR.validate(truth)
        assert truth == expected.model_dump(mode="json")
        fields = json.loads((tmp_path / f"field_truth_{doc_id}.json").read_text())["fields"]
        assert [f["path"] for f in fields] == non_null
        checked, bad = check_document(tmp_path, doc_id)
        assert bad == [], f"{doc_id}: {bad[:3]}"
        repeats = header * (built.pages[doc_id] - 1) if doc_id.endswith("_pdf") else 0
        assert checked == len(non_null) + repeats
        rendered = {f["path"]: f["rendered_as"] for f in fields}
        radius = rendered["units[0].radius"]
        assert (radius in ("L", "I", "LD")) == doc_id.endswith("_pdf"), radius


def test_packet_bytes_are_reproducible() -> None:
    knobs = plain("N4", {**AUTO, "documents": DOCS})
    assert build_packet("N4", 3, knobs).files == build_packet("N4", 3, knobs).files
