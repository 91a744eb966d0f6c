"""`packetbench run`: the whole benchmark in one command, as a new user runs it."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.pipeline import Options, run_pipeline
from tests.support.paths import canonical_documents
from tests.support.readback import doc_ids

Run = Callable[..., subprocess.CompletedProcess[str]]
STAGES = ("generate", "audit", "extract", "score", "report")


@pytest.mark.e2e
def test_a_run_in_the_current_folder_is_refused_again_and_forced_to_the_same_bytes(
    run_cli: Run, tmp_path: Path
) -> None:
    """The default `packetbench run` (all five tiers) is the README's first session, checked
    line by line by tests/test_docs.py; here two of its tiers, N1 and a scanned N3, in the
    folder it writes by default."""
    result = run_cli("run", "--tiers", "N1,N3", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "packetbench run: N1, N3 x 1 packet(s) from seed 1 into "
        "packetbench-run, extracted by sim (SIMULATED extractor, not a model)"
    )
    # N3 has scanned pages the run reads no OCR of: it says what passed, and on the line
    # under it what was not checked and the command that checks it.
    assert lines[2].startswith("audit     passed: "), lines[2]
    assert lines[3].startswith("          not checked: "), lines[3]
    assert lines[3].endswith(
        "to check them: packetbench audit --ocr --packets packetbench-run/packets"
    )
    stages = [line for line in lines[1:7] if not line.startswith(" ")]
    assert [line.split()[0] for line in stages] == list(STAGES)
    total = canonical_documents(("N1", "N3"))  # seed 1: the canonical suite's packets
    assert (
        f"{total} of {total} documents [{total} ok] by sim-typical (SIMULATED extractor, "
        "not a model)"
    ) in lines[4]
    assert lines[-1] == "report: packetbench-run/report/report.html"
    out = tmp_path / "packetbench-run"
    assert sorted(p.name for p in (out / "packets").iterdir()) == [
        "N1-000001",
        "N3-000001",
        "corpus.json",
        "corpus.lock",
    ]
    from packetbench.generator.corpus import entry_of, read
    from tests.support.paths import PACKETS

    suite = [entry_of(PACKETS / f"{t}-000001")[0] for t in ("N1", "N3")]
    assert read(out / "packets").entries == suite
    assert lines[1].endswith(
        f"; corpus digest {read(out / 'packets').digest[:12]} in {lines[1].rsplit(' in ', 1)[1]}"
    )
    # scanned pages cannot be checked without OCR: `run` counts them instead of failing
    audit = json.loads((out / "audit.json").read_text())
    assert set(
        audit["totals"]["findings"][k] > 0
        for k in audit["totals"]["findings"]
        if k != "not_checked"
    ) == {False}
    unverified = audit["totals"]["fields_not_checked"]
    assert unverified > 0 and f"not checked: {unverified:,} located values" in lines[3]
    run = out / "runs" / "sim-typical"
    assert (run / "results.duckdb").is_file() and (run / "scores" / "claims.parquet").is_file()
    report = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "SIMULATED extractor" in report and "| sim-typical | sim | sim-typical |" in report
    first = {name: (out / "report" / name).read_bytes() for name in ("report.md", "report.html")}

    again = run_cli("run", "--tiers", "N1,N3", cwd=tmp_path)
    assert again.returncode == 2
    assert again.stderr.strip() == (
        "packetbench: error: packetbench-run: already holds a "
        "benchmark run (packets); use --force to replace it, or --resume to continue it"
    )
    forced = run_cli("run", "--tiers", "N1,N3", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    # the whole pipeline is deterministic: the same command gives the same report bytes
    assert {name: (out / "report" / name).read_bytes() for name in first} == first


@pytest.mark.e2e
def test_tiers_count_and_seed(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    result = run_cli(
        "run",
        "--out",
        str(out),
        "--tiers",
        "N1,N2",
        "--count",
        "2",
        "--seed",
        "7",
        "--profile",
        "sloppy",
        "--sim-seed",
        "3",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(p.name for p in (out / "packets").iterdir()) == [
        "N1-000007",
        "N1-000008",
        "N2-000007",
        "N2-000008",
        "corpus.json",
        "corpus.lock",
    ]
    info = json.loads((out / "runs" / "sim-sloppy" / "run.json").read_text())
    assert info["parameters"] == {"profile": "sloppy", "seed": 3}
    total = sum(len(doc_ids(folder)) for folder in (out / "packets").iterdir() if folder.is_dir())
    assert f"4 packets, {total} documents" in result.stdout


@pytest.mark.slow
def test_bad_options_are_exit_2(run_cli: Run, tmp_path: Path) -> None:
    for args, needle in (
        (("--tiers", "N1,N7"), "unknown tier 'N7'"),
        (("--count", "0"), "--count must be at least 1"),
        (("--provider", "gpt-9"), "unknown provider 'gpt-9'"),
        (("--profile", "careless"), "unknown sim profile 'careless'"),
        (("--audit-sample", "0"), "--audit-sample '0': give a number of packets"),
        (("--audit-sample", "nan%"), "--audit-sample 'nan%': a percentage must be"),
        (("--cite", "cell"), "unknown --cite 'cell'; choose page, box"),
    ):
        result = run_cli("run", "--out", str(tmp_path / "x"), *args)
        assert result.returncode == 2, args
        assert result.stderr.startswith("packetbench: error: ") and needle in result.stderr
    assert not (tmp_path / "x" / "packets").exists()


@pytest.mark.slow
def test_run_cite_box_scores_the_citations_and_says_so(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    result = run_cli("run", "--out", str(out), "--tiers", "N1", "--cite", "box")
    assert result.returncode == 0, result.stdout + result.stderr
    run = out / "runs" / "sim-typical"
    assert json.loads((run / "run.json").read_text())["parameters"]["cite"] == "box"
    assert json.loads((out / "pipeline.json").read_text())["cite"] == "box"
    # The rates printed are the grounding view's, in the order printed.
    from packetbench.benchmark.results.query import open_runs

    with open_runs([run]) as opened:
        rates = {r["metric"]: r["micro"] for r in opened.metric("grounding")}
    shares = [
        f"{rates[m] * 100:.2f} %"
        for m in (
            "citation_recall",
            "citation_precision_page",
            "citation_precision_box",
            "grounding_f1_value",
            "grounding_f1_page",
            "grounding_f1_box",
        )
    ]
    line = next(x for x in result.stdout.splitlines() if x.startswith("grounding: "))
    assert line == (
        f"grounding: citation recall {shares[0]}; citation precision page {shares[1]}, box "
        f"{shares[2]}; grounding F1 (value >= page >= box) {shares[3]} >= {shares[4]} >= "
        f"{shares[5]}"
    )
    assert "Grounding" in (out / "report" / "report.md").read_text()


class _Tamper:
    """A listener that, once the packets are written, changes one located value on disk."""

    def __init__(self, packets: Path) -> None:
        self.packets = packets
        self.finished: list[str] = []

    def start(self, stage: str, total: int | None) -> None:
        pass

    def advance(self, stage: str, completed: int) -> None:
        pass

    def finish(self, stage: str, summary: str, seconds: float) -> None:
        self.finished.append(stage)
        if stage == "generate":
            path = self.packets / "N1-000001" / "field_truth_sov_excel.json"
            data = json.loads(path.read_text())
            data["fields"][0]["rendered_as"] += " (altered)"
            path.write_text(json.dumps(data))


def test_a_failed_audit_stops_before_extraction(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    listener = _Tamper(out / "packets")
    outcome = run_pipeline(Options(out=out, tiers=("N1",), jobs=1), listener)
    assert outcome.audit_ok is False and outcome.report is None
    assert listener.finished == ["generate", "audit"]
    assert not (out / "runs").exists()
    audit = json.loads((out / "audit.json").read_text())
    assert audit["ok"] is False


class _AuditOnly(_Tamper):
    """A listener that keeps each stage's summary and stops the run after the audit."""

    def __init__(self) -> None:
        super().__init__(Path())
        self.summaries: dict[str, str] = {}

    def finish(self, stage: str, summary: str, seconds: float) -> None:
        self.summaries[stage] = summary
        if stage == "audit":
            raise _Stop


