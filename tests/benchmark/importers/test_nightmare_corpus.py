"""The whole reference corpus, imported, scored and reconciled (skipped when it is absent).

The corpus sits beside the repository, at ../shared/reference/nightmare (CI has it there).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import ROOT

CORPUS = (ROOT.parent / "shared" / "reference" / "nightmare").resolve()
COHORTS = 15

pytestmark = pytest.mark.skipif(
    not (CORPUS / "ground_truth").is_dir(), reason=f"the reference corpus is not at {CORPUS}"
)


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def reconciled(tmp_path_factory: pytest.TempPathFactory, run_cli: Any) -> Path:
    out = tmp_path_factory.mktemp("nightmare") / "out"
    done = run_cli(
        "import", "nightmare", str(CORPUS), "--out", str(out), "--reconcile", timeout=1800
    )
    assert done.returncode == 0, done.stderr
    assert "imported 5 packets, 148 documents, 15 cohorts" in done.stdout
    return out


@pytest.mark.slow
def test_every_document_and_cohort_is_imported(reconciled: Path) -> None:
    report = _json(reconciled / "import.json")
    assert report["documents"] == 148
    assert len(report["cohorts"]) == COHORTS
    assert sum(sum(c.values()) for c in report["cohorts"].values()) == 148 * COHORTS
    assert len(report["schemas"]) == 26
    leaves = report["leaves"]
    assert (
        leaves["unmapped"]
        == len(report["unmapped"])
        == sum(s["unmapped"] for s in report["schemas"].values())
    )
    assert leaves["mapped"] == sum(s["mapped"] for s in report["schemas"].values()) > 10_000


@pytest.mark.slow
def test_published_column_is_the_corpus_s_own(reconciled: Path) -> None:
    published = _json(CORPUS / "results_aggregate" / "hallucination_report.json")
    breakdown = _json(CORPUS / "results_aggregate" / "field_breakdown.json")
    cohorts = _json(reconciled / "reconciliation.json")["cohorts"]
    assert len(cohorts) == COHORTS
    for cohort in cohorts:
        theirs = published[cohort["cohort"]]["aggregate"]["overall"]
        shown = cohort["published"]
        assert shown["numbers"]["rate"] == theirs["number_hallucination_rate"]
        assert shown["strings"]["rate"] == theirs["string_hallucination_rate"]
        assert shown["numbers"]["checked"] == theirs["numbers_checked"]
        assert (
            shown["fields"]["omitted"]
            == breakdown[cohort["cohort"]]["overall"]["omission_rate_micro"]
        )


def test_nothing_is_left_unexplained(reconciled: Path) -> None:
    result = _json(reconciled / "reconciliation.json")
    assert {c["cohort"]: c["unexplained"] for c in result["cohorts"]} == {
        c["cohort"]: 0 for c in result["cohorts"]
    }
    for cohort in result["cohorts"]:
        assert cohort["claims_judged_differently"] == sum(c["claims"] for c in cohort["causes"])
        assert cohort["claims_judged_differently"] > 0
    assert len(result["ranking"]) == COHORTS
    assert len(result["paired"]) == 3 * 10  # every pair of five models, at each effort
