"""The loss-control survey report: COPE equal to the schedule, recommendations dated after
the survey, counts that agree, and every value (prose facts included) read back."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

import pytest

from packetbench.generator.doctypes.engineering_report.build import build
from packetbench.generator.doctypes.engineering_report.model import EngineeringReport
from packetbench.generator.render import prose
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.rendered import render
from tests.support.sections import check_codes
from tests.support.values import cents

TIERS = tuple(PRESETS)
PER_BUILDING = (
    "construction",
    "occupancy",
    "protection",
    "exposure",
    "valuation",
    "recommendations",
)


def check(world: World, doc: EngineeringReport, knobs: dict[str, Any]) -> None:
    report, summary = doc.report, doc.summary
    survey = dt.date.fromisoformat(str(report.survey_date))
    written = dt.date.fromisoformat(str(report.report_date))
    assert survey < written < dt.date.fromisoformat(world.policy.completion_date)
    assert report.named_insured == world.insured.name
    assert report.policy_number == world.policy.number
    schedule = world.buildings()
    assert 1 <= len(doc.buildings) <= 3
    assert [(b.premises_number, b.building_number) for b in doc.buildings] == [
        (b.location_number, b.building_number) for b in schedule[: len(doc.buildings)]
    ]
    for seen, b in zip(doc.buildings, schedule, strict=False):
        assert (
            seen.construction,
            seen.year_built,
            seen.stories,
            seen.square_feet,
            seen.roof_year,
            seen.occupancy,
            seen.protection_class,
            seen.sprinklered_percent,
            seen.sprinkler_type,
            seen.fire_alarm,
        ) == (
            b.construction,
            b.year_built,
            b.stories,
            b.square_feet,
            b.roof_year,
            b.occupancy,
            b.protection_class,
            b.sprinklered_percent,
            b.sprinkler_type,
            b.fire_alarm,
        )
        assert seen.address.street == b.address.street
        # The valuation check is the arithmetic it states.
        assert cents(seen.replacement_cost) == cents(seen.cost_per_square_foot) * (
            seen.square_feet or 0
        )
        assert (seen.building_limit is None) == (b.building_value == 0)
        if seen.building_limit is not None:
            assert cents(seen.building_limit) == cents(b.building_value)
    surveyed = {(b.premises_number, b.building_number) for b in doc.buildings}
    numbers = [r.number for r in doc.recommendations]
    assert len(numbers) == len(set(numbers)) >= len(doc.buildings)
    for r in doc.recommendations:
        assert (r.premises_number, r.building_number) in surveyed
        assert written < dt.date.fromisoformat(str(r.due_date))
        assert r.description
    priorities = [r.priority for r in doc.recommendations]
    assert (
        summary.recommendation_count
        == len(priorities)
        == (
            (summary.critical_count or 0)
            + (summary.important_count or 0)
            + (summary.advisory_count or 0)
        )
    )
    assert summary.critical_count == priorities.count("Critical")
    assert summary.buildings_surveyed == len(doc.buildings)
    open_critical = sum(
        r.priority == "Critical" and r.status != "Complete" for r in doc.recommendations
    )
    assert (report.risk_grade in ("Below Average", "Poor")) == (open_critical > 0)


@pytest.mark.parametrize("tier", TIERS)
def test_model_validates_and_enums_are_in_their_code_lists(tier: str) -> None:
    knobs = plain(tier)
    check_codes(build(build_world(2, knobs), random.Random(0), knobs))


@pytest.mark.parametrize("tier", TIERS)
def test_every_value_reads_back_and_the_truth_is_the_model(tier: str, tmp_path: Path) -> None:
    rendered = render("engineering_report", tier, 3, tmp_path)
    check(rendered.world, rendered.doc, plain(tier))  # type: ignore[arg-type]
    assert 2 <= rendered.pages <= 4
    # A recommendation's due date is stated in the building's prose and in the table.
    due = rendered.fields["recommendations[0].due_date"]
    assert len(due["locations"]) == 2 and due["kind"] == "date"
    assert rendered.fields["buildings[0].replacement_cost"]["kind"] == "money"


@pytest.mark.parametrize("name", ("summary", *PER_BUILDING))
def test_every_wording_states_the_same_facts(name: str) -> None:
    options = prose.wordings(f"engineering_report/{name}")
    assert len(options) >= 2
    for tier, seed in (("N1", 1), ("N2", 3), ("N4", 2), ("N5", 7)):
        knobs = plain(tier)
        doc = build(build_world(seed, knobs), random.Random(0), knobs)
        rec = Recorder("engineering_report", doc)
        for i in range(len(doc.buildings) if name in PER_BUILDING else 1):
            found = [
                {
                    part
                    for p in prose.write(rec, "", template=t, i=i)
                    for part in p
                    if isinstance(part, str)
                }
                for t in options
            ]
            assert all(facts == found[0] for facts in found), (name, tier, seed, i)
