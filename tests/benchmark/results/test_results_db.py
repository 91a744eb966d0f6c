"""The results database holds exactly what the score files say, and SQL runs over many runs."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from packetbench.benchmark.results import DB_NAME, load_run, open_runs
from packetbench.benchmark.results.query import TABLES, metric_sql
from packetbench.benchmark.score.outputs import read_documents
from tests.support.errors import one_line_error as _error
from tests.support.files import read_json as _json
from tests.support.paths import PACKETS, canonical_documents
from tests.support.readback import doc_ids
from tests.support.runs import ScoredRun

Run = Callable[..., subprocess.CompletedProcess[str]]
FIELD_VIEW = ("gt_fields", "correct", "wrong", "omitted", "gt_null_fields", "abstained", "answered")


@pytest.mark.parametrize(("profile", "seed"), [("typical", 1), ("sloppy", 2)])
def test_field_view_per_leaf_adds_up_to_field_breakdown(
    scored_run: ScoredRun, profile: str, seed: int
) -> None:
    """Every truth leaf's outcome, counted per document, equals the scorer's field counts."""
    run = scored_run(profile, seed)
    expected = {key: doc["fields"] for key, doc in read_documents(run / "scores").items()}
    with open_runs([run]) as runs:
        rows = runs.rows("""
            SELECT packet_id || '/' || doc_id AS document,
                   COUNT(*) FILTER (WHERE populated) AS gt_fields,
                   COUNT(*) FILTER (WHERE outcome = 'correct') AS correct,
                   COUNT(*) FILTER (WHERE outcome = 'wrong') AS wrong,
                   COUNT(*) FILTER (WHERE outcome = 'omitted') AS omitted,
                   COUNT(*) FILTER (WHERE NOT populated) AS gt_null_fields,
                   COUNT(*) FILTER (WHERE outcome = 'abstained') AS abstained,
                   COUNT(*) FILTER (WHERE outcome = 'answered') AS answered
            FROM fields GROUP BY document ORDER BY document""")
    assert len(rows) == len(expected) > 40
    for row in rows:
        document = row.pop("document")
        assert row == {k: expected[document][k] for k in FIELD_VIEW}, document


@pytest.mark.slow
def test_tables_match_the_score_files(scored_run: ScoredRun) -> None:
    run = scored_run("sloppy", 2)  # a run with missing and schema-invalid documents
    scores = run / "scores"
    grounding = _json(scores / "hallucination.json")
    fields = _json(scores / "field_breakdown.json")
    scored = read_documents(scores)
    claims = duckdb.execute(f"SELECT * FROM '{scores / 'claims.parquet'}'").fetchall()
    with open_runs([run]) as runs:
        assert runs.rows("SELECT COUNT(*) AS n FROM claims")[0]["n"] == len(claims)
        documents = {f"{r['packet_id']}/{r['doc_id']}": r for r in runs.metric("documents")}
        headline = {r["metric"]: r for r in runs.metric("headline")}
        by_tier = {
            (r["slice"], r["metric"]): r for r in runs.metric("slices") if r["dimension"] == "tier"
        }
        by_claims = runs.rows("""
            SELECT packet_id || '/' || doc_id AS document, value_class,
                   COUNT(hallucinated) AS checked, COUNT(*) FILTER (WHERE hallucinated) AS h
            FROM claims GROUP BY ALL ORDER BY ALL""")
        completion = runs.metric("completion")[0]
        # one row per document, slice and rate: a slice's macro rate averages documents
        repeated = runs.rows("""
            SELECT COUNT(*) AS n FROM (SELECT run_id, dimension, slice, metric, packet_id, doc_id
                                       FROM slice_units GROUP BY ALL HAVING COUNT(*) > 1)""")
        assert repeated == [{"n": 0}]
    excluded = fields["excluded"]
    assert completion["scored"] == fields["documents_scored"]
    assert completion["missing"] == len(excluded["missing"]) > 0
    assert completion["invalid"] == len(excluded["invalid"]) > 0
    assert completion["error"] == len(excluded["error"])
    assert {k for k, r in documents.items() if r["status"] == "scored"} == set(scored)
    for key, doc in scored.items():
        row, tally = documents[key], doc["grounding"]
        for kind in ("numbers", "strings"):
            assert row[f"{kind}_checked"] == tally["packet"][kind]["checked"]
            assert row[f"{kind}_hallucinated"] == tally["packet"][kind]["hallucinated"]
            assert row[f"{kind}_hallucinated_document"] == tally["document"][kind]["hallucinated"]
    for row in by_claims:  # claim-level rows add up to the per-document tallies
        tally = scored[row["document"]]["grounding"]["packet"][row["value_class"]]
        assert (row["checked"], row["h"]) == (tally["checked"], tally["hallucinated"])
    overall = grounding["overall"]["packet"]
    for metric, kind in (("halluc_numbers", "numbers"), ("halluc_strings", "strings")):
        assert headline[metric]["micro"] == pytest.approx(overall[kind]["rate_micro"], abs=1e-6)
        assert headline[metric]["macro"] == pytest.approx(overall[kind]["rate_macro"], abs=1e-6)
        for tier, summary in grounding["by_tier"].items():
            assert by_tier[(tier, metric)]["micro"] == pytest.approx(
                summary["packet"][kind]["rate_micro"], abs=1e-6
            )
    verdicts = grounding["verdicts"]["overall"]
    assert headline["faithfulness"]["num"] == verdicts["supported"]
    assert headline["faithfulness"]["den"] == sum(verdicts.values())


@pytest.mark.slow
def test_every_query_answers_the_same_after_reloading(
    scored_run: ScoredRun, tmp_path: Path
) -> None:
    """The database file need not be byte-identical, but every table and view must be."""
    original = scored_run("typical", 1)
    copy = tmp_path / original.name
    shutil.copytree(original, copy)
    (copy / DB_NAME).unlink()
    load_run(copy, PACKETS)
    answers = []
    for run in (original, copy):
        with open_runs([run]) as runs:
            answers.append(
                {name: runs.rows(f"SELECT * FROM {name}") for name in (*TABLES, *metric_sql())}
            )
            # The one view without an order (slice_units holds its rows in order)
            answers[-1]["slice_unit_rows"].sort(key=repr)
    assert answers[0] == answers[1]
    assert all(
        answers[0][name] for name in ("runs", "documents", "fields", "claims", "headline", "slices")
    )


def test_runs_with_the_same_name_are_told_apart(scored_run: ScoredRun, tmp_path: Path) -> None:
    first = scored_run("typical", 1)
    other = tmp_path / "elsewhere" / first.name
    shutil.copytree(first, other)
    with open_runs([first, other]) as runs:
        names = [r["run_id"] for r in runs.rows("SELECT run_id FROM runs ORDER BY run_id")]
    assert sorted(names) == sorted([str(first), str(other)])


@pytest.mark.slow
def test_score_writes_the_database_and_sql_reads_many_runs(
    run_cli: Run, tmp_path: Path, scored_run: ScoredRun
) -> None:
    run = tmp_path / "run"
    packet = str(PACKETS / "N2-000001")
    assert run_cli("extract", "--packets", packet, "--out", str(run), "--seed", "4").returncode == 0
    scored = run_cli("score", str(run), "--packets", packet)
    assert scored.returncode == 0, scored.stderr
    with duckdb.connect(str(run / DB_NAME), read_only=True) as con:
        assert con.execute("SELECT COUNT(*) FROM documents").fetchone() == (
            len(doc_ids(PACKETS / "N2-000001")),
        )
    other = scored_run("sloppy", 2)
    result = run_cli(
        "sql",
        str(run),
        str(other),
        "--format",
        "csv",
        "SELECT run_id, COUNT(*) AS documents FROM documents GROUP BY run_id ORDER BY run_id",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "run_id,documents",
        f"run,{len(doc_ids(PACKETS / 'N2-000001'))}",
        f"sloppy-2,{canonical_documents()}",
    ]
    listed = run_cli("sql", str(run), "--format", "json", "SELECT metric FROM catalog")
    metrics = [json.loads(line)["metric"] for line in listed.stdout.splitlines()]
    assert metrics[:2] == ["halluc_numbers", "halluc_strings"] and "faithfulness" in metrics
    table = run_cli("sql", str(run), "SELECT metric, micro FROM headline")
    assert table.returncode == 0 and "halluc_numbers" in table.stdout
    assert table.stdout.rstrip().endswith("11 row(s)")


@pytest.mark.slow
def test_sql_bad_input_is_one_line(run_cli: Run, tmp_path: Path, scored_run: ScoredRun) -> None:
    run = str(scored_run("typical", 1))
    _error(run_cli("sql", run, "SELECT nothing FROM nowhere"), "SQL:", "nowhere")
    _error(run_cli("sql", str(tmp_path), "SELECT 1"), "results.duckdb: missing", "not a run folder")
    unscored = tmp_path / "unscored"
    unscored.mkdir()
    (unscored / "run.json").write_text("{}")
    _error(run_cli("sql", str(unscored), "SELECT 1"), "score the run first")
    _error(run_cli("sql", run, "--format", "xml", "SELECT 1"), "--format")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / DB_NAME).write_text("not a database")
    _error(run_cli("sql", str(broken), "SELECT 1"), "not a results database")
