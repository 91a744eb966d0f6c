"""`packetbench verify`: every claim labelled once, deterministic, resumable, in the database."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from packetbench.benchmark.score.verdicts import VERDICTS
from packetbench.benchmark.verify.prompt import check
from tests.support.audit import Run
from tests.support.files import copy_folder as _copy


def _labels(run: Path) -> list[dict[str, object]]:
    text = (run / "judge" / "sim-sim" / "labels.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def test_every_claim_gets_one_label_with_a_span(
    run_cli: Run, scored_n1: Path, tmp_path: Path
) -> None:
    world = _copy(scored_n1, tmp_path)
    run = world / "run"
    # A perfect judge (both rates 1) gives every claim the scorer's own verdict.
    done = run_cli(
        "verify", str(run), "--claims-per-request", "7", "--sensitivity", "1", "--specificity", "1"
    )
    assert done.returncode == 0, done.stderr
    labels = _labels(run)
    with duckdb.connect(str(run / "results.duckdb"), read_only=True) as con:
        claims = con.execute("SELECT packet_id, doc_id, source FROM claims ORDER BY ALL").fetchall()
        stored = con.execute("SELECT COUNT(*) FROM judge_labels").fetchone()
        disagree = con.execute(
            "SELECT COUNT(*) FROM judge_labels j JOIN claims c ON c.packet_id = j.packet_id "
            "AND c.doc_id = j.doc_id AND c.source = j.path WHERE c.verdict <> j.verdict"
        ).fetchone()
    # The judge's claims are the scorer's claims, named by the same output path.
    assert sorted((r["packet_id"], r["doc_id"], r["path"]) for r in labels) == claims
    assert stored == (len(labels),)
    assert disagree == (0,)
    assert {r["verdict"] for r in labels} <= set(VERDICTS)
    supported = [r for r in labels if r["verdict"] == "supported"]
    assert supported and all(r["quote"] is not None for r in supported)
    assert any(r["page"] is not None for r in supported)
    assert f"{len(labels):,} claims" in done.stdout


@pytest.mark.slow
def test_same_settings_same_labels_and_resume_pays_only_for_missing_batches(
    run_cli: Run, scored_n1: Path, tmp_path: Path
) -> None:
    world = _copy(scored_n1, tmp_path)
    run = world / "run"
    folder = run / "judge" / "sim-sim"
    fresh = run_cli("verify", str(run), "--seed", "5")
    assert fresh.returncode == 0
    assert "kept" not in fresh.stdout  # nothing to keep from an earlier pass: nothing said
    first = (folder / "labels.jsonl").read_bytes()
    # A killed verify: judge.json still says running, and three batches never finished.
    about = json.loads((folder / "judge.json").read_text())
    (folder / "judge.json").write_text(json.dumps({**about, "status": "running"}))
    finished = sorted((folder / "labels").rglob("*.json"))
    for path in finished[:3]:
        path.unlink()
    (folder / "labels.jsonl").unlink()
    again = run_cli("verify", str(run), "--seed", "5", "--resume")
    assert again.returncode == 0, again.stderr
    assert "3 requests" in again.stdout
    assert f"{len(finished) - 3:,} kept from an earlier pass" in again.stdout
    assert (folder / "labels.jsonl").read_bytes() == first
    # A resume with other settings is refused; --force starts over, to the same labels.
    other = run_cli("verify", str(run), "--seed", "6", "--resume")
    assert other.returncode == 2
    assert "parameters" in other.stderr
    assert run_cli("verify", str(run), "--seed", "5", "--force").returncode == 0
    assert (folder / "labels.jsonl").read_bytes() == first


def test_a_blind_judge_calls_everything_supported(
    run_cli: Run, scored_n1: Path, tmp_path: Path
) -> None:
    world = _copy(scored_n1, tmp_path)
    run = world / "run"
    blind = run_cli("verify", str(run), "--sensitivity", "0", "--specificity", "1")
    assert blind.returncode == 0, blind.stderr
    assert {r["verdict"] for r in _labels(run)} == {"supported"}
    # Its calibration catches it: it flags none of the hallucinated claims.
    found = json.loads((run / "judge" / "sim-sim" / "calibration.json").read_text())
    assert found["sensitivity"]["estimate"] == 0.0
    assert found["specificity"]["estimate"] == 1.0


def test_an_answer_that_breaks_the_label_schema_is_refused() -> None:
    label = {"claim": 1, "verdict": "supported", "page": 2, "quote": "ACME"}
    assert check({"labels": [label]}, 1) is None
    assert "schema-invalid" in str(check({"labels": [{**label, "verdict": "maybe"}]}, 1))
    assert "schema-invalid" in str(check({"labels": [{**label, "extra": 1}]}, 1))
    assert "not 1 to 2 once each" in str(check({"labels": [label, label]}, 2))
