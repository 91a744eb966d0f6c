"""`packetbench plan`: packets per tier from a pilot's variance."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.report.plan import plan
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from packetbench.generator.generation import generate
from tests.support.runs import ScoredRun

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.slow
def test_plan_from_a_pilot_with_several_packets_per_tier(tmp_path: Path) -> None:
    packets = tmp_path / "packets"
    for tier in ("N1", "N2"):
        generate(tier, 1, 4, packets, jobs=2)
    run = tmp_path / "pilot"
    extract(SimProvider("sloppy", 3), packets, run)
    score_run(run, packets)
    load_run(run, packets)
    rows = plan(run, 0.02)
    assert [(r.tier, r.metric) for r in rows] == [
        ("N1", "halluc_numbers"),
        ("N1", "halluc_strings"),
        ("N2", "halluc_numbers"),
        ("N2", "halluc_strings"),
    ]
    for row in rows:
        assert row.basis == "packets" and row.packets >= 3
        assert row.sd is not None and row.sd > 0 and row.needed is not None
    # Halving the effect quadruples the packets needed (away from the two-packet floor).
    coarse_rows, finer = plan(run, 0.004), plan(run, 0.002)
    for coarse, fine in zip(coarse_rows, finer, strict=True):
        assert fine.needed is not None and coarse.needed is not None
        assert coarse.needed >= 5, coarse
        assert 3.5 * coarse.needed <= fine.needed <= 4.5 * coarse.needed + 2


@pytest.mark.slow
def test_plan_command(run_cli: Run, scored_run: ScoredRun) -> None:
    run = str(scored_run("typical", 1))
    result = run_cli("plan", "--pilot", run, "--effect", "0.02")
    assert result.returncode == 0, result.stderr
    assert "documents of one packet" in result.stdout  # one packet per tier: says so
    assert "needed per tier" in result.stdout and "N5" in result.stdout
    as_json = json.loads(
        run_cli(
            "plan", "--pilot", run, "--effect", "0.02", "--metric", "faithfulness", "--json"
        ).stdout
    )
    assert {r["metric"] for r in as_json} == {"faithfulness"} and len(as_json) == 5
    bad = run_cli("plan", "--pilot", run, "--effect", "2")
    assert bad.returncode == 2 and "--effect" in bad.stderr
    unknown = run_cli("plan", "--pilot", run, "--effect", "0.02", "--metric", "speed")
    assert unknown.returncode == 2 and "unknown rate 'speed'" in unknown.stderr


def test_a_count_nobody_could_make_is_not_feasible(run_cli: Run, tmp_path: Path) -> None:
    """A tiny effect used to ask for 10^20 packets (and 1e-200 divided by zero): above
    FEASIBLE packets the plan says "not feasible" and by how many it would be exceeded."""
    from packetbench.benchmark.report.plan import FEASIBLE

    packets = tmp_path / "packets"
    generate("N1", 1, 1, packets)
    run = tmp_path / "pilot"
    extract(SimProvider("sloppy", 3), packets, run)
    score_run(run, packets)
    load_run(run, packets)
    for effect in (1e-9, 1e-200):
        rows = plan(run, effect)
        assert rows and all(r.feasible is False and r.needed is None for r in rows)
        assert all(r.basis.endswith(f"more than {FEASIBLE:,} packets per model") for r in rows)
    assert all(r.feasible and r.needed and r.needed <= FEASIBLE for r in plan(run, 0.02))
    result = run_cli("plan", "--pilot", str(run), "--effect", "1e-9")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        "needed per tier (the largest over the rates): N1 not feasible (more than 100,000 packets)"
    )
    assert "> 100,000" in result.stdout and "000,000,000" not in result.stdout
