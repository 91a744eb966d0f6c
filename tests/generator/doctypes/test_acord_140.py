"""The PB-140 property section: model invariants over many worlds, and rendered read-back."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pydantic
import pytest

from packetbench.core.leaves import iter_leaves
from packetbench.generator.doctypes.acord_140.build import build
from packetbench.generator.doctypes.acord_140.model import PropertySection
from packetbench.generator.doctypes.sov.build import build as build_sov
from packetbench.generator.packet import build_packet
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from packetbench.generator.world.premises import Building
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.values import cents

TIERS = tuple(PRESETS)
# Building an N5 world (hundreds of buildings) dominates the run time, so the large tiers get
# fewer seeds; each still covers dozens of premises at its own knob settings.
SEEDS = {"N1": 40, "N2": 40, "N3": 40, "N4": 24, "N5": 12}


@cache
def cases(tier: str) -> tuple[tuple[World, PropertySection, dict[str, Any]], ...]:
    """(world, document, knobs) for every test seed of `tier`, built once per session."""
    knobs = plain(tier)
    out = []
    for seed in range(1, SEEDS[tier] + 1):
        world = build_world(seed, knobs)
        out.append((world, build(world, random.Random(seed), knobs), knobs))
    return tuple(out)


def described(world: World, doc: PropertySection) -> list[tuple[Building, Any]]:
    return list(zip(world.buildings(), doc.premises, strict=False))


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_premises_are_the_first_buildings_of_the_schedule(tier: str) -> None:
    for world, doc, knobs in cases(tier):
        expected = min(knobs["acord_140.max_premises"], len(world.buildings()))
        assert len(doc.premises) == expected
        for building, premises in described(world, doc):
            assert (premises.premises_number, premises.building_number) == (
                building.location_number,
                building.building_number,
            )
            assert premises.address.street == building.address.street
            assert premises.address.zip == building.address.zip
            assert premises.building_description == building.description


@pytest.mark.parametrize("tier", TIERS)
def test_limits_equal_the_world_and_the_sov(tier: str) -> None:
    for world, doc, knobs in cases(tier):
        sov = {
            (r.location_number, r.building_number): r
            for r in build_sov(world, random.Random(0), knobs).buildings
        }
        for building, premises in described(world, doc):
            limits = {s.subject: cents(s.limit) for s in premises.subjects}
            expected = {
                "Building": cents(building.building_value),
                "Business Personal Property": cents(building.contents_value),
                "Business Income with Extra Expense": cents(building.business_income_value),
            }
            assert limits == {k: v for k, v in expected.items() if v}
            assert sum(limits.values()) == cents(building.tiv)
            row = sov[(premises.premises_number, premises.building_number)]
            assert limits.get("Building", 0) == cents(row.building_value)
            assert limits["Business Personal Property"] == cents(row.contents_value)
            assert sum(limits.values()) == cents(row.tiv)


@pytest.mark.parametrize("tier", TIERS)
def test_coverage_terms_follow_the_building(tier: str) -> None:
    for world, doc, _ in cases(tier):
        for building, premises in described(world, doc):
            subjects = [s.subject for s in premises.subjects]
            assert subjects == sorted(
                subjects,
                key=[
                    "Building",
                    "Business Personal Property",
                    "Business Income with Extra Expense",
                ].index,
            )
            for row in premises.subjects:
                bi = row.subject == "Business Income with Extra Expense"
                assert row.coinsurance_percent == (100.0 if bi else building.coinsurance_percent)
                assert row.valuation == building.valuation
                assert row.causes_of_loss == building.causes_of_loss
                assert cents(row.deductible) == cents(building.deductible)
                assert row.deductible_type == "Flat Dollar"
                assert cents(row.limit) > 0


@pytest.mark.parametrize("tier", TIERS)
def test_tenants_have_no_building_row_and_no_mortgagee(tier: str) -> None:
    tenants = 0
    for world, doc, _ in cases(tier):
        for building, premises in described(world, doc):
            interest = premises.interest
            assert {interest.owner, interest.tenant} == {"Yes", "No"}
            lender = premises.additional_interest
            assert (lender.mortgagee_name is None) == (lender.loan_number is None)
            assert lender.mortgagee_name == building.mortgagee
            assert lender.loan_number == building.loan_number
            has_building_row = any(s.subject == "Building" for s in premises.subjects)
            if building.interest == "Tenant":
                tenants += 1
                assert interest.tenant == "Yes"
                assert not has_building_row
                assert lender.mortgagee_name is None
            else:
                assert interest.owner == "Yes"
                assert has_building_row
    if tier != "N1":  # small tiers may draw no tenant at all in 40 worlds
        assert tenants > 0


@pytest.mark.parametrize("tier", TIERS)
def test_cope_equals_the_world_and_dates_are_ordered(tier: str) -> None:
    for world, doc, _ in cases(tier):
        assert doc.header.policy_number == world.policy.number
        assert doc.header.naic_code == world.carrier.naic
        assert doc.header.carrier_name == world.carrier.name
        assert doc.header.agency_name == world.producer.agency_name
        assert doc.header.named_insured == world.insured.name
        assert doc.header.effective_date == world.policy.effective_date
        effective_year = int(world.policy.effective_date[:4])
        for building, premises in described(world, doc):
            c, i, f = premises.construction, premises.improvements, premises.fire_protection
            assert (
                c.construction,
                c.stories,
                c.basements,
                c.year_built,
                c.floor_area,
                c.roof_covering,
                c.wind_class,
            ) == (
                building.construction,
                building.stories,
                building.basements,
                building.year_built,
                building.square_feet,
                building.roof_covering,
                building.wind_class,
            )
            assert (i.wiring_year, i.roofing_year, i.plumbing_year, i.heating_year) == (
                building.wiring_year,
                building.roof_year,
                building.plumbing_year,
                building.heating_year,
            )
            assert c.year_built is not None
            for year in (i.wiring_year, i.roofing_year, i.plumbing_year, i.heating_year):
                assert year is not None
                assert c.year_built <= year < effective_year
            assert (
                f.protection_class,
                f.hydrant_feet,
                f.station_miles,
                f.sprinklered_percent,
                f.sprinkler_type,
                f.fire_alarm,
                premises.burglar_alarm,
            ) == (
                building.protection_class,
                building.hydrant_feet,
                building.station_miles,
                building.sprinklered_percent,
                building.sprinkler_type,
                building.fire_alarm,
                building.burglar_alarm,
            )
            assert (f.sprinkler_type == "None") == (f.sprinklered_percent == 0)


@pytest.mark.parametrize("tier", TIERS)
def test_model_validates_and_enums_are_in_their_code_lists(tier: str) -> None:
    for _, doc, _ in cases(tier):
        data = doc.model_dump(mode="json")
        assert PropertySection.model_validate(data).model_dump(mode="json") == data
        for path, value, leaf in iter_leaves(doc):
            if leaf.codes is not None and value is not None:
                assert value in leaf.codes.values, path


def test_validation_rejects_a_value_outside_its_code_list() -> None:
    _, doc, _ = cases("N1")[0]
    data = doc.model_dump(mode="json")
    data["premises"][0]["construction"]["roof_covering"] = "Thatch"
    with pytest.raises(pydantic.ValidationError):
        PropertySection.model_validate(data)


@pytest.mark.parametrize("tier", TIERS)
def test_rendered_values_read_back_at_their_locations(tier: str, tmp_path: Path) -> None:
    seed = 3
    built = build_packet(tier, seed, plain(tier, {"documents": ("acord_140",)}))
    for name, data in built.files.items():
        (tmp_path / name).write_bytes(data)
    checked, bad = check_document(tmp_path, "acord_140")
    assert bad == []
    fields = json.loads((tmp_path / "field_truth_acord_140.json").read_text())["fields"]
    truth = json.loads((tmp_path / "document_truth_acord_140.json").read_text())["truth"]
    # Nothing is omitted: every non-null leaf of the model is on the page.
    world = build_world(seed, plain(tier))
    doc = build(world, random.Random(0), plain(tier))
    assert truth == doc.model_dump(mode="json")
    non_null = [path for path, value, _ in iter_leaves(doc) if value is not None]
    assert [f["path"] for f in fields] == non_null
    assert checked >= len(non_null)
    # The policy identification repeats on every page.
    pages = built.pages["acord_140"]
    number = next(f for f in fields if f["path"] == "header.policy_number")
    assert sorted({loc["page"] for loc in number["locations"]}) == list(range(1, pages + 1))


def test_same_seed_gives_identical_bytes() -> None:
    knobs = plain("N4", {"documents": ("acord_140",)})
    assert build_packet("N4", 11, knobs).files == build_packet("N4", 11, knobs).files
