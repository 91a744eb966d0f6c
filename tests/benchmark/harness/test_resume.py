"""Never lose or repeat work: kill -9 then --resume, --retry-failed, and the response cache."""

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

from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.extract import extract
from packetbench.benchmark.harness.runner import PROCESS_INPUTS_FROM
from packetbench.benchmark.harness.stub import Faults, StubServer
from packetbench.benchmark.providers import provider_class
from tests.support.paths import cli_path
from tests.support.processes import children, wait_until_gone
from tests.support.stubs import documents, extract_args, log, records

Run = Callable[..., subprocess.CompletedProcess[str]]
KEY = {"OPENAI_API_KEY": "resume-test-key-0002"}


def _args(server: StubServer, packets: Path, run: Path, cache: Path, *extra: str) -> list[str]:
    options = ("--cache", str(cache), "--concurrency", "2", "--backoff", "0.01")
    return extract_args(server, packets, run, *options, *extra)


@pytest.mark.e2e
def test_kill_9_then_resume_requests_no_finished_document_and_loses_none(
    three_packets: Path, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    total = documents(three_packets)
    server = stub("openai", three_packets, delay_s=0.15)
    run, cache = tmp_path / "run", tmp_path / "cache"
    # A new session: the run and the workers preparing its inputs share one process group.
    process = subprocess.Popen(
        [cli_path(), *_args(server, three_packets, run, cache)],
        env={**os.environ, **KEY},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while len(list(run.glob("extractions/*/*.json"))) < 8:
        assert process.poll() is None, "the run ended before it was killed"
        assert time.monotonic() < deadline, "the run never got going"
        time.sleep(0.02)
    workers = children(process.pid)
    if total >= PROCESS_INPUTS_FROM and (os.cpu_count() or 1) > 1:
        assert workers, "inputs were not prepared in worker processes"
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    assert process.returncode == -signal.SIGKILL
    # A forked worker keeps its own end of the task pipe: unless it dies with the run, it
    # waits for work forever.
    assert wait_until_gone(process.pid) == [], f"workers {workers} outlived the killed run"
    finished = {doc: record for doc, record in records(run).items()}
    assert 8 <= len(finished) < total  # killed mid-way
    before = {p: p.read_bytes() for p in run.glob("extractions/*/*.json")}
    requested_before = dict(server.requests)
    assert json.loads((run / "run.json").read_text())["status"] == "running"

    # A run that hangs fails here in minutes (the run takes seconds), not at the suite's end.
    result = run_cli(*_args(server, three_packets, run, cache, "--resume"), env=KEY, timeout=240)
    assert result.returncode == 0, result.stderr
    assert f"{total} of {total} documents written" in result.stdout
    assert (
        f"{total - len(finished)} document(s) to extract, {len(finished)} finished before"
        in result.stdout
    )
    after = records(run)
    assert len(after) == total  # none lost
    for doc in finished:  # none requested again, none rewritten
        assert server.requests[doc] == requested_before[doc] == 1, doc
    assert {p: p.read_bytes() for p in before} == before
    for doc in set(after) - set(finished):
        assert server.requests[doc] >= 1
    info = json.loads((run / "run.json").read_text())
    assert info["status"] == "complete" and [i["mode"] for i in info["invocations"]] == [
        "new",
        "resume",
    ]
    assert info["documents"] == {"expected": total, "written": total, "by_status": {"ok": total}}


@pytest.mark.slow
def test_resume_skips_failures_retry_failed_requests_only_them(
    three_packets: Path,
    stub: Callable[..., StubServer],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY["OPENAI_API_KEY"])
    failing = {
        "N1-000001/sov_pdf": ["malformed"],
        "N1-000002/loss_run_csv": ["refusal"],
        "N1-000003/acord_125": ["server_500"] * 2,
    }
    server = stub("openai", three_packets, Faults(script=failing))
    run, cache = tmp_path / "run", tmp_path / "cache"

    def go(**flags: Any) -> None:
        provider = provider_class("openai").from_options(
            {"model": "stub-model", "base_url": server.base_url, "retries": 1}
        )
        extract(
            provider,
            three_packets,
            run,
            options=HarnessOptions(cache_dir=cache, backoff_base_s=0.01, **flags),
        )

    go()
    first = records(run)
    assert {d for d, r in first.items() if r["status"] != "ok"} == set(failing)
    counts = dict(server.requests)
    go(resume=True)  # everything finished: nothing is requested
    assert dict(server.requests) == counts
    go(retry_failed=True)  # only the failed ones, past the cache (which holds their answers)
    again = {d for d in server.requests if server.requests[d] != counts.get(d)}
    assert again == set(failing)
    assert all(r["status"] == "ok" for r in records(run).values())
    assert [e["mode"] for e in json.loads((run / "run.json").read_text())["invocations"]] == [
        "new",
        "resume",
        "retry-failed",
    ]


@pytest.mark.slow
def test_an_identical_rerun_is_answered_by_the_cache(
    three_packets: Path,
    stub: Callable[..., StubServer],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "cache-test-key-0003")
    server = stub("anthropic", three_packets)
    cache = tmp_path / "cache"
    pricing = tmp_path / "pricing.json"
    pricing.write_text(
        json.dumps({"models": {"stub-model": {"input": 3.0, "output": 15.0, "reasoning": 15.0}}})
    )

    def go(run: Path, reasoning: str = "default") -> tuple[dict[str, int], object]:
        before = dict(server.requests)
        provider = provider_class("anthropic").from_options(
            {"model": "stub-model", "base_url": server.base_url, "reasoning": reasoning}
        )
        summary = extract(
            provider, three_packets, run, options=HarnessOptions(cache_dir=cache, pricing=pricing)
        )
        return {
            d: n - before.get(d, 0) for d, n in server.requests.items() if n - before.get(d, 0)
        }, summary

    total = documents(three_packets)
    sent, first = go(tmp_path / "a")
    assert len(sent) == total and first.cost_usd > 0  # type: ignore[attr-defined]
    sent, second = go(tmp_path / "b")
    assert sent == {} and second.cached == total and second.cost_usd == 0  # type: ignore
    a, b = records(tmp_path / "a"), records(tmp_path / "b")
    for doc in a:
        assert b[doc]["output"] == a[doc]["output"] and b[doc]["usage"] == a[doc]["usage"]
        assert b[doc]["attempts"] == 0  # no request was made for it
    assert {e["result"] for e in log(tmp_path / "b") if e["event"] == "attempt"} == {"cache hit"}
    sent, _ = go(tmp_path / "c", reasoning="high")  # other parameters: another key
    assert len(sent) == total


def test_large_runs_prepare_inputs_in_worker_processes(
    three_packets: Path,
    stub: Callable[..., StubServer],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from packetbench.benchmark.harness import runner

    monkeypatch.setattr(runner, "PROCESS_INPUTS_FROM", 10)  # more documents: processes
    monkeypatch.setenv("OPENAI_API_KEY", KEY["OPENAI_API_KEY"])
    server = stub("openai", three_packets)
    provider = provider_class("openai").from_options(
        {"model": "stub-model", "base_url": server.base_url, "input": "text"}
    )
    summary = extract(
        provider,
        three_packets,
        tmp_path / "run",
        options=HarnessOptions(use_cache=False, concurrency=16),
    )
    total = documents(three_packets)
    assert summary.by_status == {"ok": total} and server.rejected == []
    assert sum(server.requests.values()) == total
