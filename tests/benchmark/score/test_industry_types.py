"""Document types only some classes of business carry (the restaurant and habitational
supplements) are absent from the canonical suite, whose packets all insure one business; the
scorer is proved on them here, on packets of worlds that carry them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.score.scorer import RunScores
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.packet import write_packet
from packetbench.generator.tiers import resolve
from packetbench.generator.world.build import build_world
from tests.support.scoring import INDUSTRY_TYPES, ledger_mismatches

SimRun = Callable[..., tuple[Path, RunScores]]
TIER = "N2"


@pytest.fixture(scope="module")
def industry_packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One packet per industry-specific type: the first seed whose world carries it."""
    folder = tmp_path_factory.mktemp("industry")
    knobs = resolve(TIER)
    for name in INDUSTRY_TYPES:
        seed = next(s for s in range(1, 200) if DOC_TYPES[name].carried_by(build_world(s, knobs)))
        write_packet(folder, TIER, seed, knobs, force=True)
    return folder


@pytest.mark.slow
def test_perfect_scores_the_industry_types_in_full(sim_run: SimRun, industry_packets: Path) -> None:
    run, _ = sim_run("perfect", 0, industry_packets)
    by_type = json.loads((run / "scores" / "field_breakdown.json").read_text())["by_doc_type"]
    for name in INDUSTRY_TYPES:
        assert by_type[name]["gt_fields"] == by_type[name]["correct"] > 20, name
    assert ledger_mismatches(run) == []
    # A perfect extraction passes every arithmetic check (the restaurant's sales total is one).
    consistency = json.loads((run / "scores" / "consistency.json").read_text())
    assert consistency["overall"]["failed"] == 0 and consistency["overall"]["passed"] > 0


@pytest.mark.parametrize("profile", ["typical", "sloppy"])
def test_scorer_recovers_the_injections_on_the_industry_types(
    sim_run: SimRun, industry_packets: Path, profile: str
) -> None:
    run, _ = sim_run(profile, 1, industry_packets)
    by_type = json.loads((run / "scores" / "field_breakdown.json").read_text())["by_doc_type"]
    # Errors were injected into these types, and the scorer counted exactly those.
    assert sum(by_type[n]["correct"] for n in INDUSTRY_TYPES) < sum(
        by_type[n]["gt_fields"] for n in INDUSTRY_TYPES
    )
    assert ledger_mismatches(run) == []
