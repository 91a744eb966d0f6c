"""The PB-131 umbrella section: the underlying schedule equals the primary policies (and the
GL, auto and WC sections), fleet counts, locations, and rendered read-back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_126.build import build as build_126
from packetbench.generator.doctypes.acord_130.build import build as build_130
from packetbench.generator.doctypes.acord_131.model import LOCATION_ROWS, UmbrellaSection
from packetbench.generator.doctypes.acord_137.build import build as build_137
from tests.support.paths import TIERS
from tests.support.sections import cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 20, "N2": 20, "N3": 15, "N4": 8, "N5": 4}


@pytest.mark.parametrize("tier", TIERS)
def test_underlying_schedule_equals_the_primary_policies(tier: str) -> None:
    for case in cases("acord_131", tier, SEEDS[tier]):
        world, doc, knobs = case.world, case.doc, case.knobs
        assert isinstance(doc, UmbrellaSection)
        umbrella = world.umbrella
        assert umbrella is not None
        assert cents(doc.terms.each_occurrence) == cents(umbrella.each_occurrence)
        assert (doc.terms.umbrella == "Yes") == (umbrella.form == "Umbrella")
        gl = build_126(world, random.Random(0), knobs)
        g = doc.underlying_gl
        assert g.policy_number == gl.header.policy_number
        assert cents(g.each_occurrence) == cents(gl.limits.each_occurrence)
        assert cents(g.general_aggregate) == cents(gl.limits.general_aggregate)
        assert cents(g.premium) == cents(gl.premiums.total_premium)
        if world.business_auto is not None:
            auto = build_137(world, random.Random(0), knobs)
            assert doc.underlying_auto.policy_number == auto.header.policy_number
            assert cents(doc.underlying_auto.combined_single_limit) == cents(
                auto.limits.combined_single_limit
            )
        else:
            assert doc.underlying_auto.policy_number is None
        if world.workers_comp is not None:
            wc = build_130(world, random.Random(0), knobs)
            assert doc.underlying_el.policy_number == wc.header.policy_number
            assert cents(doc.underlying_el.each_accident) == cents(
                wc.employers_liability.each_accident
            )
        assert doc.location_count == len(world.locations)
        assert len(doc.locations) == min(LOCATION_ROWS, len(world.locations))
        for row in doc.locations:
            location = world.location(row.location_number or 0)
            assert row.employees == (location.full_time_employees + location.part_time_employees)
        f = doc.fleet
        assert sum(
            n or 0
            for n in (
                f.light_trucks,
                f.medium_trucks,
                f.heavy_trucks,
                f.extra_heavy_trucks,
                f.truck_tractors,
            )
        ) == len(world.vehicles)
        check_codes(doc)


@pytest.mark.parametrize("tier", ["N1", "N5"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_131", tier, tmp_path)
    assert fields["terms.umbrella"]["rendered_as"] in ("X", "")
