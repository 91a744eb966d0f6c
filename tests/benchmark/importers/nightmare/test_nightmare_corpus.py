"""The whole reference corpus, imported, scored and reconciled (skipped when it is absent).

The corpus sits beside the repository, at ../shared/reference/nightmare (CI has it there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.support.files import read_json as _json
from tests.support.paths import ROOT
from tests.support.scoring import ledger_mismatches

CORPUS = (ROOT.parent / "shared" / "reference" / "nightmare").resolve()
COHORTS = 15

pytestmark = pytest.mark.skipif(
    not (CORPUS / "ground_truth").is_dir(), reason=f"the reference corpus is not at {CORPUS}"
)


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


def test_the_corpus_holds_five_tiers_and_every_cohort() -> None:
    """What the import below reads, as the reference lays it out: a ground truth per tier and
    a published aggregate per cohort (cheap: no import)."""
    truths = sorted(p.name.split("_")[0] for p in (CORPUS / "ground_truth").glob("N*_*.json"))
    assert truths == ["N1", "N2", "N3", "N4", "N5"]
    published = _json(CORPUS / "results_aggregate" / "hallucination_report.json")
    assert len(published) == COHORTS


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["typical", "sloppy"])
def test_the_simulator_answers_every_document_in_its_own_schema(
    reconciled: Path, tmp_path: Path, run_cli: Any, profile: str
) -> None:
    """`extract --provider sim` on the imported corpus: every answer the ledger calls ok is an
    instance of its document's own JSON Schema and every one it calls invalid is not; the
    scorer recovers every count the ledger says it injected, of every kind the corpus allows
    (it has no superseded document, so no stale value)."""
    packets, run = reconciled / "packets", tmp_path / profile
    done = run_cli(
        "extract", "--provider", "sim", "--profile", profile, "--packets", str(packets),
        "--out", str(run),
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    scored = run_cli("score", str(run), "--packets", str(packets))
    assert scored.returncode == 0, scored.stderr
    assert ledger_mismatches(run) == []
    ledger = _json(run / "sim_injections.json")
    validators: dict[Path, jsonschema.Draft202012Validator] = {}
    answers = 0
    for path in sorted((run / "extractions").glob("*/*.json")):
        record = _json(path)
        if record["status"] != "ok":
            continue
        listed = _json(packets / record["packet_id"] / "packet_truth.json")["documents"]
        schema = next(d["schema"] for d in listed if d["doc_id"] == record["doc_id"])
        file = packets / record["packet_id"] / "schemas" / f"{schema.split('/')[1]}.schema.json"
        if file not in validators:
            validators[file] = jsonschema.Draft202012Validator(_json(file))
        valid = validators[file].is_valid(record["output"])
        status = ledger["documents"][f"{record['packet_id']}/{record['doc_id']}"]["status"]
        assert valid == (status == "ok"), path
        answers += 1
    assert answers == sum(
        1 for d in ledger["documents"].values() if d["status"] in ("ok", "invalid")
    )
    kinds = {"omit", "wrong_in_universe", "wrong_out_of_universe", "composed", "overreach"}
    kinds |= {"moved", "reformat", "fabricate", "drop", "invent", "shuffle"}
    assert kinds <= set(ledger["overall"]["injected"]), ledger["overall"]["injected"]
