"""Gate rules on grounding rates: held by a cited run, breached by a run without citations
(no values is not a pass), and refused when they slice where grounding has no slices."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.benchmark.report.gate import run_gate
from packetbench.core.errors import BadInput
from tests.support.small_runs import small_run

RULES = """
[[rule]]
metric = "citation_recall"
statistic = "lower"
min = 0.5

[[rule]]
metric = "citation_precision_box"
min = 0.99

[[rule]]
metric = "grounding_f1_page"
per = "doc_type"
min = 0.3
"""


@pytest.mark.slow
def test_gate_on_grounding_rates(cited_and_plain: tuple[Path, Path], tmp_path: Path) -> None:
    cited, plain = cited_and_plain
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    held = {r.rule.metric: r for r in run_gate(cited, rules).results}
    assert held["citation_recall"].passed
    assert not held["citation_precision_box"].passed  # the sim cuts 15 % of boxes to IoU 0.3
    assert held["grounding_f1_page"].passed and "worst:" in held["grounding_f1_page"].observed
    absent = run_gate(plain, rules).results
    assert [r.passed for r in absent] == [False, False, False]
    assert {r.observed for r in absent} == {"no values"}
    rules.write_text('[[rule]]\nmetric = "citation_recall"\nper = "kind"\nmin = 0.5\n')
    with pytest.raises(BadInput, match="sliced per tier or doc_type only"):
        run_gate(cited, rules)


def test_gate_on_grounding_rates_of_two_documents(tmp_path: Path) -> None:
    """The fast tier's check on two documents: a cited run holds a low citation recall floor
    and breaches a box precision it cannot reach; a run without citations has no values (a
    breach, not a pass); a per-kind slice is refused."""
    cited = small_run(tmp_path / "cited")
    plain = small_run(tmp_path / "plain", cite=None)
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    held = {r.rule.metric: r for r in run_gate(cited, rules).results}
    assert held["citation_recall"].passed
    assert not held["citation_precision_box"].passed
    absent = run_gate(plain, rules).results
    assert [r.passed for r in absent] == [False, False, False]
    assert {r.observed for r in absent} == {"no values"}
    rules.write_text('[[rule]]\nmetric = "citation_recall"\nper = "kind"\nmin = 0.5\n')
    with pytest.raises(BadInput, match="sliced per tier or doc_type only"):
        run_gate(cited, rules)
