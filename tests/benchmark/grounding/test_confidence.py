"""`--confidence`: a 0-1 confidence per value, asked for in the strict schema, recorded,
scored per claim and read back as a rank AUC and a reliability curve.

The simulator states each claim's confidence from seeded draws at `--sim-calibration` and
writes every confidence, whether its value is right, and the AUC, bins and ECE those imply
into its ledger (`sim_injections.json`); the scorer and the views, which know nothing of
the draws, must arrive at the same numbers (the three SDKs against the stub servers:
tests/benchmark/harness/test_confidence_api.py).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from packetbench.benchmark.grounding import confidences
from packetbench.benchmark.grounding.schema import wrapped_schema
from packetbench.benchmark.harness import answer
from packetbench.benchmark.harness.stub.strict import asks_confidence, cite_mode, strict_problem
from packetbench.benchmark.providers.anthropic import AnthropicProvider
from packetbench.benchmark.providers.api import ApiSettings, Reply
from packetbench.benchmark.providers.gemini import GeminiProvider
from packetbench.benchmark.providers.openai import OpenAIProvider
from packetbench.benchmark.report.render import write_report
from packetbench.benchmark.results.query import open_runs
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.schema_files import all_schemas
from tests.support.chromium import section_table
from tests.support.paths import PACKETS, TIERS
from tests.support.schemas import strictness_problems
from tests.support.stubs import records

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N1-000001"


@pytest.mark.parametrize("cite", [None, "page", "box"])
def test_every_schema_with_confidences_is_strict_for_every_provider(cite: str | None) -> None:
    for name, schema in all_schemas().items():
        wrapped = wrapped_schema(schema, cite, confidence=True)
        assert strictness_problems(wrapped, name) == []
        parts = ["values", *(["evidence"] if cite else []), "confidence"]
        assert list(wrapped["properties"]) == parts
        for cls in (OpenAIProvider, AnthropicProvider, GeminiProvider):
            sent = cls(ApiSettings(model="m", cite=cite, confidence=True)).clean_schema(wrapped)
            assert strict_problem(sent) is None, (cls.name, name)
            assert asks_confidence(sent) and cite_mode(sent) == cite
    # without confidence the wrapper is the cited schema it always was
    sov = all_schemas()["sov"]
    assert "confidence" not in wrapped_schema(sov, "box")["properties"]


def _extract(run_cli: Run, packets: Path, run: Path, *extra: str) -> None:
    made = run_cli("extract", "--packets", str(packets), "--out", str(run), *extra)
    assert made.returncode == 0, made.stderr
    scored = run_cli("score", str(run), "--packets", str(packets))
    assert scored.returncode == 0, scored.stderr


def _recovered(run: Path) -> dict[str, object]:
    """Check the claims and views of `run` against its ledger; the ledger's totals."""
    ledger = json.loads((run / "sim_injections.json").read_text())
    stated = {
        (key, item["path"]): (item["confidence"], item["right"])
        for key, entry in ledger["documents"].items()
        if entry["status"] == "ok"
        for item in entry["confidences"]
    }
    claims = (
        duckdb.connect()
        .execute(
            "SELECT packet_id || '/' || doc_id, source, confidence, verdict = 'supported' "
            f"FROM read_parquet('{run / 'scores' / 'claims.parquet'}')"
        )
        .fetchall()
    )
    assert len(claims) == len(stated)
    assert {(k, s): (c, r) for k, s, c, r in claims} == stated
    expected = ledger["overall"]["confidences"]
    with open_runs([run]) as runs:
        (found,) = runs.rows("SELECT * FROM confidence")
        bins = runs.rows("SELECT * FROM confidence_reliability ORDER BY bin")
    assert (found["claims"], found["stated"]) == (expected["values"], expected["values"])
    assert (found["correct"], found["incorrect"]) == (
        expected["right"],
        expected["values"] - expected["right"],
    )
    assert found["auc"] == pytest.approx(expected["auc"], abs=1e-12)
    assert found["ece"] == pytest.approx(expected["ece"], abs=1e-12)
    assert [b["bin"] for b in bins] == [b["bin"] for b in expected["bins"]]
    for got, want in zip(bins, expected["bins"], strict=True):
        assert got["claims"] == want["values"]
        assert got["mean_confidence"] == pytest.approx(want["mean_confidence"], abs=1e-12)
        assert got["accuracy"] == pytest.approx(want["accuracy"], abs=1e-12)
    result: dict[str, object] = expected
    return result


