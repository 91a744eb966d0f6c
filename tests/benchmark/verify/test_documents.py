"""Bring your own documents, end to end through the real CLI: a folder of PDFs copied out of a
generated packet without any truth file is typed (a schema map, a classifier), extracted,
refused by score, labelled by a judge, corrected with a calibration on other packets, and
reported; with the simulators and with the OpenAI SDK against the stub."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from packetbench.benchmark.harness.stub import StubServer
from tests.support.audit import Run
from tests.support.paths import PACKETS
from tests.support.stubs import KEYS

RATES = ("--sensitivity", "0.85", "--specificity", "0.93")


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, (done.stdout, done.stderr)
    return done.stdout


def _refused(done: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("packetbench: error: ")
    for needle in needles:
        assert needle in done.stderr, done.stderr
    return done.stderr


@pytest.fixture(scope="module")
def world(
    tmp_path_factory: pytest.TempPathFactory,
    fresh_packet_dir: Callable[[str, int], Path],
    run_cli: Run,
) -> Path:
    """cal/ (a scored sim run of the canonical N1-000001), origin/ (a fresh N1-000002, the
    packet the documents come from) and mine/ (its PDFs, nothing else)."""
    root = tmp_path_factory.mktemp("own")
    shutil.copytree(PACKETS / "N1-000001", root / "cal-packets" / "N1-000001")
    shutil.copytree(fresh_packet_dir("N1", 2), root / "origin" / "N1-000002")
    (root / "mine").mkdir()
    for pdf in sorted((root / "origin" / "N1-000002").glob("*.pdf")):
        shutil.copy(pdf, root / "mine" / pdf.name)
    cal = ("--packets", str(root / "cal-packets"), "--out", str(root / "cal"))
    _ok(run_cli("extract", *cal, "--profile", "typical", "--sim-seed", "1"))
    _ok(run_cli("score", str(root / "cal"), "--packets", str(root / "cal-packets")))
    return root


def _copy(world: Path, tmp_path: Path) -> Path:
    shutil.copytree(world, tmp_path / "w")
    return tmp_path / "w"


@pytest.mark.slow
def test_own_documents_with_the_simulators(world: Path, run_cli: Run, tmp_path: Path) -> None:
    w = _copy(world, tmp_path)
    mine, origin = w / "mine", w / "origin"
    assert not list(mine.glob("*truth*")) and not list(mine.glob("*.json"))
    (mine / "notes.txt").write_text("not a document")
    # Two documents typed by the user, the others by the (simulated) classifier.
    (w / "map.json").write_text(json.dumps({"sov_pdf.pdf": "sov", "acord_125.pdf": "acord_125"}))
    own = ("--documents", str(mine), "--out", str(w / "runs" / "mine"))
    # The simulator cannot read: without the packets the documents came from it refuses.
    _refused(run_cli("extract", *own), "--sim-truth")
    out = _ok(
        run_cli("extract", *own, "--schema-map", str(w / "map.json"), "--sim-truth", str(origin))
    )
    pdfs = len(list(mine.glob("*.pdf")))
    assert f"{pdfs - 2} document(s) classified" in out
    assert f"{pdfs} of {pdfs} documents written" in out
    run = w / "runs" / "mine"
    info = json.loads((run / "run.json").read_text())
    (entry,) = info["packets"]
    listing = entry["own_documents"]
    assert listing["folder"] == str(mine.resolve()) and listing["skipped"] == ["notes.txt"]
    assert listing["chosen_by"]["sov_pdf"] == "--schema-map"
    assert listing["chosen_by"]["acord_101"] == "sim classifier"
    origin_docs = json.loads((origin / "N1-000002" / "packet_truth.json").read_text())
    types = {d["file"]: d["schema"] for d in origin_docs["documents"]}
    assert {f["file"]: f["schema"] for f in listing["files"]} == {
        name: types[name] for name in sorted(p.name for p in mine.glob("*.pdf"))
    }
    assert set(entry["sha256"]["sov_pdf"]) == {"file"}  # no truth file hashed
    # No truth: score refuses in one line, naming the run.
    _refused(run_cli("score", str(run), "--packets", str(mine)), f"{run}/run.json", "no truth")
    # A resumed extraction keeps its documents and types (nothing classified again).
    again = _ok(run_cli("extract", *own, "--sim-truth", str(origin), "--resume"))
    assert "classified" not in again
    # The sim judge needs the truth it simulates a judge of; a calibration of another
    # judge's settings is refused; the calibrated one corrects the rate.
    _refused(run_cli("verify", str(run), *RATES), "--judge-truth")
    _ok(run_cli("verify", str(w / "cal"), *RATES))
    _refused(
        run_cli("verify", str(run), "--judge-truth", str(origin), "--calibration", str(w / "cal")),
        "another parameters",
    )
    verified = _ok(
        run_cli(
            "verify",
            str(run),
            *RATES,
            "--judge-truth",
            str(origin),
            "--calibration",
            str(w / "cal"),
            "--min-kappa",
            "0.4",
        )
    )
    assert "hallucination rate: raw" in verified and "corrected" in verified
    estimate = json.loads((run / "judge" / "sim-sim" / "estimate.json").read_text())
    assert estimate["calibration"]["run"] == str(w / "cal")
    # The documents' true rate, known here because they are copies: the same simulated
    # extraction of their packet, scored.
    truth_run = w / "truth"
    _ok(run_cli("extract", "--packets", str(origin), "--out", str(truth_run), "--formats", "pdf"))
    _ok(run_cli("score", str(truth_run), "--packets", str(origin)))
    with duckdb.connect(str(truth_run / "results.duckdb"), read_only=True) as con:
        claims, true = con.execute(
            "SELECT COUNT(*), AVG((verdict <> 'supported')::INT) FROM claims"
        ).fetchone() or (0, None)
    assert estimate["claims"] == claims  # the same claims, extracted the same way
    corrected, raw = estimate["corrected"], estimate["raw"]
    assert corrected["low"] <= true <= corrected["high"], (true, corrected)
    assert raw["estimate"] > true  # the judge's false alarms inflate the raw rate
    # The report: no scores, the judge's raw and corrected rate and the calibration used.
    _ok(run_cli("report", str(run), "--out", str(w / "report")))
    text = (w / "report" / "report.md").read_text()
    assert "your own documents" in text and "no truth" in text
    row = f"| corrected (Rogan-Gladen) | {corrected['estimate'] * 100:.2f} % |"
    assert row in text and f"{corrected['low'] * 100:.2f} %" in text
    assert "Calibration `cal`" in text and "| acord_101 | acord_101.pdf | acord_101 |" in text
    assert str(w) not in text  # nothing of the machine
    html = (w / "report" / "report.html").read_text()
    assert "corrected (Rogan-Gladen)" in html and str(w) not in html
    # A document changed since the run was made is no document of the run.
    (mine / "acord_101.pdf").write_bytes(b"%PDF-1.4 another document")
    _refused(
        run_cli("verify", str(run), *RATES, "--judge-truth", str(origin), "--force"),
        "acord_101.pdf",
        "sha256",
    )


def test_own_documents_with_a_model_through_the_sdk(
    world: Path, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    """The OpenAI SDK against the stub: the classifier types every document, the extraction
    and the judge go through the harness, and the estimate names its calibration."""
    w = _copy(world, tmp_path)
    both = w / "both"
    both.mkdir()
    for folder in (w / "cal-packets" / "N1-000001", w / "origin" / "N1-000002"):
        (both / folder.name).symlink_to(folder)
    server = stub("openai", both)
    env = {KEYS["openai"]: "stub-key-own-documents"}
    api = ("--model", "stub-model", "--base-url", server.base_url, "--cache", str(w / "cache"))
    run = w / "runs" / "api"
    out = _ok(
        run_cli(
            "extract",
            "--documents",
            str(w / "mine"),
            "--provider",
            "openai",
            *api,
            "--out",
            str(run),
            env=env,
        )
    )
    pdfs = len(list((w / "mine").glob("*.pdf")))
    assert f"{pdfs} document(s) classified" in out
    info = json.loads((run / "run.json").read_text())
    listing = info["packets"][0]["own_documents"]
    assert set(listing["chosen_by"].values()) == {"classifier"}
    assert listing["classifier"]["provider"] == "openai"
    assert len(listing["classifier"]["prompt"]) == 64
    origin = json.loads((w / "origin" / "N1-000002" / "packet_truth.json").read_text())
    types = {d["file"]: d["schema"] for d in origin["documents"]}
    assert all(types[f["file"]] == f["schema"] for f in listing["files"])  # the stub knows
    assert len(list((run / "classify").glob("*.json"))) == pdfs
    assert (run / "classify" / "requests.jsonl").is_file()
    judge = ("--judge", "openai", *api)
    _ok(run_cli("verify", str(w / "cal"), *judge, env=env))
    done = _ok(
        run_cli(
            "verify",
            str(run),
            *judge,
            "--calibration",
            str(w / "cal"),
            "--min-kappa",
            "0.3",
            env=env,
        )
    )
    assert "corrected" in done
    estimate = json.loads((run / "judge" / "openai-stub-model" / "estimate.json").read_text())
    # The stub extracts the truth and its judge reads it off the truth at the same paths:
    # every claim is supported, so the true rate is 0, and so are both estimates.
    assert estimate["claims"] > 500 and estimate["judged_hallucinated"] == 0
    assert estimate["raw"]["estimate"] == estimate["corrected"]["estimate"] == 0.0
    assert estimate["corrected"]["low"] == 0.0
    _ok(run_cli("report", str(run), "--out", str(w / "report")))
    assert "openai-stub-model" in (w / "report" / "report.md").read_text()
