"""`packetbench run`: the whole benchmark in one command, as a new user runs it."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from benchmark.pipeline import Options, run_pipeline

Run = Callable[..., subprocess.CompletedProcess[str]]
STAGES = ("generate", "audit", "extract", "score", "report")


def test_default_run_in_the_current_folder(run_cli: Run, tmp_path: Path) -> None:
    result = run_cli("run", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == ("packetbench run: N1, N2, N3, N4, N5 x 1 packet(s) from seed 1 into "
                        "packetbench-run, extracted by sim (SIMULATED extractor, not a model)")
    assert [line.split()[0] for line in lines[1:6]] == list(STAGES)
    assert "audit     passed:" in lines[2]
    assert "55 of 55 documents [55 ok] by sim-typical (SIMULATED extractor, not a model)" in (
        lines[3])
    assert lines[-1] == "report: packetbench-run/report/report.html"
    out = tmp_path / "packetbench-run"
    assert sorted(p.name for p in (out / "packets").iterdir()) == [
        f"{tier}-000001" for tier in ("N1", "N2", "N3", "N4", "N5")]
    assert json.loads((out / "audit.json").read_text())["ok"] is True
    run = out / "runs" / "sim-typical"
    assert (run / "results.duckdb").is_file() and (run / "scores" / "claims.jsonl").is_file()
    report = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "SIMULATED extractor" in report and "| sim-typical | sim | sim-typical |" in report
    first = {name: (out / "report" / name).read_bytes() for name in ("report.md", "report.html")}

    again = run_cli("run", cwd=tmp_path)
    assert again.returncode == 2
    assert again.stderr.strip() == ("packetbench: error: packetbench-run: already holds a "
                                    "benchmark run (packets); use --force to replace it")
    forced = run_cli("run", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    # the whole pipeline is deterministic: the same command gives the same report bytes
    assert {name: (out / "report" / name).read_bytes() for name in first} == first


def test_tiers_count_and_seed(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    result = run_cli("run", "--out", str(out), "--tiers", "N1,N2", "--count", "2", "--seed",
                     "7", "--profile", "sloppy", "--sim-seed", "3")
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(p.name for p in (out / "packets").iterdir()) == [
        "N1-000007", "N1-000008", "N2-000007", "N2-000008"]
    info = json.loads((out / "runs" / "sim-sloppy" / "run.json").read_text())
    assert info["parameters"] == {"profile": "sloppy", "seed": 3}
    assert "4 packets, 44 documents" in result.stdout


def test_bad_options_are_exit_2(run_cli: Run, tmp_path: Path) -> None:
    for args, needle in ((("--tiers", "N1,N7"), "unknown tier 'N7'"),
                         (("--count", "0"), "--count must be at least 1"),
                         (("--provider", "gpt-9"), "unknown provider 'gpt-9'"),
                         (("--profile", "careless"), "unknown sim profile 'careless'")):
        result = run_cli("run", "--out", str(tmp_path / "x"), *args)
        assert result.returncode == 2, args
        assert result.stderr.startswith("packetbench: error: ") and needle in result.stderr
    assert not (tmp_path / "x" / "packets").exists()


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
