"""The broker's account workbook: agreement with the packet's other documents (SOV, loss run,
vehicle and driver schedules) over 200 worlds per tier, mutations the checks must catch, and
a read-back of every sheet per tier."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import openpyxl
import pytest

from packetbench.core.leaves import iter_leaves
from packetbench.generator.doctypes.broker_workbook.build import build
from packetbench.generator.doctypes.broker_workbook.model import BrokerWorkbook
from packetbench.generator.doctypes.driver_schedule.build import build as build_drivers
from packetbench.generator.doctypes.loss_run.build import build as build_loss_run
from packetbench.generator.doctypes.sov.build import build as build_sov
from packetbench.generator.doctypes.vehicle_schedule.build import build as build_vehicles
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
AUTO: dict[str, object] = {"lines": ("property", "gl", "auto")}
NO_AUTO: dict[str, object] = {"lines": ("property", "gl")}
# Smaller tables than the tiers' (the checks are the same), so 200 worlds per tier stay fast.
LIGHT: dict[str, object] = {
    "sov.min_rows": 1,
    "sov.max_rows": 8,
    "drivers.min_rows": 1,
    "drivers.max_rows": 8,
    "loss_run.min_claims": 0,
    "loss_run.max_claims": 12,
    "financials.years": 1,
}
SEEDS = seeds(200)
SCHEMA = document_schema("broker_workbook", BrokerWorkbook)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
DOC = "broker_workbook"


def workbook(
    tier: str, seed: int, overrides: dict[str, object]
) -> tuple[BrokerWorkbook, World, dict[str, Any]]:
    knobs = plain(tier, overrides)
    world = build_world(seed, knobs)
    return build(world, random.Random(sub_seed(seed, DOC)), knobs), world, knobs


def problems_of(doc: BrokerWorkbook, world: World, knobs: dict[str, Any]) -> list[str]:
    """Where the workbook disagrees with itself or with the packet's schedules."""
    problems: list[str] = []
    rng = random.Random(0)
    sov = build_sov(world, rng, knobs)
    for row in doc.locations:
        rows = [b for b in sov.buildings if b.location_number == row.location_number]
        for key in ("building_value", "contents_value", "business_income_value", "tiv"):
            if cents(getattr(row, key)) != sum(cents(getattr(b, key)) for b in rows):
                problems.append(f"location {row.location_number}: {key} is not the SOV's sum")
        if row.buildings != len(rows):
            problems.append(f"location {row.location_number}: {row.buildings} buildings")
        if cents(row.tiv) != sum(
            cents(getattr(row, k))
            for k in ("building_value", "contents_value", "business_income_value")
        ):
            problems.append(f"location {row.location_number}: TIV is not its values' sum")
    t = doc.totals
    if (t.location_count, cents(t.total_tiv)) != (len(doc.locations), cents(sov.totals.tiv)):
        problems.append(f"location totals {t.location_count} / {t.total_tiv} vs the SOV")
    if cents(t.total_tiv) != sum(cents(r.tiv) for r in doc.locations):
        problems.append("total TIV is not the locations' sum")
    loss_run = build_loss_run(world, rng, knobs)
    by_number = {p.policy_number: p for p in loss_run.policies}
    for loss in doc.losses:
        policy = by_number.get(loss.policy_number)
        if policy is None:
            problems.append(f"loss row {loss.policy_number} is not on the loss run")
            continue
        if (loss.claim_count, cents(loss.incurred)) != (
            policy.totals.claim_count,
            cents(policy.totals.incurred),
        ):
            problems.append(
                f"loss row {loss.policy_number}: {loss.claim_count} claims, "
                f"{loss.incurred} incurred vs the loss run"
            )
    if len(doc.losses) != len(loss_run.policies):
        problems.append(f"{len(doc.losses)} loss rows for {len(loss_run.policies)} terms")
    if (t.claim_count, cents(t.total_incurred)) != (
        sum(r.claim_count or 0 for r in doc.losses),
        sum(cents(r.incurred) for r in doc.losses),
    ):
        problems.append("loss totals are not the rows' sums")
    if world.business_auto is not None:
        units = build_vehicles(world, rng, knobs).units
        found = [(v.vin, v.cost_new, v.stated_amount) for v in doc.vehicles]
        if found != [(u.vin, u.cost_new, u.stated_amount) for u in units]:
            problems.append("vehicles disagree with the vehicle schedule")
        drivers = build_drivers(world, rng, knobs).drivers
        listed = [(d.license_number, d.name, d.birth_date, d.unit_number) for d in doc.drivers]
        if listed != [
            (d.license_number, f"{d.first_name} {d.last_name}", d.birth_date, d.vehicle_number)
            for d in drivers
        ]:
            problems.append("drivers disagree with the driver schedule")
        if (t.vehicle_count, t.driver_count) != (len(doc.vehicles), len(doc.drivers)):
            problems.append(f"fleet counts {t.vehicle_count} / {t.driver_count}")
    elif doc.vehicles or doc.drivers or t.vehicle_count is not None:
        problems.append("a fleet without an auto line")
    account = doc.account
    if (account.insured_name, account.fein, account.effective_date) != (
        world.insured.name,
        world.insured.fein,
        world.policy.effective_date,
    ):
        problems.append("account sheet disagrees with the world")
    names = [c.name for c in doc.contacts]
    if len(set(names)) != len(names) or world.producer.contact_name not in names:
        problems.append(f"contacts {names}")
    return problems


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_workbook_agrees_with_the_packet_over_many_worlds(tier: str) -> None:
    fleets = 0
    for seed in SEEDS:
        overrides = {**LIGHT, **(AUTO if seed % 2 else NO_AUTO)}
        doc, world, knobs = workbook(tier, seed, overrides)
        problems = problems_of(doc, world, knobs)
        assert not problems, f"{tier} seed {seed}: {problems[:5]}"
        fleets += bool(doc.vehicles)
        if seed <= 3:
            VALIDATOR.validate(doc.model_dump(mode="json"))
    assert 0 < fleets < len(SEEDS)


