"""Driver schedule: invariants of the model over many worlds, and a rendered read-back per tier."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from packetbench.core.leaves import iter_leaves
from packetbench.generator.doctypes.base import variants
from packetbench.generator.doctypes.driver_schedule.build import build
from packetbench.generator.doctypes.driver_schedule.model import DriverSchedule, ScheduledDriver
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import Driver, Vehicle, World
from packetbench.generator.world.tables import drawn_from
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import seeds
from tests.support.values import day

TIERS = tuple(PRESETS)
SEEDS = seeds(40)
PRESET_SEEDS = seeds(3)
# Shrinks the parts of the world the schedule never reads (buildings, loss history,
# financials), so forty worlds per tier stay fast; the driver knobs keep the tier's values.
LIGHT: dict[str, object] = {
    "sov.min_rows": 1,
    "sov.max_rows": 1,
    "loss_run.min_claims": 0,
    "loss_run.max_claims": 0,
    "loss_run.years": 1,
    "financials.years": 1,
}
DOCS = ("driver_schedule_pdf", "driver_schedule_excel")
# A driver schedule comes with the auto line, which the presets add only at N4; every tier
# here carries it so the schedule is tested at every tier's table sizes.
AUTO: dict[str, object] = {"lines": ("property", "auto")}
ENDORSEMENT_CODES = set("HNPSTX")
SCHEMA = document_schema("driver_schedule", DriverSchedule)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
HEADER_FIELDS = 4  # insured, agency, effective date, as-of date: repeated on every PDF page


def age_on(birth: dt.date, when: dt.date) -> int:
    return when.year - birth.year - ((when.month, when.day) < (birth.month, birth.day))


def schedule(
    tier: str,
    seed: int,
    light: bool = False,
) -> tuple[DriverSchedule, World, dict[str, object]]:
    knobs = plain(tier, {**AUTO, **(LIGHT if light else {})})
    world = build_world(seed, knobs)
    doc = build(world, random.Random(sub_seed(seed, "driver_schedule")), knobs)
    return doc, world, drawn_from(seed, knobs)  # N5: one long table, the others shorter


def row_problems(row: ScheduledDriver, as_of: dt.date) -> list[str]:
    """What is implausible about one schedule row on its own."""
    problems: list[str] = []
    tag = f"driver {row.driver_number}"
    birth, hire, mvr = day(row.birth_date), day(row.hire_date), day(row.mvr_date)
    age = age_on(birth, as_of)
    assert row.license_class is not None and row.year_licensed is not None
    if row.license_class.startswith("CDL") and age < 21:
        problems.append(f"{tag}: CDL holder aged {age}")
    if age < 16:
        problems.append(f"{tag}: aged {age}")
    if not birth.year + 16 <= row.year_licensed <= as_of.year:
        problems.append(f"{tag}: licensed {row.year_licensed}, born {birth.year}")
    if not birth < hire <= as_of or age_on(birth, hire) < 16:
        problems.append(f"{tag}: hired {hire} (born {birth}, as of {as_of})")
    if mvr > as_of:
        problems.append(f"{tag}: MVR dated {mvr} after {as_of}")
    if not 0 <= (row.years_experience or 0) <= as_of.year - row.year_licensed:
        problems.append(f"{tag}: {row.years_experience} years experience")
    if row.endorsements is not None:
        codes = {code.strip() for code in row.endorsements.split(",")}
        if not codes <= ENDORSEMENT_CODES or row.license_class not in ("CDL-A", "CDL-B"):
            problems.append(f"{tag}: endorsements {row.endorsements!r} on {row.license_class}")
    assigned = (row.vehicle_number, row.vehicle_description, row.percent_use)
    if None in assigned and assigned != (None, None, None):
        problems.append(f"{tag}: half a vehicle assignment {assigned}")
    if row.percent_use is not None and not 0 < row.percent_use <= 100:
        problems.append(f"{tag}: percent use {row.percent_use}")
    return problems


def world_problems(
    row: ScheduledDriver, drivers: dict[int | None, Driver], vehicles: dict[int | None, Vehicle]
) -> list[str]:
    """Where one schedule row disagrees with the world it was projected from."""
    tag = f"driver {row.driver_number}"
    source = drivers.get(row.driver_number)
    if source is None:
        return [f"{tag}: not in the world"]
    problems: list[str] = []
    expected = {
        "first_name": source.first_name,
        "middle_initial": source.middle_initial,
        "last_name": source.last_name,
        "birth_date": source.birth_date,
        "gender": source.gender,
        "marital_status": source.marital_status,
        "license_number": source.license_number,
        "license_state": source.license_state,
        "license_class": source.license_class,
        "year_licensed": source.year_licensed,
        "hire_date": source.hire_date,
        "position": source.position,
        "years_experience": source.years_experience,
        "mvr_date": source.mvr_date,
        "violation_count": len(source.violations),
        "accident_count": source.accidents,
        "mvr_points": source.points,
        "excluded": "Yes" if source.excluded else "No",
        "endorsements": source.endorsements or None,
        "vehicle_number": source.vehicle_number,
    }
    for name, value in expected.items():
        if getattr(row, name) != value:
            problems.append(f"{tag}: {name} {getattr(row, name)!r} != world {value!r}")
    if (row.mvr_points or 0) < sum(v.points for v in source.violations):
        problems.append(f"{tag}: {row.mvr_points} points below its violations' points")
    if row.vehicle_number is None:
        return problems
    vehicle = vehicles.get(row.vehicle_number)
    if vehicle is None:
        return [*problems, f"{tag}: vehicle {row.vehicle_number} does not exist"]
    if row.vehicle_description != f"{vehicle.year} {vehicle.make} {vehicle.model}":
        problems.append(f"{tag}: vehicle described as {row.vehicle_description!r}")
    if row.percent_use != source.percent_use:
        problems.append(f"{tag}: percent use {row.percent_use} != {source.percent_use}")
    if vehicle.body_type == "Tractor" and row.license_class != "CDL-A":
        problems.append(f"{tag}: drives a tractor on a {row.license_class} licence")
    if vehicle.gvw >= 26_001 and row.license_class not in ("CDL-A", "CDL-B"):
        problems.append(f"{tag}: drives {vehicle.gvw} lb GVW on a {row.license_class} licence")
    return problems


def internal_problems(doc: DriverSchedule, schema: bool = True) -> list[str]:
    """Every invariant the schedule breaks on its own, as readable messages.

    The JSON Schema check is optional only because it is slow on long schedules; the model's
    own validation covers code lists and date formats either way.
    """
    problems: list[str] = []
    data = doc.model_dump(mode="json")
    try:
        DriverSchedule.model_validate(data)
        if schema:
            VALIDATOR.validate(data)
    except (ValueError, jsonschema.ValidationError) as error:
        problems.append(f"invalid: {str(error).splitlines()[0]}")
    as_of = day(doc.as_of_date)
    if not as_of < day(doc.policy_effective_date):
        problems.append("as-of date is not before the effective date")
    if doc.driver_count != len(doc.drivers):
        problems.append(f"driver_count {doc.driver_count} for {len(doc.drivers)} rows")
    numbers = [row.driver_number for row in doc.drivers]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append("driver numbers are not 1..n in order")
    licences = [(row.license_state, row.license_number) for row in doc.drivers]
    if len(set(licences)) != len(licences):
        problems.append("a licence number appears twice")
    for row in doc.drivers:
        problems.extend(row_problems(row, as_of))
    return problems


def problems_of(
    doc: DriverSchedule, world: World, knobs: dict[str, object], schema: bool = True
) -> list[str]:
    """Every invariant broken on its own or against the world (empty when sound)."""
    problems = internal_problems(doc, schema)
    header = (doc.insured_name, doc.agency_name, doc.policy_effective_date, doc.as_of_date)
    if header != (
        world.insured.name,
        world.producer.agency_name,
        world.policy.effective_date,
        world.policy.completion_date,
    ):
        problems.append(f"header {header} disagrees with the world")
    if len(doc.drivers) != len(world.drivers):
        problems.append(f"{len(doc.drivers)} rows for {len(world.drivers)} world drivers")
    low, high = knobs["drivers.min_rows"], knobs["drivers.max_rows"]
    assert isinstance(low, int) and isinstance(high, int)
    if not low <= len(doc.drivers) <= high:
        problems.append(f"{len(doc.drivers)} drivers outside [{low}, {high}]")
    drivers: dict[int | None, Driver] = {d.number: d for d in world.drivers}
    vehicles: dict[int | None, Vehicle] = {v.number: v for v in world.vehicles}
    for row in doc.drivers:
        problems.extend(world_problems(row, drivers, vehicles))
    return problems


@pytest.mark.sweep
@pytest.mark.parametrize("tier", TIERS)
def test_schedule_invariants_hold_over_many_worlds(tier: str) -> None:
    found: dict[str, int] = {}
    cases = [(seed, True) for seed in SEEDS] + [(seed, False) for seed in PRESET_SEEDS]
    for seed, light in cases:
        doc, world, knobs = schedule(tier, seed, light)
        problems = problems_of(doc, world, knobs, schema=not light)
        assert not problems, f"{tier} seed {seed} (light {light}): {problems[:5]}"
        for row in doc.drivers:
            found[row.license_class or ""] = found.get(row.license_class or "", 0) + 1
            found["unassigned"] = found.get("unassigned", 0) + (row.vehicle_number is None)
            found["endorsed"] = found.get("endorsed", 0) + (row.endorsements is not None)
    # The seeds reach the interesting cases, so the checks above were exercised.
    assert found.get("Regular", 0) and found.get("CDL-C", 0)
    if tier != "N1":
        assert found["unassigned"] and found.get("CDL-A", 0) and found["endorsed"]


Mutation = Callable[[DriverSchedule, ScheduledDriver], object]


def _years_before(iso: str | None, years: int) -> str:
    return day(iso).replace(month=1, day=1, year=day(iso).year - years).isoformat()


# Each breaks one invariant of a sound row; (mutation, world-independent?, message fragment).
MUTATIONS: dict[str, tuple[Mutation, bool, str]] = {
    "count": (
        lambda doc, row: setattr(doc, "driver_count", len(doc.drivers) + 1),
        True,
        "driver_count",
    ),
    "numbering": (lambda doc, row: setattr(row, "driver_number", 99), True, "1..n"),
    "late hire": (
        lambda doc, row: setattr(row, "hire_date", doc.policy_effective_date),
        True,
        "hired",
    ),
    "young CDL": (
        lambda doc, row: row.__dict__.update(
            license_class="CDL-C",
            birth_date=_years_before(doc.as_of_date, 20),
            year_licensed=day(doc.as_of_date).year - 3,
            years_experience=0,
            hire_date=doc.as_of_date,
            endorsements=None,
        ),
        True,
        "CDL holder aged",
    ),
    "early licence": (
        lambda doc, row: setattr(row, "year_licensed", day(row.birth_date).year + 15),
        True,
        "licensed",
    ),
    "experience": (
        lambda doc, row: setattr(
            row, "years_experience", day(doc.as_of_date).year - (row.year_licensed or 0) + 1
        ),
        True,
        "years experience",
    ),
    "endorsed regular": (
        lambda doc, row: row.__dict__.update(license_class="Regular", endorsements="H"),
        True,
        "endorsements",
    ),
    "half assignment": (lambda doc, row: setattr(row, "percent_use", None), True, "half a vehicle"),
    "bad enum": (lambda doc, row: setattr(row, "marital_status", "Engaged"), True, "invalid"),
    "points": (
        lambda doc, row: setattr(row, "mvr_points", (row.mvr_points or 0) + 1),
        False,
        "mvr_points",
    ),
    "violations": (lambda doc, row: setattr(row, "violation_count", 99), False, "violation_count"),
    "excluded": (
        lambda doc, row: setattr(row, "excluded", "No" if row.excluded == "Yes" else "Yes"),
        False,
        "excluded",
    ),
    "vehicle": (
        lambda doc, row: setattr(row, "vehicle_description", "1999 Nothing"),
        False,
        "described",
    ),
    "header": (lambda doc, row: setattr(doc, "insured_name", "Someone Else LLC"), False, "header"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_invariant_checks_catch_a_broken_schedule(name: str) -> None:
    mutate, internal, fragment = MUTATIONS[name]
    doc, world, knobs = schedule("N2", 3)
    assert not problems_of(doc, world, knobs)
    row = next(r for r in doc.drivers if r.vehicle_number is not None)
    mutate(doc, row)
    problems = internal_problems(doc) if internal else problems_of(doc, world, knobs)
    assert any(fragment in problem for problem in problems), problems


@pytest.mark.sweep
def test_unassigned_driver_has_no_vehicle_cells() -> None:
    for seed in SEEDS:
        doc, world, _ = schedule("N3", seed)
        for row, source in zip(doc.drivers, world.drivers, strict=True):
            if source.vehicle_number is None:
                assert source.percent_use == 0.0  # the world's 0 becomes a blank cell
                assert (row.vehicle_number, row.vehicle_description, row.percent_use) == (
                    None,
                    None,
                    None,
                )
                return
    pytest.fail("no unassigned driver in any N3 seed")


def test_build_is_deterministic() -> None:
    first, _, _ = schedule("N3", 11)
    second, _, _ = schedule("N3", 11)
    assert first.model_dump() == second.model_dump()


def _non_null_leaves(truth: dict[str, object]) -> int:
    doc = DriverSchedule.model_validate(truth)
    return sum(value is not None for _, value, _ in iter_leaves(doc))


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_rendered_documents_read_back(tier: str, tmp_path: Path) -> None:
    # N5 is pinned to its ceiling so the longest table (500 rows) is rendered and read back.
    overrides: dict[str, object] = {**AUTO, "documents": DOCS}
    if tier == "N5":
        overrides["drivers.min_rows"] = PRESETS["N5"].knobs["drivers.max_rows"]
    knobs = plain(tier, overrides)
    seed = 1
    built = build_packet(tier, seed, knobs)
    for name, data in built.files.items():
        (tmp_path / name).write_bytes(data)
    # The packet's own world, as written to packet_truth.json.
    world = World.model_validate(json.loads(built.files["packet_truth.json"])["world"])
    expected = build(world, random.Random(sub_seed(seed, "driver_schedule")), knobs)
    if tier == "N5":
        assert len(expected.drivers) == 500
    for doc_id in DOCS:
        truth_file = json.loads((tmp_path / f"document_truth_{doc_id}.json").read_text())
        truth = truth_file["truth"]
        VALIDATOR.validate(truth)
        # Nothing is omitted: the truth is the whole model.
        assert truth == expected.model_dump(mode="json")
        checked, bad = check_document(tmp_path, doc_id)
        assert not bad, f"{doc_id}: {bad[:3]}"
        leaves = _non_null_leaves(truth)
        repeats = 0
        if variants()[doc_id][1].format == "pdf":
            repeats = HEADER_FIELDS * (built.pages[doc_id] - 1)
        assert checked == leaves + repeats
        strings = {
            s["text"]
            for s in json.loads((tmp_path / f"rendered_universe_{doc_id}.json").read_text())[
                "strings"
            ]
        }
        assert "DRIVER SCHEDULE" in strings


def test_pdf_draws_abbreviations_and_xlsx_full_names(tmp_path: Path) -> None:
    built = build_packet("N2", 2, plain("N2", {**AUTO, "documents": DOCS}))
    rendered = {}
    for doc_id in DOCS:
        fields = json.loads(built.files[f"field_truth_{doc_id}.json"])["fields"]
        rendered[doc_id] = {f["path"]: f["rendered_as"] for f in fields}
    pdf, xlsx = rendered["driver_schedule_pdf"], rendered["driver_schedule_excel"]
    assert pdf["drivers[0].gender"] in ("M", "F")
    assert xlsx["drivers[0].gender"] in ("Male", "Female")
    assert len(pdf["drivers[0].marital_status"]) == 1
    assert len(xlsx["drivers[0].marital_status"]) > 1
    assert pdf["driver_count"] == xlsx["driver_count"]


def test_packet_bytes_are_reproducible() -> None:
    knobs = plain("N2", {**AUTO, "documents": DOCS})
    assert build_packet("N2", 5, knobs).files == build_packet("N2", 5, knobs).files
