"""`run` takes what its stages take : `--set` (generate), `--ocr` (audit),
`--dry-run`, `--timeout`, `--retries`, `--cache`/`--no-cache` (extract), each reaching the
stage it belongs to."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.stubs import records

Run = Callable[..., subprocess.CompletedProcess[str]]
DOCS = "documents=acord_125,sov_pdf"


@pytest.mark.slow
def test_set_ocr_and_a_sim_dry_run(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    dry = run_cli("run", "--out", str(out), "--tiers", "N1", "--set", DOCS, "--ocr", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    # --set reached generate: the packet holds only the two documents asked for
    truth = json.loads((out / "packets" / "N1-000001" / "packet_truth.json").read_text())
    assert sorted(d["doc_id"] for d in truth["documents"]) == ["acord_125", "sov_pdf"]
    # --ocr reached the audit
    assert json.loads((out / "audit.json").read_text())["ocr"] is True
    # --dry-run stopped before extraction, and says how to go on
    assert "dry run: 2 documents; sim sends nothing and costs nothing" in dry.stdout
    assert not (out / "runs").exists() and not (out / "report").exists()
    assert json.loads((out / "pipeline.json").read_text())["set"] == {
        "documents": ["acord_125", "sov_pdf"]
    }
    # the knobs are part of what the run asked for: --resume without them is refused
    other = run_cli("run", "--out", str(out), "--tiers", "N1", "--resume")
    assert other.returncode == 2 and "asked for other set" in other.stderr
    bad = run_cli("run", "--out", str(tmp_path / "bad"), "--tiers", "N1", "--set", "sov.nope=1")
    assert bad.returncode == 2 and "nope" in bad.stderr
    assert not (tmp_path / "bad").exists()  # refused before the folder was made
    done = run_cli("run", "--out", str(out), "--tiers", "N1", "--set", DOCS, "--resume")
    assert done.returncode == 0, done.stderr
    assert "2 of 2 documents [2 ok]" in done.stdout


@pytest.mark.slow
def test_api_dry_run_timeout_retries_and_cache(run_cli: Run, tmp_path: Path) -> None:
    from packetbench.benchmark.harness.stub import Faults, StubServer
    from packetbench.generator.generation import generate
    from packetbench.generator.tiers import parse_overrides

    generate("N1", 1, 1, tmp_path / "stub-packets", overrides=parse_overrides([DOCS]))
    cache, elsewhere = tmp_path / "cache", tmp_path / "env-cache"
    env = {"OPENAI_API_KEY": "run-test-key-0123456789", "PACKETBENCH_CACHE": str(elsewhere)}
    out = tmp_path / "api"
    plan = Faults(script={"N1-000001/sov_pdf": ["server_503", "none"]})
    with StubServer("openai", tmp_path / "stub-packets", plan) as stub:
        api = ["--provider", "openai", "--model", "stub-model", "--base-url", stub.base_url]
        base = ["run", "--out", str(out), "--tiers", "N1", "--set", DOCS, *api]
        dry = run_cli(*base, "--dry-run", env=env)
        assert dry.returncode == 0, dry.stderr
        assert "dry run: 2 of 2 documents would be sent to openai stub-model" in dry.stdout
        assert sum(stub.requests.values()) == 0 and not (out / "runs").exists()
        real = [*base, "--resume", "--timeout", "30", "--retries", "0", "--cache", str(cache)]
        result = run_cli(*real, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    run = out / "runs" / "stub-model"
    found = records(run)
    # --retries 0: the 503 was not retried, so that document failed and the other did not
    assert found["N1-000001/sov_pdf"]["status"] == "error"
    assert found["N1-000001/acord_125"]["status"] == "ok"
    assert sum(stub.requests.values()) == 2
    info = json.loads((run / "run.json").read_text())
    assert info["retry"]["retries"] == 0
    assert info["timeout_s"] == 30.0
    # --cache: the answer went into the folder asked for, not $PACKETBENCH_CACHE's
    assert any(p.is_file() for p in cache.rglob("*"))
    assert not elsewhere.exists() or not any(p.is_file() for p in elsewhere.rglob("*"))


def test_an_api_dry_run_needs_no_key(run_cli: Run, tmp_path: Path) -> None:
    """`run --dry-run` estimates an API run without its key, as `extract --dry-run` does
    ; the run itself still refuses to start without one, before generating."""
    no_key = {"OPENAI_API_KEY": ""}
    api = ["--provider", "openai", "--model", "gpt-5-mini", "--tiers", "N1", "--set", DOCS]
    dry = run_cli("run", "--out", str(tmp_path / "dry"), *api, "--dry-run", env=no_key)
    assert dry.returncode == 0, dry.stderr
    assert "dry run: 2 of 2 documents would be sent to openai gpt-5-mini" in dry.stdout
    assert "estimated $" in dry.stdout
    assert not (tmp_path / "dry" / "runs").exists()
    real = run_cli("run", "--out", str(tmp_path / "real"), *api, env=no_key)
    assert real.returncode == 2
    assert real.stderr.splitlines() == [
        "packetbench: error: provider openai needs an API key in OPENAI_API_KEY"
    ]
    assert not (tmp_path / "real").exists()
