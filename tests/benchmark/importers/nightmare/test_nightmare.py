"""`packetbench import nightmare` on a small corpus written in the reference's format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pypdfium2
import pytest

from packetbench.benchmark.importers.nightmare import rendered
from packetbench.benchmark.importers.nightmare.truth import convert
from packetbench.truth.namespaces.nightmare import kind_of, project, scored_schema
from packetbench.truth.validate import problem
from tests.support.corpus_fixture import (
    ACORD_25_SCHEMA,
    FIELD_BREAKDOWN,
    GPT55_ACORD,
    PUBLISHED_DOCS,
    write_corpus,
)
from tests.support.files import read_json as _json


@pytest.fixture(scope="module")
def imported(corpus: Path, tmp_path_factory: pytest.TempPathFactory, run_cli: Any) -> Path:
    out = tmp_path_factory.mktemp("imported") / "out"
    done = run_cli("import", "nightmare", str(corpus), "--out", str(out), "--reconcile")
    assert done.returncode == 0, done.stderr
    assert "imported 1 packets, 2 documents, 2 cohorts (4 records: 1 error, 3 ok)" in done.stdout
    assert "leaves: 12 mapped, 3 unmapped" in done.stdout
    return out


@pytest.mark.slow
def test_document_truth_is_an_instance_of_its_own_schema(imported: Path) -> None:
    packet = imported / "packets" / "N1-070001"
    listed = _json(packet / "packet_truth.json")["documents"]
    assert [(d["doc_id"], d["schema"], d["file"]) for d in listed] == [
        ("acord_25", "nightmare/acord_25", "acord_25.pdf"),
        ("loss_run_csv", "nightmare/loss_run", "loss_run_csv.csv"),
    ]
    truth = _json(packet / "document_truth_acord_25.json")["truth"]
    assert truth == {
        "header": {
            "insured_name": "Lone Star Holdings, LP",
            "insured_zip": "75201",
            "policy_period_start": "2025-07-01",
        },
        "total_premium": 1250,
        "coverages": [{"coverage_type": "Property", "limit": 500000}],
        "forms_attached": ["CP 00 10"],
        "flags": {"sprinklered": True},
    }
    loss = _json(packet / "document_truth_loss_run_csv.json")["truth"]
    assert loss == {
        "claims": [{"claim_number": "CL-1001", "paid": 1200.0, "status": "Open"}],
        "grand_totals": {"paid": 1200.0},
    }
    schema = scored_schema((packet / "schemas" / "acord_25.schema.json").read_bytes())
    assert problem(schema.model, schema.project(truth)) is None
    # The schema file is the corpus's own, byte for byte.
    assert _json(packet / "schemas" / "acord_25.schema.json") == ACORD_25_SCHEMA


@pytest.mark.slow
def test_field_truth_paths_kinds_and_spellings(imported: Path) -> None:
    fields = {
        f["path"]: f
        for f in _json(imported / "packets" / "N1-070001" / "field_truth_acord_25.json")["fields"]
    }
    assert sorted(fields) == [
        "coverages[0].coverage_type",
        "coverages[0].limit",
        "flags.sprinklered",
        "forms_attached[0]",
        "header.insured_name",
        "header.insured_zip",
        "header.policy_period_start",
        "total_premium",
    ]
    assert {p: f["kind"] for p, f in fields.items()} == {
        "coverages[0].coverage_type": "string",
        "coverages[0].limit": "money",
        "flags.sprinklered": "checkbox",
        "forms_attached[0]": "string",
        "header.insured_name": "string",
        "header.insured_zip": "id",
        "header.policy_period_start": "date",
        "total_premium": "money",
    }
    assert fields["header.policy_period_start"]["rendered_as"] == "07/01/2025"
    assert fields["header.policy_period_start"]["rendered_as_from"] == "corpus"
    assert fields["coverages[0].coverage_type"]["rendered_as_from"] == "element"
    assert fields["flags.sprinklered"]["rendered_as_from"] == "value"


def test_unmapped_leaves_are_counted_and_listed(imported: Path) -> None:
    report = _json(imported / "import.json")
    assert report["documents"] == 2
    assert report["leaves"]["mapped"] == 12
    assert report["leaves"]["metadata"] == 3
    assert [(u["doc_id"], u["leaf"], u["reason"]) for u in report["unmapped"]] == [
        ("acord_25", "fields.broker_color", "no schema leaf of that name"),
        ("acord_25", "coverages[0].rating_basis", "no schema leaf of that name"),
        ("loss_run_csv", "claims[0].examiner", "no schema leaf of that name"),
    ]
    assert report["schemas"]["acord_25"] == {
        "documents": 1,
        "mapped": 8,
        "unmapped": 2,
        "metadata": 1,
    }


def test_boxes_become_bottom_left_bboxes_the_pdf_reads_back(imported: Path) -> None:
    packet = imported / "packets" / "N1-070001"
    fields = _json(packet / "field_truth_acord_25.json")["fields"]
    located = [f for f in fields if f["locations"]]
    assert len(located) == 3
    document = pypdfium2.PdfDocument(str(packet / "acord_25.pdf"))
    try:
        text = document[0].get_textpage()
        for field in located:
            (where,) = field["locations"]
            assert where["text_layer"] is True
            x0, y0, x1, y1 = where["bbox"]
            assert y0 < y1 and x0 < x1
            assert (
                text.get_text_bounded(x0 - 1, y0 - 1, x1 + 1, y1 + 1).strip()
                == field["rendered_as"]
            )
    finally:
        document.close()


def test_manifests_map_pattern_ids_to_ours(imported: Path) -> None:
    manifest = _json(imported / "packets" / "N1-070001" / "manifest_acord_25.json")
    assert [
        (p["id"], p["reference"], p["corresponds"], p["phase"], p["pages_affected"])
        for p in manifest["patterns_applied"]
    ] == [
        ("overlay.watermark", "p09_watermark", ["overlay.watermark"], "overlay", []),
        ("scan.skewed", "p43_skewed_scan", ["scan.skewed"], "scan", [2]),
    ]


def test_runs_hold_records_usage_model_and_effort(imported: Path) -> None:
    high = imported / "runs" / "gpt55_high"
    info = _json(high / "run.json")
    assert (info["model"], info["provider"], info["reasoning"]) == ("gpt-5.5", "openai", "high")
    stub = _json(high / "extractions" / "N1-070001" / "loss_run_csv.json")
    assert (stub["status"], stub["error"], stub["output"]) == ("error", "Request timed out", None)
    record = _json(imported / "runs" / "gpt55" / "extractions" / "N1-070001" / "acord_25.json")
    assert record["status"] == "ok" and record["output"] == GPT55_ACORD
    assert record["usage"] == {
        "input_tokens": 1000,
        "output_tokens": 200,
        "reasoning_tokens": 0,
        "cost_usd": 0.01,
    }
    assert record["latency_s"] == 3.5


def test_reconciliation_explains_every_difference(imported: Path) -> None:
    result = _json(imported / "reconciliation.json")
    assert result["unexplained"] == 0
    by_cohort = {c["cohort"]: c for c in result["cohorts"]}
    published = by_cohort["gpt55"]["published"]
    assert (
        published["numbers"]["checked"],
        published["numbers"]["hallucinated"],
        published["strings"]["checked"],
        published["strings"]["hallucinated"],
    ) == (4, 2, 5, 1)
    assert (
        published["fields"]["correct"]
        == FIELD_BREAKDOWN["gpt55"]["overall"]["correctness_rate_micro"]
    )
    causes = {c["cause"]: c["claims"] for c in by_cohort["gpt55"]["causes"]}
    assert causes == {
        "skipped leaf name in their list (dates, types, codes...)": 3,
        "aggregate total: theirs skips total_*": 1,
        "generic word theirs skips (yes, no, open, closed...)": 1,
        "numeric string: theirs checks it as a number, ours as a string (its kind)": 1,
        "skipped path fragment in their list (totals, producer, checkboxes...)": 1,
    }
    high = by_cohort["gpt55_high"]
    assert [(c["cause"], c["claims"]) for c in high["causes"]] == [
        ("document not scored by ours: output not valid against its schema (an extra key)", 5)
    ]
    ours = by_cohort["gpt55"]["ours"]["packet"]["numbers"]
    assert (ours["checked"], ours["hallucinated"]) == (5, 2)  # limit 750000, paid 50
    assert (imported / "reconciliation.md").read_text(encoding="utf-8").count("| gpt55") >= 3


@pytest.mark.slow
def test_reconciliation_shows_both_invalid_policies(
    corpus: Path, imported: Path, tmp_path: Path, run_cli: Any
) -> None:
    """gpt55_high's only output carries a key its schema lacks: excluded, the cohort is rated
    on no document; salvaged, on that one, its extra key an invented key. The reconciliation
    shows both whichever policy scored the runs, and --invalid salvage explains every
    difference with the document scored."""
    default = {c["cohort"]: c for c in _json(imported / "reconciliation.json")["cohorts"]}
    both = default["gpt55_high"]["ours"]["policies"]
    assert [both["exclude"]["documents"], both["salvage"]["documents"]] == [0, 1]
    assert (both["salvage"]["salvaged"], both["salvage"]["invented_keys"]) == (1, 1)
    assert both["salvage"]["numbers"] == {"checked": 2, "hallucinated": 1, "rate": 0.5}
    out = tmp_path / "out"
    done = run_cli(
        "import", "nightmare", str(corpus), "--out", str(out), "--reconcile", "--invalid", "salvage"
    )
    assert done.returncode == 0, done.stderr
    result = _json(out / "reconciliation.json")
    assert result["unexplained"] == 0
    salvaged = {c["cohort"]: c for c in result["cohorts"]}
    high = salvaged["gpt55_high"]
    assert (high["ours"]["policy"], high["ours"]["documents"]) == ("salvage", 1)
    assert high["ours"]["policies"] == both
    assert salvaged["gpt55"]["ours"]["policies"] == default["gpt55"]["ours"]["policies"]
    assert not any(c["cause"].startswith("document not scored") for c in high["causes"])
    row = "| gpt55_high | 0 | – (0/0) | – (0/0) | 1 | 1 | 50.00 % (1/2) | 0.00 % (0/6) |"
    assert f"{row} 1 of 13 keys |" in (out / "reconciliation.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_published_count_it_cannot_reproduce_is_unexplained(
    corpus: Path, tmp_path: Path, run_cli: Any
) -> None:
    altered = tmp_path / "corpus"
    write_corpus(altered)
    report_path = altered / "results_aggregate" / "hallucination_report.json"
    report = _json(report_path)
    key = "N1_easy_70001/acord_25"
    report["gpt55"]["docs"][key]["strings_checked"] = PUBLISHED_DOCS["gpt55"][key][0] + 1
    report_path.write_text(json.dumps(report), encoding="utf-8")
    done = run_cli(
        "import", "nightmare", str(altered), "--out", str(tmp_path / "out"), "--reconcile"
    )
    assert done.returncode == 1
    assert "1 claims judged differently are not explained" in done.stderr
    assert _json(tmp_path / "out" / "reconciliation.json")["unexplained"] == 1


@pytest.mark.slow
def test_imported_runs_score_report_and_gate(imported: Path, tmp_path: Path, run_cli: Any) -> None:
    run, packets = imported / "runs" / "gpt55", imported / "packets"
    scored = run_cli("score", str(run), "--packets", str(packets))
    assert scored.returncode == 0, scored.stderr
    assert "2 documents scored" in scored.stdout
    report = run_cli("report", str(run), "--out", str(tmp_path / "report"))
    assert report.returncode == 0, report.stderr
    assert "gpt-5.5" in (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    sql = run_cli("sql", str(run), "SELECT count(*) AS n FROM claims", "--format", "csv")
    assert sql.returncode == 0, sql.stderr
    assert sql.stdout.splitlines()[1] == "15"  # 8 claims of the ACORD 25, 7 of the loss run
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\nmetric = "halluc_numbers"\nmax = 0.1\n', encoding="utf-8")
    gate = run_cli("gate", str(run), "--rules", str(rules))
    assert gate.returncode == 1 and "halluc_numbers" in gate.stdout  # 2 of 5 numbers invented


@pytest.mark.slow
def test_import_is_deterministic(
    corpus: Path, imported: Path, tmp_path: Path, run_cli: Any
) -> None:
    again = tmp_path / "again"
    done = run_cli(
        "import", "nightmare", str(corpus), "--out", str(again), env={"PYTHONHASHSEED": "7"}
    )
    assert done.returncode == 0, done.stderr
    first = {
        p.relative_to(imported): p.read_bytes()
        for p in sorted((imported / "packets").rglob("*"))
        if p.is_file()
    }
    second = {
        p.relative_to(again): p.read_bytes()
        for p in sorted((again / "packets").rglob("*"))
        if p.is_file()
    }
    assert first == second
    for name in ("import.json", "runs/gpt55/extractions/N1-070001/acord_25.json"):
        assert (imported / name).read_bytes() == (again / name).read_bytes()
    scored = run_cli(
        "score",
        str(again / "runs" / "gpt55"),
        "--packets",
        str(again / "packets"),
        env={"PYTHONHASHSEED": "11"},
    )
    assert scored.returncode == 0, scored.stderr
    for name in (
        "hallucination.json",
        "field_breakdown.json",
        "documents.parquet",
        "claims.parquet",
        "fields.parquet",
    ):
        assert (again / "runs" / "gpt55" / "scores" / name).read_bytes() == (
            imported / "runs" / "gpt55" / "scores" / name
        ).read_bytes()


@pytest.mark.slow
def test_bad_input_is_one_line_and_touches_nothing(
    corpus: Path, imported: Path, tmp_path: Path, run_cli: Any
) -> None:
    done = run_cli("import", "nightmare", str(tmp_path), "--out", str(tmp_path / "o"))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"packetbench: error: {tmp_path}: not the reference corpus (no ground_truth/ and schemas/)"
    ]
    before = (imported / "import.json").read_bytes()
    done = run_cli("import", "nightmare", str(corpus), "--out", str(imported))
    assert done.returncode == 2
    assert "already holds an import (use --force" in done.stderr
    assert (imported / "import.json").read_bytes() == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    done = run_cli("import", "nightmare", str(corpus), "--out", str(other), "--force")
    assert done.returncode == 2 and "not an import" in done.stderr
    assert (other / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_kinds_follow_the_stated_rules() -> None:
    def kind(name: str, types: Any, **extra: Any) -> str:
        return kind_of(name, {"type": types, **extra})

    assert kind("loss_ratio", ["number", "null"]) == "percent"
    assert kind("building_value", ["number", "null"]) == "money"
    assert kind("stories", ["integer", "null"]) == "number"
    assert kind("answer", ["string", "null"], enum=["Yes", "No", None]) == "checkbox"
    assert kind("status", ["string", "null"], enum=["Open", "Closed"]) == "enum"
    assert kind("date_of_loss", ["string", "null"]) == "date"
    assert kind("claim_number", ["string", "null"]) == "id"
    assert kind("executive_summary", ["string", "null"]) == "text"
    assert kind("insured_name", ["string", "null"]) == "string"
    assert kind("excluded", ["boolean", "null"]) == "checkbox"


def test_projection_makes_string_lists_and_booleans_scoreable() -> None:
    schema = scored_schema(json.dumps(ACORD_25_SCHEMA).encode())
    projected = project(ACORD_25_SCHEMA, GPT55_ACORD)
    assert projected["forms_attached"] == [{"item": "CP 00 10"}]
    assert projected["flags"] == {"sprinklered": "Yes"}
    assert problem(schema.model, projected) is None
    assert (
        problem(schema.model, project(ACORD_25_SCHEMA, {**GPT55_ACORD, "extra": 1}))
        == "(root): additional property 'extra' is not allowed"
    )


def test_values_that_do_not_fit_are_unmapped() -> None:
    schema = {
        "type": "object",
        "properties": {
            "status": {"type": ["string", "null"], "enum": ["Open", "Closed", None]},
            "a": {"type": "object", "properties": {"name": {"type": "string"}}},
            "b": {"type": "object", "properties": {"name": {"type": "string"}}},
            "paid": {"type": ["number", "null"]},
        },
    }
    out = convert(
        schema,
        {"fields": {"status": {"value": "open"}, "name": "X", "paid": "n/a"}},
        lambda boxes: [],
    )
    assert out.truth["status"] == "Open"  # matched ignoring case
    assert [(u.leaf, u.reason) for u in out.unmapped] == [
        ("fields.name", "ambiguous: a.name, b.name"),
        ("fields.paid", "paid: not a number"),
    ]


def test_hidden_cells_go_under_hidden() -> None:
    found = rendered.universe(
        "sov_excel",
        "xlsx",
        {
            "doc": {
                "sheets": ["SOV", "Notes"],
                "elements": [
                    {"value": "TIV", "sheet": "SOV", "cell": "A1", "hidden": False},
                    {"value": "old rate 0.12", "sheet": "Notes", "cell": "B2", "hidden": True},
                    {"value": "", "sheet": "SOV", "cell": "A2", "hidden": False},
                ],
            }
        },
    )
    assert found == {
        "doc_id": "sov_excel",
        "strings": [{"text": "TIV", "page": 1, "sheet": "SOV", "cell": "A1"}],
        "hidden": [{"text": "old rate 0.12", "page": 2, "sheet": "Notes", "cell": "B2"}],
    }


@pytest.mark.slow
def test_audit_reports_what_it_can_verify(imported: Path, run_cli: Any) -> None:
    done = run_cli("audit", "--packets", str(imported / "packets"), "--json")
    assert done.returncode == 1  # values the corpus locates nowhere are untraceable
    totals = json.loads(done.stdout)["totals"]
    assert (totals["fields_checked"], totals["fields_found"]) == (3, 3)  # the three boxes
    assert totals["strings_checked"] == totals["strings_found"] == 12 + 6  # PDF and CSV
    assert totals["findings"]["missing"] == 0
    assert totals["findings"]["untraceable"] > 0


@pytest.mark.slow
def test_a_missing_truth_or_a_truncated_output_is_refused_unless_partial(
    tmp_path: Path, run_cli: Any
) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    output = sorted((corpus / "results").glob("*/extraction_*.json"))[0]
    output.write_bytes(output.read_bytes()[:40])  # a published output cut short
    out = tmp_path / "out"
    done = run_cli("import", "nightmare", str(corpus), "--out", str(out))
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(f"packetbench: error: {output}: not JSON (")
    assert line.endswith(
        "a truncated or damaged published output; import without it with --partial"
    )
    assert not out.exists()
    done = run_cli("import", "nightmare", str(corpus), "--out", str(out), "--partial")
    assert done.returncode == 0, done.stderr
    assert "(3 records: 1 error, 2 ok)" in done.stdout
    relative = output.relative_to(corpus)
    assert f"skipped (--partial): {relative} (not JSON: " in done.stdout
    assert _json(out / "import.json")["skipped"][0].startswith(f"{relative} (not JSON")

    truth = corpus / "ground_truth" / "N1_easy_70001.json"
    truth.unlink()
    again = tmp_path / "again"
    done = run_cli("import", "nightmare", str(corpus), "--out", str(again))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"packetbench: error: {truth}: missing (the packet N1_easy/doc_70001 has no ground "
        "truth); import the other packets with --partial"
    ]
    assert not again.exists()
