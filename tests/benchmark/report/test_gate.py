"""`packetbench gate`: thresholds overall and per slice, regressions against a baseline."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.report.gate import load_rules
from packetbench.core.errors import BadInput
from tests.support.runs import ScoredRun

Run = Callable[..., subprocess.CompletedProcess[str]]


def _rules(tmp_path: Path, text: str) -> str:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_typical_passes_sensible_rules(run_cli: Run, scored_run: ScoredRun, tmp_path: Path) -> None:
    # The typical sim gets some 7 % of claims wrong on plain fields and up to 3.5 times as
    # many on fields a pattern touched (benchmark/sim/profiles.py PATTERN_FACTORS: scans), so
    # a document type scanned at a heavy level in this one packet per tier (most N4-N5
    # documents are scanned) lands near 0.7 faithfulness, and
    # its omissions lift the over-refusal interval's upper end near 0.09. Sensible gates for
    # that model leave room for one hard document and still fail the sloppy profile.
    rules = _rules(
        tmp_path,
        """
[[rule]]
name = "numeric hallucination per tier"
metric = "halluc_numbers"
max = 0.05
per = "tier"

[[rule]]
metric = "faithfulness"
min = 0.6
per = "doc_type"

[[rule]]
metric = "over_refusal"
max = 0.12
statistic = "upper"
""",
    )
    run = scored_run("typical", 1)
    result = run_cli("gate", str(run), "--rules", rules)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASS") == 3 and "gate passed: 3 of 3 rules hold" in result.stdout
    sloppy = run_cli("gate", str(scored_run("sloppy", 2)), "--rules", rules)
    assert sloppy.returncode == 1 and "gate FAILED" in sloppy.stdout, sloppy.stdout
    # The worst tier decides a per-tier rule.
    worst = run_cli(
        "sql",
        str(scored_run("typical", 1)),
        "--format",
        "csv",
        "SELECT slice FROM slices WHERE dimension = 'tier' AND metric = "
        "'halluc_numbers' ORDER BY micro DESC LIMIT 1",
    ).stdout.splitlines()[1]
    assert f"(worst: {worst})" in result.stdout


@pytest.mark.slow
def test_breached_rules_are_listed_and_exit_1(
    run_cli: Run, scored_run: ScoredRun, tmp_path: Path
) -> None:
    rules = _rules(
        tmp_path,
        """
[[rule]]
name = "numeric hallucination per tier"
metric = "halluc_numbers"
max = 0.05
per = "tier"

[[rule]]
name = "worst document type faithfulness"
metric = "faithfulness"
min = 0.9
per = "doc_type"

[[rule]]
metric = "over_refusal"
max = 0.08
""",
    )
    result = run_cli("gate", str(scored_run("sloppy", 2)), "--rules", rules, "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["passed"] is False
    by_name = {r["rule"]: r for r in verdict["rules"]}
    tiers = by_name["numeric hallucination per tier"]
    assert not tiers["passed"] and any(d.startswith("tier N1:") for d in tiers["details"])
    assert not by_name["worst document type faithfulness"]["passed"]
    assert not by_name["over_refusal micro max 0.08"]["passed"]
    text = run_cli("gate", str(scored_run("sloppy", 2)), "--rules", rules)
    assert text.returncode == 1
    assert "gate FAILED: 0 of 3 rules hold; breached: numeric hallucination per tier" in text.stdout


@pytest.mark.slow
def test_no_regression_against_a_baseline(
    run_cli: Run, scored_run: ScoredRun, tmp_path: Path
) -> None:
    rules = _rules(
        tmp_path,
        """
