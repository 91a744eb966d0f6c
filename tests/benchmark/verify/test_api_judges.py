"""Model judges through the real SDKs (OpenAI, Anthropic, Gemini) against the local stub
servers: the round trip of every claim, the harness's retries, cache and cost cap, an
invalid answer asked again by --resume, and kill -9 then --resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.harness.stub import Faults, StubServer
from packetbench.benchmark.verify.prompt import template_hashes
from tests.support.audit import Run
from tests.support.files import copy_folder as _world
from tests.support.paths import cli_path
from tests.support.processes import wait_until_gone
from tests.support.stubs import KEYS

KEY = "stub-judge-key-0029"


def _verify(server: StubServer, api: str, world: Path, *extra: str) -> list[str]:
    return [
        "verify",
        str(world / "run"),
        "--judge",
        api,
        "--model",
        "stub-model",
        "--base-url",
        server.base_url,
        "--cache",
        str(world / "cache"),
        "--backoff",
        "0.01",
        *extra,
    ]


def _field_truth(world: Path, doc_id: str) -> dict[str, dict[str, object]]:
    path = world / "packets" / "N1-000001" / f"field_truth_{doc_id}.json"
    return {f["path"]: f for f in json.loads(path.read_text())["fields"]}


def _batches(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((folder / "labels").rglob("*.json"))]


@pytest.mark.parametrize(
    ("api", "mode"), [("openai", "native"), ("anthropic", "text"), ("gemini", "pdf")]
)
@pytest.mark.slow
def test_every_claim_makes_the_round_trip_through_the_sdk(
    api: str,
    mode: str,
    scored_n1: Path,
    stub: Callable[..., StubServer],
    run_cli: Run,
    tmp_path: Path,
) -> None:
    world = _world(scored_n1, tmp_path)
    server = stub(api, world / "packets", keep_bodies=True)
    done = run_cli(
        *_verify(server, api, world, "--input", mode, "--claims-per-request", "15"),
        env={KEYS[api]: KEY},
    )
    assert done.returncode == 0, done.stderr
    assert server.rejected == []  # every request was a well-formed strict-schema request
    assert server.keys_seen == {KEY}
    folder = world / "run" / "judge" / f"{api}-stub-model"
    batches = _batches(folder)
    # One request per batch, none more: each batch's claims were listed in its request.
    assert sum(server.asked.values()) == len(batches)
    for batch in batches:
        paths = "\n".join(str(c["path"]) for c in batch["claims"])
        assert server.asked[(f"N1-000001/{batch['doc_id']}", paths)] == 1
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    claims = sum(len(b["claims"]) for b in batches)
    assert len(labels) == claims and f"{claims:,} claims" in done.stdout
    # The stub quotes the truth's rendering of the path it was asked about: a label that
    # came back to another claim (numbering lost on the way) would quote another field.
    supported = [r for r in labels if r["verdict"] == "supported"]
    assert len(supported) > claims / 2
    for row in supported:
        field = _field_truth(world, row["doc_id"]).get(row["path"])
        assert field is not None and row["quote"] == (field["rendered_as"] or str(field["value"]))
    assert {r["verdict"] for r in labels} <= {"supported", "contradicted", "unlinked"}
    # What judge.json records: enough to know which judge said this, and to hold a
    # calibration to it.
    about = json.loads((folder / "judge.json").read_text())
    assert about["status"] == "complete" and about["judge"] == api
    assert about["model"] == "stub-model" and about["simulator"] is False
    # `--input pdf` is the spelling of native: the PDF itself.
    assert about["parameters"]["input"] == {"pdf": "native"}.get(mode, mode)
    assert about["parameters"]["base_url"] == server.base_url
    assert {k: about[k] for k in ("prompt", "schema")} == template_hashes()
    assert len(about["schema_sent"]) == 64 and about["retry"]["retries"] >= 1
    assert "<instructions>" in json.dumps(about["request"])  # the request as sent, documents out
    assert KEY not in (folder / "judge.json").read_text()
    # The document went as --input says, beside the instructions listing the claims.
    body = json.dumps(next(iter(server.bodies.values()))[0])
    assert "Claims:" in body and ("[page 1 of" in body) == (mode == "text")
    # The run is scored: the labels are calibrated against the truth and in the database.
    calibration = json.loads((folder / "calibration.json").read_text())
    assert calibration["judge"] == api and calibration["claims"] == claims
    log = [json.loads(line) for line in (folder / "requests.jsonl").read_text().splitlines()]
    assert sum(e["event"] == "record" for e in log) == len(batches)


@pytest.mark.slow
def test_retries_the_cache_and_an_invalid_answer_asked_again(
    scored_n1: Path, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    world = _world(scored_n1, tmp_path)
    faults = {
        "N1-000001/sov_pdf": ["server_500", "rate_limit"],  # retried within the budget
        "N1-000001/acord_125": ["malformed"],  # not an answer: the batch stays unanswered
        "N1-000001/loss_run_pdf": ["envelope"],  # unwrapped: an answer
    }
    server = stub("openai", world / "packets", Faults(script=faults))
    env = {KEYS["openai"]: KEY}
    # One request at a time: the faults reach the batches in order.
    one = ("--claims-per-request", "10", "--concurrency", "1")
    first = run_cli(*_verify(server, "openai", world, *one), env=env)
    assert first.returncode == 1, first.stdout
    assert first.stderr.count("\n") == 1 and "1 of" in first.stderr
    assert "[1 invalid]" in first.stderr and "--resume" in first.stderr
    folder = world / "run" / "judge" / "openai-stub-model"
    about = json.loads((folder / "judge.json").read_text())
    assert about["status"] == "incomplete" and about["unanswered"] == {"invalid": 1}
    assert not (folder / "labels.jsonl").exists() and not (folder / "calibration.json").exists()
    bad = [b for b in _batches(folder) if b["status"] != "ok"]
    assert [(b["doc_id"], b["batch"]) for b in bad] == [("acord_125", 0)]
    assert "not JSON" in str(bad[0]["error"]) and bad[0]["raw_text"]
    log = [json.loads(line) for line in (folder / "requests.jsonl").read_text().splitlines()]
    sov = [e["result"] for e in log if e["doc_id"] == "sov_pdf" and e["event"] == "attempt"]
    assert sov[:3] == ["server", "rate_limit", "answer"]
    # --resume asks for the unanswered batch alone (the acord_125 stub answers now).
    before = sum(server.asked.values())
    again = run_cli(*_verify(server, "openai", world, *one, "--resume"), env=env)
    assert again.returncode == 0, again.stderr
    assert sum(server.asked.values()) == before + 1
    assert "1 requests" in again.stdout and "(1 sent" in again.stdout
    assert json.loads((folder / "judge.json").read_text())["status"] == "complete"
    labels = (folder / "labels.jsonl").read_bytes()
    # The same judge again, from the start: every answer comes from the response cache.
    fresh = run_cli(*_verify(server, "openai", world, *one, "--force"), env=env)
    assert fresh.returncode == 0, fresh.stderr
    assert sum(server.asked.values()) == before + 1
    assert "0 sent" in fresh.stdout and f"{len(_batches(folder))} from the cache" in fresh.stdout
    assert (folder / "labels.jsonl").read_bytes() == labels


@pytest.mark.slow
def test_max_cost_stops_new_requests_and_resume_finishes(
    scored_n1: Path, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    world = _world(scored_n1, tmp_path)
    pricing = tmp_path / "pricing.json"
    pricing.write_text(
        json.dumps({"models": {"stub-model": {"input": 30.0, "output": 60.0, "reasoning": 60.0}}})
    )
    server = stub("anthropic", world / "packets")
    env = {KEYS["anthropic"]: KEY}
    common = ("--pricing", str(pricing), "--concurrency", "2", "--no-cache")
    stopped = run_cli(*_verify(server, "anthropic", world, *common, "--max-cost", "0.5"), env=env)
    assert stopped.returncode == 1, stopped.stderr
    assert "--max-cost reached" in stopped.stderr
    folder = world / "run" / "judge" / "anthropic-stub-model"
    answered = len(_batches(folder))
    assert answered > 0 and sum(server.asked.values()) == answered
    about = json.loads((folder / "judge.json").read_text())
    assert about["status"] == "incomplete" and about["max_cost_usd"] == 0.5
    assert about["usage"]["cost_usd"] > 0
    done = run_cli(*_verify(server, "anthropic", world, *common, "--resume"), env=env)
    assert done.returncode == 0, done.stderr
    assert sum(server.asked.values()) == len(_batches(folder))  # none asked twice


def test_a_refused_key_stops_the_verify_in_one_line(
    scored_n1: Path, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    world = _world(scored_n1, tmp_path)
    server = stub("gemini", world / "packets", expect_key="the-right-key-000")
    done = run_cli(*_verify(server, "gemini", world), env={KEYS["gemini"]: KEY})
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "authentication refused (401)" in done.stderr
    assert KEY not in done.stderr
    folder = world / "run" / "judge" / "gemini-stub-model"
    assert json.loads((folder / "judge.json").read_text())["status"] == "incomplete"


@pytest.mark.e2e
def test_kill_9_then_resume_asks_no_finished_batch_again(
    scored_n1: Path, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    world = _world(scored_n1, tmp_path)
    server = stub("openai", world / "packets", delay_s=0.1)
    args = _verify(server, "openai", world, "--claims-per-request", "8", "--concurrency", "2")
    # A new session: the verify and any worker preparing its inputs share one process group.
    process = subprocess.Popen(
        [cli_path(), *args],
        env={**os.environ, KEYS["openai"]: KEY},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    folder = world / "run" / "judge" / "openai-stub-model"
    deadline = time.monotonic() + 60
    while len(list(folder.glob("labels/*/*/*.json"))) < 10:
        assert process.poll() is None, "the verify ended before it was killed"
        assert time.monotonic() < deadline, "the verify never got going"
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    assert process.returncode == -signal.SIGKILL
    assert wait_until_gone(process.pid) == []
    assert json.loads((folder / "judge.json").read_text())["status"] == "running"
    kept = {p: p.read_bytes() for p in folder.glob("labels/*/*/*.json")}
    finished = [json.loads(data) for data in kept.values()]
    time.sleep(0.5)  # the requests in flight at the kill reach the stub (0.1 s each)
    asked = dict(server.asked)
    resumed = run_cli(*args, "--resume", env={KEYS["openai"]: KEY}, timeout=240)
    assert resumed.returncode == 0, resumed.stderr
    total = len(list(folder.glob("labels/*/*/*.json")))
    assert len(finished) < total
    assert f"{total - len(finished):,} requests, {len(finished):,} kept" in resumed.stdout
    for batch in finished:  # none asked again, none rewritten
        paths = "\n".join(c["path"] for c in batch["claims"])
        assert server.asked[(f"N1-000001/{batch['doc_id']}", paths)] == 1
    assert {p: p.read_bytes() for p in kept} == kept
    assert sum(server.asked.values()) == sum(asked.values()) + total - len(finished)
    about = json.loads((folder / "judge.json").read_text())
    assert about["status"] == "complete"
    labels = (folder / "labels.jsonl").read_text().splitlines()
    assert len(labels) == about["claims"]
