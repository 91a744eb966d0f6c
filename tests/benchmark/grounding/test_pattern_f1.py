"""Grounding F1 by presentation pattern: each pattern pools the values it touched (their
right-and-grounded ones, twice, over the numerator) with the populated truth fields it
touched, as a document's F1 does; recomputed here from the run's own Parquet files, and shown
among the report's worst slices."""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from packetbench.benchmark.report.render import write_report
from packetbench.benchmark.results.query import open_runs
from tests.support.paths import PACKETS
from tests.support.small_runs import small_run

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N4-000001"  # N4: many patterns on one packet


def _check_pattern_f1(run: Path) -> None:
    """The run's grounding F1 slices by pattern equal those recomputed from its Parquet
    files, over at least five patterns."""
    con = duckdb.connect()
    num: Counter[tuple[str, str]] = Counter()
    den: Counter[tuple[str, str]] = Counter()
    levels = {"value": ("uncited", "wrong_place", "right_page", "right_box"),
              "page": ("right_page", "right_box"), "box": ("right_box",)}  # fmt: skip
    claims = con.execute(
        "SELECT patterns, verdict, citation "
        f"FROM read_parquet('{run / 'scores' / 'claims.parquet'}')"
    ).fetchall()
    for patterns, verdict, citation in claims:
        for pattern in patterns:
            for level, places in levels.items():
                metric = f"grounding_f1_{level}"
                num[(pattern, metric)] += 2 * (verdict == "supported" and citation in places)
                den[(pattern, metric)] += 1
    fields = con.execute(
        f"SELECT patterns FROM read_parquet('{run / 'scores' / 'fields.parquet'}') WHERE populated"
    ).fetchall()
    for (patterns,) in fields:
        for pattern in patterns:
            for level in levels:
                den[(pattern, f"grounding_f1_{level}")] += 1
    with open_runs([run]) as runs:
        found = runs.rows(
            "SELECT slice, metric, num, den FROM grounding_slices "
            "WHERE dimension = 'pattern' AND metric LIKE 'grounding_f1_%'"
        )
    assert len({r["slice"] for r in found}) >= 5  # enough patterns to tell them apart
    assert {(r["slice"], r["metric"]): (r["num"], r["den"]) for r in found} == {
        key: (num[key], den[key]) for key in den
    }


@pytest.mark.slow
def test_grounding_f1_by_pattern(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    made = run_cli("extract", "--packets", str(PACKET), "--out", str(run), "--cite", "box")
    assert made.returncode == 0, made.stderr
    scored = run_cli("score", str(run), "--packets", str(PACKET))
    assert scored.returncode == 0, scored.stderr
    _check_pattern_f1(run)
    files = write_report([run], tmp_path / "report")
    text = files.markdown.read_text(encoding="utf-8")
    section = text[text.index("## 10. Grounding: citations") : text.index("## 11.")]
    shown = [line for line in section.splitlines() if line.startswith("| pattern |")]
    assert any("| grounding_f1_page |" in line for line in shown)
    assert any("| grounding_f1_box |" in line for line in shown)


def test_grounding_f1_by_pattern_on_two_documents(tmp_path: Path) -> None:
    """The fast tier's check: two documents of the canonical N2 packet (nine patterns between
    them), run in process, recomputed the same way."""
    _check_pattern_f1(small_run(tmp_path / "run", packet=PACKETS / "N2-000001"))