class _Stop(Exception):
    pass


def test_run_audits_a_sample_and_says_so(tmp_path: Path) -> None:
    from packetbench.audit.sample import (
        ALL,
        RUN_SAMPLE,
        RUN_SAMPLE_ABOVE,
        SampleSize,
        run_default,
    )

    assert run_default(RUN_SAMPLE_ABOVE) == ALL
    assert run_default(RUN_SAMPLE_ABOVE + 1) == SampleSize(count=RUN_SAMPLE)
    out = tmp_path / "bench"
    listener = _AuditOnly()
    options = Options(out=out, tiers=("N1",), count=3, jobs=1, audit_sample=SampleSize(1))
    with pytest.raises(_Stop):
        run_pipeline(options, listener)
    said = listener.summaries["audit"]
    assert said.startswith(
        "passed: a seeded sample of 1 of 3 packets (every packet: --audit-sample all, or "
        f"packetbench audit --packets {out / 'packets'}); at most 100.00% of the corpus's "
        "packets"
    ), said
    audit = json.loads((out / "audit.json").read_text())
    assert len(audit["packets"]) == 1 and audit["sample"]["population"] == 3


@pytest.mark.e2e
def test_a_real_provider_runs_the_whole_pipeline(run_cli: Run, tmp_path: Path) -> None:
    """`run --provider openai` against the OpenAI stub: the real SDK extracts every document,
    and the options reach the requests. The stub indexes its own copy of the packets; `run`
    generates byte-identical ones, so the stub recognizes every document."""
    from packetbench.benchmark.harness.stub import Faults, StubServer
    from packetbench.generator.generation import generate

    generate("N1", 1, 1, tmp_path / "stub-packets")
    key = {"OPENAI_API_KEY": "run-test-key-0123456789"}
    missing = run_cli(
        "run",
        "--out",
        str(tmp_path / "nokey"),
        "--provider",
        "openai",
        "--model",
        "stub-model",
        env={"OPENAI_API_KEY": ""},
    )
    assert missing.returncode == 2
    assert "needs an API key in OPENAI_API_KEY" in missing.stderr
    assert not (tmp_path / "nokey" / "packets").exists()  # failed before generating

    plan = Faults(script={"N1-000001/sov_pdf": ["server_503", "none"]})
    with StubServer(
        "openai",
        tmp_path / "stub-packets",
        plan,
        keep_bodies=True,
        expect_key=key["OPENAI_API_KEY"],
    ) as stub:
        out = tmp_path / "api"
        result = run_cli(
            "run",
            "--out",
            str(out),
            "--tiers",
            "N1",
            "--provider",
            "openai",
            "--model",
            "stub-model",
            "--base-url",
            stub.base_url,
            "--reasoning",
            "high",
            "--input",
            "text",
            "--concurrency",
            "4",
            env=key,
        )
    assert result.returncode == 0, result.stdout + result.stderr
    total = len(doc_ids(tmp_path / "stub-packets" / "N1-000001"))
    assert f"{total} of {total} documents [{total} ok] by stub-model" in result.stdout
    assert "SIMULATED" not in result.stdout
    assert stub.rejected == [] and sum(stub.requests.values()) == total + 1  # a retried 503
    body = stub.bodies["N1-000001/acord_125"][0]
    assert body["reasoning_effort"] == "high"
    assert all(part["type"] == "text" for part in body["messages"][1]["content"])
    run = out / "runs" / "stub-model"
    info = json.loads((run / "run.json").read_text())
    assert info["provider"] == "openai" and info["concurrency"] == 4
    assert info["documents"]["by_status"] == {"ok": total}
    # a perfect stub answer scores perfectly: the pipeline carried the truth through
    assert "hallucination rate: numbers 0.00 %, strings 0.00 %; faithfulness 100.00 %" in (
        result.stdout
    )
    assert (out / "report" / "report.html").is_file()


