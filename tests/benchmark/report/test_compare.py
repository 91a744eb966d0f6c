"""`packetbench compare`: sim typical vs sloppy differ; typical vs typical (another seed) do not."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.report.comparison import compare_runs
from tests.support.paths import canonical_documents
from tests.support.runs import ScoredRun

Run = Callable[..., subprocess.CompletedProcess[str]]
HALLUCINATION = ("halluc_numbers", "halluc_strings")


@pytest.mark.slow
def test_sloppy_is_found_worse_than_typical(scored_run: ScoredRun) -> None:
    result = compare_runs([scored_run("typical", 1), scored_run("sloppy", 2)])
    (pair,) = result["pairs"]
    assert result["method"]["alpha"] == 0.05
    for metric in HALLUCINATION:
        test = pair["sign_tests"][metric]
        assert test["significant"] and test["worse"] == "sloppy-2"
        assert test["b_higher"] > 3 * test["a_higher"]
        low, high = pair["rates"][metric]["ci_documents"]
        assert 0 < low <= pair["rates"][metric]["difference"] <= high
        assert pair["rates"][metric]["ci_packets"][0] > 0
    faithfulness = pair["rates"]["faithfulness"]
    assert faithfulness["ci_documents"][1] < 0  # sloppy is less faithful
    # only documents both runs completed are paired; the others are listed with each status
    total = canonical_documents()
    assert pair["documents_paired"] == total - len(pair["excluded"]) < total
    statuses = {e["sloppy-2"] for e in pair["excluded"]}
    assert statuses <= {"missing", "error", "invalid"} and {
        e["typical-1"] for e in pair["excluded"]
    } == {"scored"}


@pytest.mark.slow
def test_typical_against_typical_finds_no_difference(scored_run: ScoredRun) -> None:
    result = compare_runs([scored_run("typical", 1), scored_run("typical", 2)])
    (pair,) = result["pairs"]
    assert pair["documents_paired"] == canonical_documents() and pair["excluded"] == []
    for metric in HALLUCINATION:
        assert not pair["sign_tests"][metric]["significant"]
        low, high = pair["rates"][metric]["ci_documents"]
        assert low < 0 < high


@pytest.mark.slow
def test_holm_runs_over_every_pair_and_worst_documents(scored_run: ScoredRun) -> None:
    runs = [scored_run("typical", 1), scored_run("typical", 2), scored_run("sloppy", 2)]
    result = compare_runs(runs)
    assert [(p["a"], p["b"]) for p in result["pairs"]] == [
        ("typical-1", "typical-2"),
        ("typical-1", "sloppy-2"),
        ("typical-2", "sloppy-2"),
    ]
    tests = [p["sign_tests"][m] for p in result["pairs"] for m in HALLUCINATION]
    raw = sorted((t["p_value"], t["p_holm"]) for t in tests)
    for rank, (p, adjusted) in enumerate(raw):  # step-down: at least (m - rank) * p
        assert adjusted >= min(1.0, (len(raw) - rank) * p) - 1e-12
    worst = result["worst_documents"]
    assert worst and sum(w["worst"] == "sloppy-2" for w in worst) > 0.8 * len(worst)
    for row in worst:
        others = [r for name, r in row["rates"].items() if name != row["worst"]]
        assert all(row["rates"][row["worst"]] > r for r in others)


@pytest.mark.slow
def test_compare_command(run_cli: Run, scored_run: ScoredRun, tmp_path: Path) -> None:
    a, b = scored_run("typical", 1), scored_run("sloppy", 2)
    result = run_cli("compare", str(a), str(b), "--out", str(tmp_path / "cmp"))
    assert result.returncode == 0, result.stderr
    assert "sloppy-2 worse" in result.stdout and "not paired (" in result.stdout
    written = json.loads((tmp_path / "cmp" / "paired_stats.json").read_text())
    assert written["pairs"][0]["sign_tests"]["halluc_numbers"]["significant"] is True
    again = run_cli("compare", str(a), str(b), "--json")
    assert json.loads(again.stdout) == written
    one = run_cli("compare", str(a))
    assert one.returncode == 2 and "at least two runs" in one.stderr


@pytest.mark.slow
def test_sign_test_is_calibrated_across_seeds(scored_run: ScoredRun) -> None:
    """Over three seed pairs: typical vs sloppy is found every time; typical vs typical
    rarely (at alpha 0.05 with Holm over the two rates, at most one pair of the three)."""
    found = false_alarms = 0
    for seed in range(3, 6):
        base = scored_run("typical", seed)
        same = compare_runs([base, scored_run("typical", seed + 100)])["pairs"][0]
        worse = compare_runs([base, scored_run("sloppy", seed)])["pairs"][0]
        false_alarms += any(same["sign_tests"][m]["significant"] for m in HALLUCINATION)
        found += all(worse["sign_tests"][m]["significant"] for m in HALLUCINATION)
    assert found == 3
    assert false_alarms <= 1


@pytest.mark.slow
def test_runs_of_different_packets_are_not_compared(run_cli: Run, tmp_path: Path) -> None:
    """No document in common: nothing is paired, so the comparison says so and exits 1
    (it used to print "Holm over all 0 sign tests" and exit 0), writing nothing."""
    from packetbench.benchmark.extract import extract
    from packetbench.benchmark.providers.sim import SimProvider
    from packetbench.benchmark.results import load_run
    from packetbench.benchmark.score.scorer import score_run
    from packetbench.generator.generation import generate

    runs = []
    for seed in (1, 2):
        packets = tmp_path / f"packets-{seed}"
        generate("N1", seed, 1, packets, overrides={"documents": ("sov_pdf", "loss_run_csv")})
        run = tmp_path / f"run-{seed}"
        extract(SimProvider("typical", seed), packets, run)
        score_run(run, packets)
        load_run(run, packets)
        runs.append(str(run))
    result = run_cli("compare", *runs, "--out", str(tmp_path / "comparison"))
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [
        "packetbench: failed: run-1 and run-2 have no document both completed (4 documents "
        "between them, none in common): there is nothing to pair, so nothing to compare"
    ]
    assert not (tmp_path / "comparison").exists()


@pytest.mark.slow
def test_illegible_fields_are_compared_apart(
    run_cli: Run, scored_run: ScoredRun, tmp_path: Path
) -> None:
    """Abstention and guesses on illegible fields (rule 3b) are paired over the documents that
    have them, sign-tested and Holm-corrected among themselves: sim `perfect` abstains on
    every one, `sloppy` guesses, so sloppy is worse on both tested rates."""
    perfect, sloppy = scored_run("perfect", 1), scored_run("sloppy", 1)
    result = compare_runs([perfect, sloppy])
    found = result["illegible"]
    assert found["absent"] == [] and found["sign_tested"] == ["abstained", "guess_wrong"]
    (pair,) = found["pairs"]
    rates = pair["rates"]
    assert set(rates) == {"abstained", "guess_right", "guess_grounded", "guess_wrong"}
    assert rates["abstained"]["a"] == 1.0 and rates["abstained"]["b"] < 0.5
    # the four shares of a run add up to one
    assert sum(rates[m]["b"] for m in rates) == pytest.approx(1.0)
    low, high = rates["abstained"]["ci_documents"]
    assert low <= rates["abstained"]["difference"] <= high < 0
    for metric in found["sign_tested"]:
        test = pair["sign_tests"][metric]
        assert test["significant"] and test["worse"] == sloppy.name, (metric, test)
        assert test["p_holm"] >= test["p_value"]
    # the headline comparison is unchanged by it
    assert [p["a"] for p in result["pairs"]] == [perfect.name]
    shown = run_cli("compare", str(perfect), str(sloppy))
    assert shown.returncode == 0, shown.stderr
    # the title names the runs in the columns' order, and the difference by name
    assert f"Illegible fields: {perfect.name} vs {sloppy.name}" in shown.stdout
    assert f"difference = {sloppy.name} - {perfect.name}, in points" in shown.stdout
    assert "illegible sign tests: Holm over the 2 illegible-field sign tests" in shown.stdout
    assert f"sign test, Abstained: {sloppy.name} higher on 0 documents" in shown.stdout


def test_one_run_is_not_a_comparison(run_cli: Run, tmp_path: Path) -> None:
    """A comparison needs two runs: one is refused in one line, exit 2, before any run is
    read (the folder need not even exist) and nothing written."""
    result = run_cli("compare", str(tmp_path / "run"), "--out", str(tmp_path / "cmp"))
    assert result.returncode == 2 and "at least two runs" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