@pytest.mark.slow
def test_sim_confidences_recovered_on_every_tier(run_cli: Run, tmp_path: Path) -> None:
    packets = tmp_path / "packets"
    packets.mkdir()
    for tier in TIERS:  # one canonical packet a tier, linked, not copied
        (packets / f"{tier}-000001").symlink_to(PACKETS / f"{tier}-000001")
    run, plain, sure = tmp_path / "run", tmp_path / "plain", tmp_path / "sure"
    _extract(run_cli, packets, run, "--confidence", "--sim-calibration", "0.6", "--cite", "page")
    _extract(run_cli, packets, plain)
    _extract(run_cli, packets, sure, "--confidence", "--sim-calibration", "1")
    expected = _recovered(run)
    assert 0.6 < float(expected["auc"]) < 0.95  # type: ignore[arg-type]
    # at calibration 1 every right value is ranked above every wrong one
    assert _recovered(sure)["auc"] == 1.0
    info = json.loads((run / "run.json").read_text())
    assert info["parameters"]["confidence"] is True
    assert info["parameters"]["calibration"] == 0.6
    # --confidence changes no value and no citation: the records' outputs are the same
    asked, bare = records(run), records(plain)
    assert {k: r["output"] for k, r in asked.items()} == {k: r["output"] for k, r in bare.items()}
    assert all("confidences" not in r for r in bare.values())
    assert all("citations" not in r for r in bare.values())
    # the run without confidences has no row: absent, not zero
    with open_runs([run, plain]) as runs:
        assert [r["run_id"] for r in runs.rows("SELECT * FROM confidence")] == ["run"]
    files = write_report([run, plain], tmp_path / "report")
    text = files.markdown.read_text(encoding="utf-8")
    section = text[text.index("## 12. Confidence and calibration") :]
    row = next(
        line
        for line in section.splitlines()
        if line.startswith("| run |") and "rank AUC" not in line  # the row, not the header
    )
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[5] == f"{expected['auc']:.3f}" and cells[7] == f"{expected['ece']:.3f}"
    low, high = (float(v) for v in cells[6].strip("[]").split("–"))
    assert low < float(expected["auc"]) < high  # type: ignore[arg-type]
    low, high = (float(v) for v in cells[8].strip("[]").split("–"))
    assert low <= float(expected["ece"]) <= high  # type: ignore[arg-type]
    assert "Reliability curve of `run`" in section
    assert "No confidences (no rows, not zero): `plain`" in section
    shown = section_table(files.html, "confidence", tmp_path / "confidence.png")
    if shown is None:
        return
    assert "rank AUC" in shown and f"{expected['auc']:.3f}" in shown
    assert (tmp_path / "confidence.png").stat().st_size > 10_000


def test_a_bad_sim_calibration_is_one_line_exit_2(run_cli: Run, tmp_path: Path) -> None:
    for value, needle in (
        ("1.5", "--sim-calibration must be between 0 and 1 (got 1.5)"),
        ("nan", "--sim-calibration"),
    ):
        bad = run_cli(
            "extract", "--packets", str(PACKET), "--out", str(tmp_path / "bad"),
            "--confidence", "--sim-calibration", value,
        )  # fmt: skip
        assert bad.returncode == 2, bad.stderr
        lines = bad.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("packetbench: error: "), lines
        assert needle in lines[0]
    assert not (tmp_path / "bad").exists()


@pytest.mark.slow
def test_run_confidence_asks_scores_and_reports(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    made = run_cli(
        "run", "--out", str(out), "--tiers", "N1", "--confidence", "--sim-calibration", "1"
    )
    assert made.returncode == 0, made.stdout + made.stderr
    asked = json.loads((out / "pipeline.json").read_text())
    assert (asked["confidence"], asked["sim_calibration"]) == (True, 1.0)
    run = out / "runs" / "sim-typical"
    assert json.loads((run / "run.json").read_text())["parameters"]["calibration"] == 1.0
    with open_runs([run]) as runs:
        (row,) = runs.rows("SELECT * FROM confidence")
    assert row["auc"] == 1.0 and row["stated"] == row["claims"] > 0
    text = (out / "report" / "report.md").read_text(encoding="utf-8")
    section = text[text.index("## 12. Confidence and calibration") :]
    assert "| 1.000 |" in section and "Reliability curve of `sim-typical`" in section


def test_an_answer_s_confidences_are_kept_as_given_with_their_problems() -> None:
    truth = json.loads((PACKET / "document_truth_acord_125.json").read_text())["truth"]
    model = DOC_TYPES["acord_125"].model
    given = [
        {"path": "a", "confidence": 0.25},
        {"path": "a", "confidence": 0.9},  # a path's first entry counts
        {"path": "b", "confidence": 1.5},
        {"path": "c", "confidence": True},
        {"path": "d", "confidence": "Infinity"},
        {"path": None, "confidence": 0.5},  # names no value: dropped
    ]
    text = json.dumps({"values": truth, "confidence": given})
    parsed = answer.parse_reply(Reply(text, "stop"), model, 1000, confident=True)
    assert parsed.status == "ok" and parsed.output == truth
    kept = [c.model_dump() for c in confidences.convert(parsed.confidence)]
    assert kept == [
        {"path": "a", "confidence": 0.25, "problem": None},
        {"path": "b", "confidence": 1.5, "problem": "outside 0-1"},
        {"path": "c", "confidence": None, "problem": "no confidence"},
        {"path": "d", "confidence": None, "problem": "no confidence"},
    ]
    missing = answer.parse_reply(
        Reply(json.dumps({"values": truth}), "stop"), model, 1000, confident=True
    )
    assert missing.status == "invalid"
    assert missing.error == "schema-invalid: an answer with confidences has no confidence list"
