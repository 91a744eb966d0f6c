"""How long a packet's tables are (generator.world.tables): at N5 one of buildings, claims and
drivers is drawn from the tier's long range and the others from N4's, chosen by seed; a user's
row knobs switch the rule off."""

from __future__ import annotations

from collections import Counter

import pytest

from packetbench.generator.tiers import resolve
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World


def _sizes(world: World) -> dict[str, int]:
    return {
        "buildings": len(world.buildings()),
        "claims": sum(len(term.claims) for term in world.loss_history.terms),
        "drivers": len(world.drivers),
    }


@pytest.mark.slow
def test_n5_draws_one_long_table_per_packet() -> None:
    knobs = resolve("N5", {})
    assert (knobs["tables.large"], knobs["tables.other_min"], knobs["tables.other_max"]) == (
        1,
        40,
        150,
    )
    longest: Counter[str] = Counter()
    for seed in range(1, 31):
        sizes = _sizes(build_world(seed, knobs))
        assert sizes["drivers"] <= 500 and sizes["claims"] <= 500
        # Two of the three tables keep N4's sizes; buildings of a short table may split into
        # more SOV rows than locations, never past the short range's most rows.
        short = [name for name, n in sizes.items() if n <= 150]
        assert len(short) >= 2, (seed, sizes)
        longest[max(sizes, key=lambda name: sizes[name])] += 1
    assert len(longest) == 3  # each table is the long one in some packet


def test_row_knobs_a_user_sets_switch_the_rule_off() -> None:
    knobs = resolve("N5", {"sov.max_rows": 400})
    assert knobs["tables.large"] == 0
    assert resolve("N5", {"sov.max_rows": 400, "tables.large": 1})["tables.large"] == 1
    assert resolve("N4", {})["tables.large"] == 0


@pytest.mark.parametrize("tier", ["N1", "N2", "N3", "N4"])
def test_lower_tiers_draw_as_before(tier: str) -> None:
    knobs = resolve(tier, {})
    off = {**knobs, "tables.large": 0}
    for seed in (1, 2, 3):
        assert _sizes(build_world(seed, knobs)) == _sizes(build_world(seed, off))