[[rule]]
no_regression = ["halluc_numbers", "halluc_strings", "faithfulness"]
""",
    )
    baseline = str(scored_run("typical", 1))
    worse = run_cli("gate", str(scored_run("sloppy", 2)), "--rules", rules, "--baseline", baseline)
    assert worse.returncode == 1, worse.stdout + worse.stderr
    assert "halluc_numbers: REGRESSED" in worse.stdout and "faithfulness: REGRESSED" in worse.stdout
    same = run_cli("gate", str(scored_run("typical", 2)), "--rules", rules, "--baseline", baseline)
    assert same.returncode == 0, same.stdout + same.stderr
    # an improvement is not a regression
    better = run_cli("gate", baseline, "--rules", rules, "--baseline", str(scored_run("sloppy", 2)))
    assert better.returncode == 0, better.stdout


def test_bad_rules_name_the_rule(tmp_path: Path) -> None:
    metrics = {"halluc_numbers", "faithfulness"}
    cases = {
        '[[rule]]\nmetric = "halluc_everything"\nmax = 0.1\n': "rule 1: unknown rate",
        '[[rule]]\nmetric = "halluc_numbers"\n': "exactly one of max or min",
        '[[rule]]\nmetric = "halluc_numbers"\nmax = 0.1\nper = "colour"\n': "per must be",
        '[[rule]]\nmetric = "halluc_numbers"\nmax = "low"\n': "must be a finite number (got 'low')",
        '[[rule]]\nmetric = "halluc_numbers"\nmax = 0.1\nmaximum = 2\n': "unknown key",
        '[[rule]]\nmetric = "halluc_numbers"\nmax = 0.1\nstatistic = "p99"\n': "statistic",
        '[[rule]]\nno_regression = ["speed"]\n': "unknown rate 'speed'",
        '[[rule]]\nno_regression = ["faithfulness"]\nalpha = 2\n': "alpha must be",
        "[[rule]\nbroken": "not TOML",
        "x = " + "[" * 10_000 + "]" * 10_000: "not TOML (nested deeper than 100 levels)",
        "": "no [[rule]] tables",
        '[[rules]]\nmetric = "halluc_numbers"\n': "unknown table 'rules'",
    }
    for text, needle in cases.items():
        path = Path(_rules(tmp_path, text))
        with pytest.raises(BadInput, match=re.escape(needle)) as caught:
            load_rules(path, metrics)
        assert str(path) in str(caught.value)
    fine = load_rules(
        Path(_rules(tmp_path, '[[rule]]\nmetric = "faithfulness"\nmin = 0.9\nper = "tier"\n')),
        metrics,
    )
    assert fine[0].name == "faithfulness micro per tier min 0.9"


@pytest.mark.slow
def test_bad_rules_are_exit_2(run_cli: Run, scored_run: ScoredRun, tmp_path: Path) -> None:
    run = str(scored_run("typical", 1))
    bad = run_cli("gate", run, "--rules", _rules(tmp_path, '[[rule]]\nmetric = "x"\nmax = 1\n'))
    assert bad.returncode == 2 and "rule 1: unknown rate 'x'" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    regression = _rules(tmp_path, '[[rule]]\nno_regression = ["halluc_numbers"]\n')
    result = run_cli("gate", run, "--rules", regression)
    assert result.returncode == 2 and "needs --baseline" in result.stderr
    missing = run_cli("gate", run, "--rules", str(tmp_path / "none.toml"))
    assert missing.returncode == 2 and "none.toml: missing" in missing.stderr


@pytest.mark.slow
def test_illegible_field_rates_are_gated(
    run_cli: Run, scored_run: ScoredRun, tmp_path: Path
) -> None:
    """Abstention and guesses on illegible fields (rule 3b) are rates a gate can hold: the
    perfect sim abstains on every one, the sloppy one guesses most of them."""
    rules = _rules(
        tmp_path,
        """
[[rule]]
metric = "abstained"
min = 0.99

[[rule]]
metric = "guess_wrong"
max = 0.0
per = "tier"

[[rule]]
no_regression = ["abstained", "guess_wrong"]
""",
    )
    perfect, sloppy = scored_run("perfect", 1), scored_run("sloppy", 1)
    held = run_cli(
        "gate", str(scored_run("perfect", 2)), "--rules", rules, "--baseline", str(perfect)
    )
    assert held.returncode == 0, held.stdout + held.stderr
    assert "gate passed: 3 of 3 rules hold" in held.stdout
    breached = run_cli("gate", str(sloppy), "--rules", rules, "--baseline", str(perfect))
    assert breached.returncode == 1, breached.stdout + breached.stderr
    assert sum(line.startswith("FAIL ") for line in breached.stdout.splitlines()) == 3
    assert "gate FAILED: 0 of 3 rules hold" in breached.stdout
    # The observed rates are the `illegible` view's.
    view = run_cli(
        "sql",
        str(sloppy),
        "--format",
        "json",
        "SELECT tier, abstention_rate, guess_wrong_rate FROM illegible ORDER BY tier",
    )
    rows = {r["tier"]: r for r in map(json.loads, view.stdout.splitlines())}
    assert set(rows) >= {"all", "N4", "N5"}
    assert f"{rows['all']['abstention_rate']:.6g}" in breached.stdout
    assert "abstained: REGRESSED" in breached.stdout and "guess_wrong: REGRESSED" in breached.stdout
    assert "tier N4:" in breached.stdout and "tier N5:" in breached.stdout


def test_illegible_field_rates_are_sliced_per_tier_only(tmp_path: Path) -> None:
    path = Path(_rules(tmp_path, '[[rule]]\nmetric = "guess_wrong"\nmax = 0.1\nper = "doc_type"\n'))
    with pytest.raises(BadInput, match="an illegible-field rate is sliced per tier only"):
        load_rules(path, {"halluc_numbers"}, frozenset({"guess_wrong"}))
