"""Runs that fail say so: in the exit status when nothing succeeded, on the last line when
some documents failed; a failed run can be continued, and scoring it says what is wrong."""

from __future__ import annotations

import hashlib
import json
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.harness.stub import Faults, StubServer
from tests.support.paths import PACKETS, cli_path
from tests.support.stubs import extract_args, records

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N1-000001"


def _count() -> int:
    """Documents of the packet (read when a test runs: the suite is built at session start)."""
    return len(json.loads((PACKET / "packet_truth.json").read_text())["documents"])


KEY = {"OPENAI_API_KEY": "failed-runs-key-0001"}


def _extract(server: StubServer, run: Path, *extra: str) -> list[str]:
    return extract_args(server, PACKET, run, "--backoff", "0.01", "--no-cache", *extra)


@pytest.mark.slow
def test_an_extract_whose_every_request_failed_exits_1(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub("openai", PACKET, Faults(rate=1.0, kinds=("server_500",)))
    run = tmp_path / "run"
    result = run_cli(*_extract(server, run, "--retries", "0"), env=KEY)
    assert result.returncode == 1, (result.stdout, result.stderr)
    n = _count()
    assert f"{n} of {n} documents written [{n} error]" in result.stdout
    assert result.stderr.splitlines() == [
        f"packetbench: failed: every one of the {n} documents failed [{n} error]; nothing can be "
        "scored (each record says why; request them again with --resume --retry-failed)"
    ]
    scored = run_cli("score", str(run), "--packets", str(PACKET))
    assert scored.returncode == 1, scored.stdout + scored.stderr
    assert scored.stderr.splitlines() == [
        f"packetbench: failed: no document of {run} was extracted ok ({n} error): there is "
        "nothing to score"
    ]


@pytest.mark.slow
def test_a_partial_failure_is_the_last_line(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    plan = Faults(
        script={"N1-000001/sov_pdf": ["malformed"], "N1-000001/acord_140": ["server_500"] * 3}
    )
    server = stub("openai", PACKET, plan)
    result = run_cli(*_extract(server, tmp_path / "run", "--retries", "2"), env=KEY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        f"2 of {_count()} documents failed [1 error, 1 invalid]: the scores exclude them "
        "(request them "
        "again with --resume --retry-failed)"
    )


@pytest.mark.slow
def test_a_run_left_with_run_json_alone_scores_as_a_failure_and_resumes(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub("openai", PACKET, expect_key=KEY["OPENAI_API_KEY"])
    run = tmp_path / "run"
    stopped = run_cli(*_extract(server, run), env={"OPENAI_API_KEY": "a-wrong-key-0000"})
    assert stopped.returncode == 2 and "authentication refused" in stopped.stderr
    assert records(run) == {}  # run.json (and the request log), no record
    again = run_cli(*_extract(server, run), env=KEY)
    assert again.returncode == 2
    assert again.stderr.splitlines() == [
        f"packetbench: error: {run}: a run already exists here (continue it with --resume, "
        "or replace it with --force)"
    ]
    scored = run_cli("score", str(run), "--packets", str(PACKET))
    assert scored.returncode == 1
    assert scored.stderr.splitlines() == [
        f"packetbench: failed: no document of {run} was extracted ok ({_count()} missing): "
        "there is nothing to score"
    ]
    resumed = run_cli(*_extract(server, run, "--resume"), env=KEY)
    assert resumed.returncode == 0, resumed.stderr
    assert len(records(run)) == _count()
    assert run_cli("score", str(run), "--packets", str(PACKET)).returncode == 0


@pytest.mark.e2e
def test_sim_resume_after_kill_9_makes_the_same_run(run_cli: Run, tmp_path: Path) -> None:
    """The simulator cannot skip documents (its ledger covers the whole run), so --resume
    checks the run's settings and documents and makes it again: the same bytes."""
    whole = tmp_path / "whole"
    assert (
        run_cli(
            "extract",
            "--packets",
            str(PACKETS),
            "--out",
            str(whole),
            "--profile",
            "sloppy",
            "--seed",
            "4",
        ).returncode
        == 0
    )
    run = tmp_path / "run"
    args = [
        "extract",
        "--packets",
        str(PACKETS),
        "--out",
        str(run),
        "--profile",
        "sloppy",
        "--seed",
        "4",
    ]
    process = subprocess.Popen(
        [cli_path(), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while not list(run.glob("extractions/*/*.json")):
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.002)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    assert json.loads((run / "run.json").read_text())["status"] == "running"
    assert run_cli(*args).returncode == 2  # a run is there: not without --resume or --force
    other = run_cli(*args[:-1], "5", "--resume")
    assert other.returncode == 2 and "different settings" in other.stderr
    resumed = run_cli(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr

    def files(folder: Path) -> dict[str, bytes]:
        return {
            p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != "run.json"
        }

    assert files(run) == files(whole)


def test_undecodable_workbook_and_csv_are_error_records_and_the_run_goes_on(
    stub: Callable[..., StubServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from packetbench.benchmark.config import HarnessOptions
    from packetbench.benchmark.extract import extract
    from packetbench.benchmark.providers import provider_class

    packets = tmp_path / "packets"
    shutil.copytree(PACKETS / "N1-000001", packets / "N1-000001")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-for-the-stub-0001")
    server = stub("openai", packets)  # reads the documents while they are whole
    for doc_id, name, data in (
        ("loss_run_csv", "loss_run_csv.csv", b"Claim\r\nA\x81\x9d\r\n"),
        ("sov_excel", "sov_excel.xlsx", b"PK\x03\x04 not a workbook"),
    ):
        # Files that cannot be decoded, their manifests naming them (so they are the
        # packet's documents, not swapped files).
        (packets / "N1-000001" / name).write_bytes(data)
        manifest = packets / "N1-000001" / f"manifest_{doc_id}.json"
        found = json.loads(manifest.read_text())
        found["sha256"] = hashlib.sha256(data).hexdigest()
        manifest.write_text(json.dumps(found))
    provider = provider_class("openai").from_options(
        {"model": "stub-model", "base_url": server.base_url}
    )
    extract(provider, packets, tmp_path / "run", options=HarnessOptions(use_cache=False))
    found = records(tmp_path / "run")
    csv_record, book = found["N1-000001/loss_run_csv"], found["N1-000001/sov_excel"]
    assert (
        csv_record["status"] == "error" and "neither UTF-8 nor Windows-1252" in csv_record["error"]
    )
    assert book["status"] == "error" and "not a readable workbook" in book["error"]
    others = [
        r
        for key, r in found.items()
        if key not in ("N1-000001/loss_run_csv", "N1-000001/sov_excel")
    ]
    assert others and all(r["status"] == "ok" for r in others)
