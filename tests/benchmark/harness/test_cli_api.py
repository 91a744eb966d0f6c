"""`packetbench extract` and `packetbench audit-tokens` against stubs, as a user runs them."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.harness.stub import Faults, StubServer
from tests.support.errors import one_line_error as _error
from tests.support.paths import PACKETS
from tests.support.readback import doc_ids
from tests.support.stubs import APIS, KEYS, extract_args, records

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N1-000001"
DOCUMENTS = len(doc_ids(PACKET))  # every document of the packet is one request


def _extract(server: StubServer, api: str, run: Path, *extra: str) -> list[str]:
    return extract_args(server, PACKET, run, "--backoff", "0.01", *extra, api=api)


@pytest.mark.parametrize("api", APIS)
@pytest.mark.slow
def test_the_api_key_is_in_no_file_of_the_run(
    api: str, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    key = f"sk-{api}-Zq81xVv0TestKeyNeverWritten"
    # 5xx errors echo the key; two documents exhaust their retries on them, so the echoed
    # message reaches their records, the request log and run.json's error counts.
    plan = Faults(
        rate=0.3,
        kinds=("server_500", "server_503", "rate_limit"),
        seed=3,
        script={"N1-000001/sov_pdf": ["server_500"] * 3, "N1-000001/acord_140": ["server_503"] * 3},
    )
    server = stub(api, PACKET, plan, expect_key=key)
    run, cache = tmp_path / "run", tmp_path / "cache"
    result = run_cli(
        *_extract(server, api, run, "--retries", "2", "--cache", str(cache)),
        env={KEYS[api]: key},
    )
    assert result.returncode == 0, result.stderr
    assert server.keys_seen == {key}  # the key was really sent
    found = records(run)
    assert found["N1-000001/sov_pdf"]["status"] == "error"
    assert "[REDACTED]" in found["N1-000001/sov_pdf"]["error"]
    files = [p for p in [*run.rglob("*"), *cache.rglob("*")] if p.is_file()]
    assert len(files) > 12
    leaks = [str(p) for p in files if key.encode() in p.read_bytes()]
    assert leaks == []
    assert key not in result.stdout + result.stderr


@pytest.mark.slow
def test_bad_usage_is_one_line_and_exit_2(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    base = ["extract", "--packets", str(PACKET), "--out", str(run)]
    _error(
        run_cli(*base, "--provider", "openai", "--model", "m", env={"OPENAI_API_KEY": ""}),
        "needs an API key in OPENAI_API_KEY",
    )
    assert not run.exists()
    _error(run_cli(*base, "--provider", "anthropic"), "--model is required")
    _error(
        run_cli(*base, "--provider", "gemini", "--model", "m", "--reasoning", "extreme"),
        "unknown reasoning level 'extreme'",
    )
    _error(
        run_cli(*base, "--provider", "openai", "--model", "m", "--input", "ocr"),
        "unknown input 'ocr'",
    )
    _error(
        run_cli(
            *base,
            "--provider",
            "openai",
            "--model",
            "m",
            "--resume",
            env={"OPENAI_API_KEY": "k" * 20},
        ),
        "no run to continue",
    )
    _error(
        run_cli(*base, "--provider", "openai", "--model", "m", "--resume", "--force"),
        "cannot be combined",
    )
    _error(
        run_cli(
            *base,
            "--provider",
            "openai",
            "--model",
            "unpriced-model",
            "--max-cost",
            "5",
            env={"OPENAI_API_KEY": "k" * 20},
        ),
        "--max-cost needs a price",
    )
    _error(run_cli(*base, "--provider", "sim", "--resume"), "no run to continue")
    _error(run_cli(*base, "--provider", "sim", "--retry-failed"), "for API providers")
    server = stub("openai", PACKET)
    assert (
        run_cli(*_extract(server, "openai", run), env={"OPENAI_API_KEY": "k" * 20}).returncode == 0
    )
    _error(
        run_cli(
            *_extract(server, "openai", run, "--resume", "--reasoning", "high"),
            env={"OPENAI_API_KEY": "k" * 20},
        ),
        "different settings",
        "reasoning",
    )


def test_a_cache_that_cannot_be_written_is_refused_before_any_request(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    """A --cache (or $PACKETBENCH_CACHE) that is a file, or a folder that cannot be made (under
    a file), used to turn every request into an error (25 of 25); now one line, before the
    first request, and no run folder."""
    server = stub("openai", PACKET)
    run = tmp_path / "run"
    (tmp_path / "cache-file").write_text("mine")
    for cache, env, needle in (
        ("--cache", {}, f"{tmp_path / 'cache-file'}: not a folder"),
        ("", {"PACKETBENCH_CACHE": str(tmp_path / "cache-file")}, "not a folder"),
        ("--cache", {}, f"{tmp_path / 'cache-file' / 'inside'}: cannot write"),
    ):
        folder = needle.split(":")[0]
        extra = ("--cache", folder) if cache else ()
        _error(
            run_cli(
                *_extract(server, "openai", run, *extra), env={**env, "OPENAI_API_KEY": "k" * 20}
            ),
            needle,
            "response cache",
        )
        assert not run.exists() and sum(server.requests.values()) == 0
    assert (tmp_path / "cache-file").read_text() == "mine"


@pytest.mark.slow
def test_refused_key_and_refused_reasoning_stop_the_run(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub("anthropic", PACKET, expect_key="the-right-key-0004")
    run = tmp_path / "run"
    line = _error(
        run_cli(
            *_extract(server, "anthropic", run, "--no-cache"),
            env={"ANTHROPIC_API_KEY": "a-wrong-key-0004"},
        ),
        "authentication refused (401)",
        "--resume",
    )
    assert "a-wrong-key-0004" not in line  # the server echoed it; the message masks it
    assert records(run) == {}  # not the documents' fault: nothing recorded, all resumable
    assert sum(server.requests.values()) == 0 and len(server.rejected) <= 8
    resumed = run_cli(
        *_extract(server, "anthropic", run, "--no-cache", "--resume"),
        env={"ANTHROPIC_API_KEY": "the-right-key-0004"},
    )
    assert resumed.returncode == 0, resumed.stderr
    assert len(records(run)) == DOCUMENTS

    picky = stub("openai", PACKET, reject_reasoning=True)
    _error(
        run_cli(
            *_extract(picky, "openai", tmp_path / "r2", "--reasoning", "xhigh"),
            env={"OPENAI_API_KEY": "k" * 20},
        ),
        "model 'stub-model' rejected the reasoning setting {'reasoning_effort': 'max'}",
        "choose another --reasoning level",
    )


@pytest.mark.slow
def test_max_cost_stops_cleanly_and_resume_finishes(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub("gemini", PACKET)
    pricing = tmp_path / "pricing.json"
    pricing.write_text(
        json.dumps(
            {"models": {"stub-model": {"input": 100.0, "output": 100.0, "reasoning": 100.0}}}
        )
    )
    run = tmp_path / "run"
    args = _extract(
        server, "gemini", run, "--pricing", str(pricing), "--no-cache", "--concurrency", "2"
    )
    env = {"GEMINI_API_KEY": "g" * 20}
    result = run_cli(*args, "--max-cost", "0.5", env=env)
    assert result.returncode == 1, result.stderr
    assert "--max-cost $0.50 reached" in result.stderr
    found = records(run)
    assert 0 < len(found) < DOCUMENTS
    spent = sum(r["usage"]["cost_usd"] for r in found.values())
    assert spent >= 0.5  # it stopped because the money was spent...
    largest = max(r["usage"]["cost_usd"] for r in found.values())
    assert spent < 0.5 + 2 * largest  # ... and at most the in-flight requests went past it
    assert sum(server.requests.values()) == len(found)
    info = json.loads((run / "run.json").read_text())
    assert info["status"] == "incomplete" and info["invocations"][-1]["stopped"] == "max-cost"
    assert run_cli(*args, "--resume", env=env).returncode == 0
    assert len(records(run)) == DOCUMENTS == sum(server.requests.values())


@pytest.mark.slow
def test_dry_run_estimates_and_sends_nothing(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub("openai", PACKET)
    run = tmp_path / "run"
    result = run_cli(
        "extract",
        "--provider",
        "openai",
        "--model",
        "gpt-5",
        "--base-url",
        server.base_url,
        "--packets",
        str(PACKET),
        "--out",
        str(run),
        "--dry-run",
        env={"OPENAI_API_KEY": ""},
    )  # needs no key either
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert line.startswith(
        f"dry run: {DOCUMENTS} of {DOCUMENTS} documents would be sent to openai gpt-5: ~"
    )
    assert "estimated $" in line and "32,000-token cap" in line
    assert not run.exists() and sum(server.requests.values()) == 0
    unpriced = run_cli(
        "extract",
        "--provider",
        "gemini",
        "--model",
        "stub-model",
        "--packets",
        str(PACKET),
        "--out",
        str(run),
        "--dry-run",
    )
    assert "no price for 'stub-model'" in unpriced.stdout


@pytest.mark.slow
def test_audit_tokens_lists_completions_near_their_cap(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    near = {"N1-000001/sov_pdf": ["long"], "N1-000001/loss_run_pdf": ["truncated"]}
    server = stub("openai", PACKET, Faults(script=near))
    run = tmp_path / "run"
    assert (
        run_cli(
            *_extract(server, "openai", run, "--max-output-tokens", "4000", "--no-cache"),
            env={"OPENAI_API_KEY": "k" * 20},
        ).returncode
        == 0
    )
    result = run_cli("audit-tokens", str(run))
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == (
        f"{run}: 2 of {DOCUMENTS} completions came within 5% of the 4,000-token cap"
    )
    assert lines[0].startswith(
        "N1-000001/loss_run_pdf: 4,000 of 4,000 tokens (100%), finish_reason length, status invalid"
    )
    assert lines[1].startswith("N1-000001/sov_pdf: 3,880 of 4,000 tokens (97%)")
    data = json.loads(run_cli("audit-tokens", str(run), "--json").stdout)
    assert [n["doc_id"] for n in data["near_cap"]] == ["loss_run_pdf", "sov_pdf"]
    sim = tmp_path / "sim"
    assert run_cli("extract", "--packets", str(PACKET), "--out", str(sim)).returncode == 0
    _error(run_cli("audit-tokens", str(sim)), "records no output-token cap")


@pytest.mark.slow
def test_an_api_run_scores(stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path) -> None:
    plan = Faults(script={"N1-000001/sov_pdf": ["malformed"], "N1-000001/acord_125": ["envelope"]})
    server = stub("gemini", PACKET, plan)
    run = tmp_path / "run"
    assert (
        run_cli(
            *_extract(server, "gemini", run, "--no-cache"), env={"GEMINI_API_KEY": "g" * 20}
        ).returncode
        == 0
    )
    scored = run_cli("score", str(run), "--packets", str(PACKET))
    assert scored.returncode == 0, scored.stderr
    assert f"{DOCUMENTS - 1} documents scored" in scored.stdout  # the malformed one is not
    assert "excluded: 1 invalid" in scored.stdout
    breakdown = json.loads((run / "scores" / "field_breakdown.json").read_text())
    overall = breakdown["overall"]
    assert overall["wrong"] == overall["omitted"] == 0 and overall["correct"] > 500