@pytest.mark.e2e
def test_kill_9_leaves_no_worker_behind(tmp_path: Path) -> None:
    """SIGKILL while `run` generates in two worker processes: the workers die with it."""
    import signal
    import subprocess
    import time

    from tests.support.paths import cli_path
    from tests.support.processes import children, wait_until_gone

    process = subprocess.Popen(
        [cli_path(), "run", "--out", str(tmp_path / "bench"), "--tiers", "N3,N4,N5", "--jobs", "2"],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while len(children(process.pid)) < 2:
        assert process.poll() is None, "run ended before it was killed"
        assert time.monotonic() < deadline, "run never started its workers"
        time.sleep(0.005)
    workers = children(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    assert wait_until_gone(process.pid) == [], f"workers {workers} outlived `run`"


@pytest.mark.slow
def test_a_run_whose_every_extraction_failed_stops_with_exit_1(
    run_cli: Run, tmp_path: Path
) -> None:
    from packetbench.benchmark.harness.stub import Faults, StubServer
    from packetbench.generator.generation import generate

    generate("N1", 1, 1, tmp_path / "stub-packets")
    key = {"OPENAI_API_KEY": "run-test-key-0123456789"}
    with StubServer(
        "openai", tmp_path / "stub-packets", Faults(rate=1.0, kinds=("malformed",))
    ) as stub:
        out = tmp_path / "api"
        result = run_cli(
            "run",
            "--out",
            str(out),
            "--tiers",
            "N1",
            "--provider",
            "openai",
            "--model",
            "stub-model",
            "--base-url",
            stub.base_url,
            env=key,
        )
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    n = len(doc_ids(tmp_path / "stub-packets" / "N1-000001"))
    assert f"{n} of {n} documents [{n} invalid] by stub-model" in lines[3]
    assert lines[-1] == (
        f"stopped: no document was extracted ok ({n} invalid), so there is "
        f"nothing to score; each record in "
        f"{out / 'runs' / 'stub-model' / 'extractions'} says why"
    )
    assert not (out / "report").exists()


@pytest.mark.e2e
def test_the_same_run_in_other_folders_gives_the_same_report(run_cli: Run, tmp_path: Path) -> None:
    reports = []
    for out in (tmp_path / "a" / "bench", tmp_path / "b" / "deeper" / "bench"):
        result = run_cli("run", "--out", str(out), "--tiers", "N1", "--jobs", "1")
        assert result.returncode == 0, result.stdout + result.stderr
        reports.append(
            {name: (out / "report" / name).read_bytes() for name in ("report.md", "report.html")}
        )
        assert str(tmp_path).encode() not in reports[-1]["report.md"]
    assert reports[0] == reports[1]
    assert b'| packets_dir | `"../../packets"` |' in reports[0]["report.md"]


def test_the_default_run_folder_is_ignored_by_git() -> None:
    """Inside a checkout, `packetbench run` writes ./packetbench-run: git must ignore it, or
    every run records the checkout as dirty."""
    import subprocess

    from tests.support.paths import ROOT

    result = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "-q", "packetbench-run/runs/sim-typical/run.json"],
        check=False,
    )
    assert result.returncode == 0


