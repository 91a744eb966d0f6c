"""`--repeats K`: K independent extractions of every document, each a complete run
in RUN/repeats/r1..rK, scored as K runs, with the spread between them in
RUN/scores/repeats.json and the report. Real commands as subprocesses; the API one against
a stub server through the real OpenAI SDK."""

from __future__ import annotations

import json
import statistics
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.support.paths import PACKETS
from tests.support.stubs import KEYS, records

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = str(PACKETS / "N1-000001")


def _ok(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != ".packetbench.lock"
    }


def _micro(run_cli: Run, run: Path, metric: str) -> float:
    """A headline rate of the run, from the counts `packetbench sql` reads in its database."""
    query = f"SELECT num, den FROM headline WHERE metric = '{metric}'"
    out = _ok(run_cli("sql", str(run), query, "--format", "csv"))
    num, den = out.stdout.splitlines()[1].split(",")
    return int(num) / int(den)


def _outcomes(repeats: list[Path]) -> dict[tuple[str, str], tuple[int, int]]:
    """Per document: (truth leaves, leaves whose outcome differs between the repeats), read
    from each repeat's scores/fields.parquet (not from the databases the spread reads)."""
    by_leaf: dict[tuple[str, str, str], set[str]] = {}
    for run in repeats:
        with duckdb.connect() as con:
            rows = con.execute(
                "SELECT packet_id, doc_id, path, outcome FROM read_parquet(?)",
                [str(run / "scores" / "fields.parquet")],
            ).fetchall()
        for packet_id, doc_id, path, outcome in rows:
            by_leaf.setdefault((packet_id, doc_id, path), set()).add(outcome)
    found: dict[tuple[str, str], tuple[int, int]] = {}
    for (packet_id, doc_id, _), outcomes in by_leaf.items():
        leaves, differ = found.get((packet_id, doc_id), (0, 0))
        found[(packet_id, doc_id)] = (leaves + 1, differ + (len(outcomes) > 1))
    return found


@pytest.mark.slow
def test_sim_repeats_are_k_runs_and_the_spread_is_theirs(run_cli: Run, tmp_path: Path) -> None:
    run, plain = tmp_path / "rep", tmp_path / "plain"
    made = _ok(run_cli("extract", "--packets", PACKET, "--out", str(run), "--repeats", "3"))
    repeats = [run / "repeats" / f"r{i}" for i in (1, 2, 3)]
    assert [line.split(":")[0] for line in made.stdout.splitlines()] == [
        *map(str, repeats),
        str(run),
    ]
    assert made.stdout.splitlines()[-1].startswith(f"{run}: 3 of 3 repeats, 75 of 75 documents")
    # each repeat is a complete run, its place and seed recorded in its run.json
    info = json.loads((run / "run.json").read_text())
    assert info["repeats"]["count"] == 3 and info["status"] == "complete"
    seeds = []
    for index, folder in enumerate(repeats, 1):
        own = json.loads((folder / "run.json").read_text())
        assert own["repeat"] == {"index": index, "count": 3}
        assert own["run_id"] == f"rep-r{index}" and own["status"] == "complete"
        assert len(records(folder)) == 25
        seeds.append(own["parameters"]["seed"])
    assert seeds[0] == 0 and len(set(seeds)) == 3  # the sim seed, then two derived ones
    # repeat 1 is the run made without --repeats; the others are other draws
    _ok(run_cli("extract", "--packets", PACKET, "--out", str(plain)))
    assert _files(repeats[0] / "extractions") == _files(plain / "extractions")
    assert _files(repeats[1] / "extractions") != _files(repeats[0] / "extractions")

    scored = _ok(run_cli("score", str(run), "--packets", PACKET))
    lines = scored.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        *(str(r / "scores") for r in repeats),
        str(run / "scores" / "repeats.json"),
    ]
    spread = json.loads((run / "scores" / "repeats.json").read_text())
    assert spread["repeats"] == ["rep-r1", "rep-r2", "rep-r3"]
    # the spread of each rate is that of the three runs' own rates
    metrics = {m["metric"]: m for m in spread["metrics"]}
    for metric in ("halluc_numbers", "halluc_strings", "faithfulness", "recall"):
        values = [_micro(run_cli, folder, metric) for folder in repeats]
        entry = metrics[metric]
        assert entry["mean"] == statistics.mean(values)
        assert entry["sd"] == statistics.stdev(values)
        assert (entry["min"], entry["max"]) == (min(values), max(values))
    assert metrics["halluc_numbers"]["sd"] > 0  # three draws of the simulator differ
    # per document: the leaves whose outcome differs, recounted from the Parquet files
    recount = _outcomes(repeats)
    by_document = {(d["packet_id"], d["doc_id"]): d for d in spread["by_document"]}
    assert by_document.keys() == recount.keys() and len(recount) == 25
    for key, (leaves, differ) in recount.items():
        assert (by_document[key]["leaves"], by_document[key]["leaves_differing"]) == (
            leaves,
            differ,
        )
    totals = spread["documents"]
    assert totals["leaves_differing"] == sum(d for _, d in recount.values()) > 0
    assert f"{totals['leaves_differing']:,} of {totals['leaves']:,} truth leaves" in lines[-1]

    report = tmp_path / "report"
    _ok(run_cli("report", str(run), "--out", str(report)))
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "Runs: `rep-r1`, `rep-r2`, `rep-r3`." in text
    section = text.split("## 13. Between repeats", 1)[1]
    m = metrics["halluc_numbers"]
    assert (
        f"| Numeric hallucination rate | {m['mean'] * 100:.2f} % | {m['sd'] * 100:.2f} pp | "
        f"{m['min'] * 100:.2f} % | {m['max'] * 100:.2f} % |"
    ) in section
    worst = spread["by_document"][0]
    assert f"| {worst['packet_id']} | {worst['doc_id']} | " in section
    assert "13. Between repeats" in (report / "report.html").read_text(encoding="utf-8")
    # sql stacks the repeats; a command that reads one run says which to give
    stacked = _ok(
        run_cli("sql", str(run), "SELECT DISTINCT run_id FROM claims ORDER BY 1", "--format", "csv")
    )
    assert stacked.stdout.splitlines()[1:] == ["rep-r1", "rep-r2", "rep-r3"]
    for args in (("plan", str(run), "--effect", "0.05"), ("compare", str(run), str(plain))):
        refused = run_cli(*args)
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr == (
            f"packetbench: error: {run}: a run of 3 repeats, each a run of its own "
            f"({run}/repeats/r1 .. r3); give one of them, or give {run} to score, report or sql\n"
        )


