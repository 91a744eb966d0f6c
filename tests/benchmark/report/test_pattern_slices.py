"""The simulator stumbles more on what presentation patterns touched, and the results slice by
pattern (overall and per tier) so a report can tell the patterns apart."""

from __future__ import annotations

import json
from pathlib import Path

from packetbench.benchmark.results.query import open_runs
from tests.support.paths import PACKETS
from tests.support.runs import ScoredRun


def _applied() -> set[str]:
    """Patterns the suite applied to values its truth holds (a logo touches no value; a
    redaction, or a blot that left a value illegible, touches only values its truth no
    longer holds)."""
    found: set[str] = set()
    for manifest in PACKETS.glob("*/manifest_*.json"):
        found |= {
            p["id"]
            for p in json.loads(manifest.read_text())["patterns_applied"]
            if p["targets"] and p["truth"] not in ("hidden", "illegible")
        }
    return found


def test_touched_fields_go_wrong_more_often(scored_run: ScoredRun) -> None:
    run = scored_run("typical", 1)
    with open_runs([run]) as opened:
        rows = opened.rows("""
            SELECT len(patterns) > 0 AS touched,
                   COUNT(*) FILTER (WHERE populated) AS populated,
                   COUNT(*) FILTER (WHERE outcome IN ('wrong', 'omitted')) AS missed
            FROM fields GROUP BY ALL ORDER BY touched""")
        claims = opened.rows("""
            SELECT len(patterns) > 0 AS touched, COUNT(hallucinated) AS checked,
                   COUNT(*) FILTER (WHERE hallucinated) AS hallucinated
            FROM claims GROUP BY ALL ORDER BY touched""")
    (untouched, touched) = rows
    assert touched["populated"] > 10_000 and untouched["populated"] > 1_000
    rate = {r["touched"]: r["missed"] / r["populated"] for r in rows}
    # typical leaf rates scale by 1.6-2.5 where a pattern touched: clearly apart
    assert rate[True] > 1.4 * rate[False], rate
    halluc = {r["touched"]: r["hallucinated"] / r["checked"] for r in claims}
    assert halluc[True] > 1.3 * halluc[False], halluc
    info = json.loads((run / "run.json").read_text())
    assert info["pattern_factors"]["data"] > 1  # the factors are recorded with the run


def test_every_applied_pattern_is_a_slice_overall_and_per_tier(scored_run: ScoredRun) -> None:
    run: Path = scored_run("typical", 1)
    with open_runs([run]) as opened:
        slices = opened.rows(
            "SELECT dimension, slice FROM slices "
            "WHERE metric = 'recall' AND dimension LIKE 'pattern%'"
        )
    overall = {r["slice"] for r in slices if r["dimension"] == "pattern"}
    per_tier = {r["slice"] for r in slices if r["dimension"] == "pattern_tier"}
    applied = _applied()
    assert applied and applied | {"(untouched)"} == overall
    assert {s.split(" / ")[0] for s in per_tier} == overall
    assert {s.split(" / ")[1] for s in per_tier} == {"N1", "N2", "N3", "N4", "N5"}