@pytest.mark.slow
def test_a_killed_api_run_is_resumed_without_paying_twice(run_cli: Run, tmp_path: Path) -> None:
    """`run --provider openai` killed during extraction, then `run --resume`: the packets are
    kept, only the documents without a record are requested (the response cache is emptied,
    so only the records can spare them), and scoring and the report are done."""
    import os
    import shutil
    import signal
    import time

    from packetbench.benchmark.harness.stub import StubServer
    from packetbench.generator.generation import generate
    from tests.support.paths import cli_path
    from tests.support.processes import wait_until_gone

    generate("N1", 1, 1, tmp_path / "stub-packets")
    cache = tmp_path / "cache"
    env = {"OPENAI_API_KEY": "run-test-key-0123456789", "PACKETBENCH_CACHE": str(cache)}
    out = tmp_path / "api"
    with StubServer("openai", tmp_path / "stub-packets", delay_s=0.2) as stub:
        args = [
            "run",
            "--out",
            str(out),
            "--tiers",
            "N1",
            "--jobs",
            "1",
            "--provider",
            "openai",
            "--model",
            "stub-model",
            "--base-url",
            stub.base_url,
            "--concurrency",
            "2",
        ]
        process = subprocess.Popen(
            [cli_path(), *args],
            env={**os.environ, **env},
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        extractions = out / "runs" / "stub-model" / "extractions"
        deadline = time.monotonic() + 300
        while sum(1 for _ in extractions.glob("*/*.json")) < 6:
            assert process.poll() is None, "the run ended before it was killed"
            assert time.monotonic() < deadline, "the run never extracted"
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
        assert wait_until_gone(process.pid) == []
        done = {f"{p.parent.name}/{p.stem}" for p in extractions.glob("*/*.json")}
        documents = len(doc_ids(tmp_path / "stub-packets" / "N1-000001"))
        assert 6 <= len(done) < documents
        shutil.rmtree(cache, ignore_errors=True)
        before = dict(stub.requests)
        result = run_cli(*args, "--resume", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(1 complete before, kept)" in result.stdout
    again = {d: n - before.get(d, 0) for d, n in stub.requests.items() if n > before.get(d, 0)}
    assert not set(again) & done, "documents with a record were requested again"
    assert len(again) == documents - len(done) and set(again.values()) == {1}
    assert (out / "report" / "report.html").is_file()
    info = json.loads((out / "runs" / "stub-model" / "run.json").read_text())
    assert [i["mode"] for i in info["invocations"]] == ["new", "resume"]
    refused = run_cli(*args[:4], "N1,N2", *args[5:], "--resume", env=env)
    assert refused.returncode == 2 and "asked for other tiers" in refused.stderr