def test_the_same_repeats_score_to_the_same_bytes(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "rep"
    _ok(
        run_cli(
            "extract",
            "--packets",
            PACKET,
            "--out",
            str(run),
            "--repeats",
            "2",
            "--profile",
            "sloppy",
        )
    )
    outputs = []
    for hash_seed in ("1", "2"):
        _ok(run_cli("score", str(run), "--packets", PACKET, env={"PYTHONHASHSEED": hash_seed}))
        outputs.append(
            {
                name: data
                for name, data in _files(run).items()
                if "/scores/" in f"/{name}" and not name.endswith(".duckdb")
            }
        )
    assert any(name.endswith("repeats.json") for name in outputs[0])
    assert outputs[0] == outputs[1]


@pytest.mark.slow
def test_repeats_refusals_change_nothing(run_cli: Run, tmp_path: Path) -> None:
    run, plain = tmp_path / "rep", tmp_path / "plain"
    for command in ("extract", "run"):
        args = ("--packets", PACKET) if command == "extract" else ("--tiers", "N1")
        zero = run_cli(command, *args, "--out", str(tmp_path / "zero"), "--repeats", "0")
        assert (zero.returncode, zero.stderr) == (
            2,
            "packetbench: error: --repeats must be at least 1 (got 0)\n",
        )
    assert not (tmp_path / "zero").exists()
    _ok(run_cli("extract", "--packets", PACKET, "--out", str(run), "--repeats", "2"))
    _ok(run_cli("extract", "--packets", PACKET, "--out", str(plain)))
    before = {folder: _files(folder) for folder in (run, plain)}
    for out, given, was in ((run, "3", 2), (run, "1", 2), (plain, "2", 1)):
        result = run_cli(
            "extract", "--packets", PACKET, "--out", str(out), "--resume", "--repeats", given
        )
        assert result.returncode == 2
        assert result.stderr == (
            f"packetbench: error: {out}: cannot continue a run of {was} "
            f"repeat{'s' if was > 1 else ''} with --repeats {given} (a run keeps its number "
            "of repeats); use a new --out, or --force to start over\n"
        )
    assert {folder: _files(folder) for folder in (run, plain)} == before
    # the same K continues it (the simulator makes each repeat again: the same bytes)
    _ok(run_cli("extract", "--packets", PACKET, "--out", str(run), "--resume", "--repeats", "2"))
    assert _files(run / "repeats") == {
        name.removeprefix("repeats/"): data
        for name, data in before[run].items()
        if name.startswith("repeats/")
    }
    # --force replaces a repeated run with a plain one, and the repeats go with it
    (run / "notes.json").write_text("{}")
    _ok(run_cli("extract", "--packets", PACKET, "--out", str(run), "--force"))
    assert not (run / "repeats").exists() and (run / "notes.json").read_text() == "{}"
    assert _files(run / "extractions") == _files(plain / "extractions")


@pytest.mark.slow
def test_run_repeats_reports_the_spread(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    args = (
        "run",
        "--out",
        str(out),
        "--tiers",
        "N1",
        "--set",
        "documents=acord_125,sov_pdf,loss_run_pdf",
    )
    result = _ok(run_cli(*args, "--repeats", "2"))
    lines = result.stdout.splitlines()
    run = out / "runs" / "sim-typical"
    spread = json.loads((run / "scores" / "repeats.json").read_text())
    mean = {m["metric"]: m["mean"] for m in spread["metrics"]}
    assert lines[-3] == (
        f"hallucination rate (mean of 2 repeats): numbers {mean['halluc_numbers'] * 100:.2f} %, "
        f"strings {mean['halluc_strings'] * 100:.2f} %; faithfulness "
        f"{mean['faithfulness'] * 100:.2f} % (SIMULATED extractor)"
    )
    assert lines[-2].startswith(f"{run / 'scores' / 'repeats.json'}: 2 repeats: numbers ")
    assert "6 of 6 documents [6 ok]" in result.stdout  # 3 documents, twice
    assert json.loads((out / "pipeline.json").read_text())["repeats"] == 2
    assert "## 13. Between repeats" in (out / "report" / "report.md").read_text(encoding="utf-8")
    other = run_cli(*args, "--repeats", "3", "--resume")
    assert other.returncode == 2
    assert "cannot continue a run that asked for other repeats (2, now 3)" in other.stderr


@pytest.mark.slow
def test_api_repeats_are_k_requests_cached_apart(run_cli: Run, tmp_path: Path) -> None:
    from packetbench.benchmark.harness.stub import StubServer

    env = {KEYS["openai"]: "test-key-0123456789", "PACKETBENCH_CACHE": str(tmp_path / "cache")}
    with StubServer("openai", PACKETS / "N1-000001", keep_bodies=True) as stub:
        base = [
            "extract",
            "--packets",
            PACKET,
            "--provider",
            "openai",
            "--model",
            "stub-model",
            "--base-url",
            stub.base_url,
            "--doc-types",
            "acord_125,sov",
            "--repeats",
            "3",
        ]
        first = tmp_path / "first"
        _ok(run_cli(*base, "--out", str(first), env=env))
        documents = ["N1-000001/acord_125", "N1-000001/sov_excel", "N1-000001/sov_pdf"]
        # every document asked three times: no repeat answered from another repeat's entry
        assert dict(stub.requests) == dict.fromkeys(documents, 3), stub.requests
        for index in (1, 2, 3):
            folder = first / "repeats" / f"r{index}"
            assert sorted(records(folder)) == documents
            assert all(r["status"] == "ok" for r in records(folder).values())
        # the same run again elsewhere is answered from the cache, each repeat from its own
        again = tmp_path / "again"
        _ok(run_cli(*base, "--out", str(again), env=env))
        assert dict(stub.requests) == dict.fromkeys(documents, 3)
        assert sum(1 for p in (tmp_path / "cache").rglob("*.json")) == 9
        # and continuing a complete one asks nothing
        _ok(run_cli(*base, "--out", str(first), "--resume", env=env))
        assert dict(stub.requests) == dict.fromkeys(documents, 3)
        # a sampling seed is one per repeat: derived, so the three draws are not one
        seeded = tmp_path / "seeded"
        _ok(run_cli(*base, "--out", str(seeded), "--sampling-seed", "7", env=env))
        sent = [body["seed"] for body in stub.bodies["N1-000001/acord_125"][3:]]
    assert sent[0] == 7 and len(set(sent)) == 3
    recorded = [
        json.loads((seeded / "repeats" / f"r{i}" / "run.json").read_text())["parameters"][
            "sampling"
        ]["seed"]
        for i in (1, 2, 3)
    ]
    assert recorded == sent
    info: dict[str, Any] = json.loads((seeded / "run.json").read_text())
    assert [r["parameters"]["sampling"]["seed"] for r in info["repeats"]["runs"]] == sent