Mutation = Callable[[BrokerWorkbook], object]
MUTATIONS: dict[str, tuple[Mutation, str]] = {
    "tiv": (lambda d: setattr(d.locations[0], "tiv", (d.locations[0].tiv or 0) + 1), "TIV"),
    "buildings": (lambda d: setattr(d.locations[0], "buildings", 99), "buildings"),
    "incurred": (
        lambda d: setattr(d.losses[0], "incurred", (d.losses[0].incurred or 0) + 1),
        "loss row",
    ),
    "claims total": (lambda d: setattr(d.totals, "claim_count", -1), "loss totals"),
    "stated": (lambda d: setattr(d.vehicles[0], "stated_amount", 1.0), "vehicle schedule"),
    "driver": (lambda d: setattr(d.drivers[0], "unit_number", 999), "driver schedule"),
    "fleet count": (lambda d: setattr(d.totals, "vehicle_count", 0), "fleet counts"),
    "account": (lambda d: setattr(d.account, "fein", "00-0000000"), "account"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_invariant_checks_catch_a_broken_workbook(name: str) -> None:
    mutate, fragment = MUTATIONS[name]
    doc, world, knobs = workbook("N3", 3, {**LIGHT, **AUTO})
    assert not problems_of(doc, world, knobs) and doc.vehicles and doc.losses
    mutate(doc)
    assert any(fragment in p for p in problems_of(doc, world, knobs)), problems_of(
        doc, world, knobs
    )


@pytest.mark.parametrize("tier", TIERS)
def test_rendered_workbook_reads_back(tier: str, tmp_path: Path) -> None:
    seed = 2
    knobs = plain(tier, {"documents": (DOC,)})
    packet = build_packet(tier, seed, knobs)
    for name, data in packet.files.items():
        (tmp_path / name).write_bytes(data)
    world = World.model_validate(json.loads(packet.files["packet_truth.json"])["world"])
    expected = build(world, random.Random(sub_seed(seed, DOC)), knobs)
    truth = json.loads((tmp_path / f"document_truth_{DOC}.json").read_text())["truth"]
    VALIDATOR.validate(truth)
    assert truth == expected.model_dump(mode="json")
    fields = json.loads((tmp_path / f"field_truth_{DOC}.json").read_text())["fields"]
    assert [f["path"] for f in fields] == [p for p, v, _ in iter_leaves(expected) if v is not None]
    checked, bad = check_document(tmp_path, DOC)
    assert bad == [] and checked == len(fields)
    sheets = openpyxl.load_workbook(tmp_path / f"{DOC}.xlsx").sheetnames
    fleet = ["Vehicles", "Drivers"] if world.vehicles else []
    assert sheets == ["Account", "Locations", *fleet, "Loss Summary", "Contacts"]
    assert packet.pages[DOC] == len(sheets)
    assert bool(world.vehicles) == (tier in ("N4", "N5"))


def test_packet_bytes_are_reproducible() -> None:
    knobs = plain("N4", {"documents": (DOC,)})
    assert build_packet("N4", 3, knobs).files == build_packet("N4", 3, knobs).files
