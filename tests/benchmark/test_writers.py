"""Nothing lost to a second writer or a --force: real commands as subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.results.schema import SCHEMA_VERSION
from tests.support.paths import PACKETS, cli_path

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = str(PACKETS / "N1-000001")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _paid_looking_run(folder: Path) -> None:
    """A run folder as an API run leaves it: run.json, records, scores, a database."""
    (folder / "extractions" / "N1-000001").mkdir(parents=True)
    (folder / "run.json").write_text('{"provider": "openai", "model": "gpt-5-mini"}')
    (folder / "extractions" / "N1-000001" / "sov_pdf.json").write_text('{"paid": 12.5}')
    (folder / "scores").mkdir()
    (folder / "scores" / "field_breakdown.json").write_text("{}")
    (folder / "results.duckdb").write_bytes(b"\x00paid results")


def _together(*commands: list[str]) -> list[subprocess.CompletedProcess[str]]:
    """Start every command at once and wait for all of them."""
    started = [
        subprocess.Popen(
            [cli_path(), *c], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for c in commands
    ]
    results = []
    for process, command in zip(started, commands, strict=True):
        out, err = process.communicate(timeout=600)
        results.append(subprocess.CompletedProcess(command, process.returncode, out, err))
    return results


def _one_wins(results: list[subprocess.CompletedProcess[str]], folder: Path, verb: str) -> int:
    """Exactly one of `results` exited 0; the other exited 2 with one line naming the holder.
    Returns the index of the winner."""
    codes = sorted(r.returncode for r in results)
    assert codes == [0, 2], [(r.returncode, r.stderr) for r in results]
    winner = next(i for i, r in enumerate(results) if r.returncode == 0)
    loser = results[1 - winner]
    lines = loser.stderr.strip().splitlines()
    assert len(lines) == 1, loser.stderr
    assert lines[0].startswith(f"packetbench: error: {folder}: is being written by pid "), lines
    assert f"(packetbench {verb} " in lines[0] and " since " in lines[0], lines
    return winner


@pytest.mark.slow
def test_run_force_leaves_a_paid_run_beside_it_byte_identical(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    args = ("run", "--tiers", "N1", "--out", str(out))
    assert run_cli(*args).returncode == 0
    paid = out / "runs" / "gpt-5-mini"
    _paid_looking_run(paid)
    before = _snapshot(paid)
    forced = run_cli(*args, "--force")
    assert forced.returncode == 0, forced.stderr
    assert _snapshot(paid) == before
    assert (out / "runs" / "sim-typical" / "results.duckdb").is_file()


@pytest.mark.slow
def test_generate_force_replaces_only_the_packets_it_writes(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "packets"
    made = run_cli("generate", "--tiers", "N1", "--count", "2", "--out", str(out))
    assert made.returncode == 0, made.stderr
    (out / "notes.txt").write_text("mine")
    kept = _snapshot(out / "N1-000002")
    forced = run_cli(
        "generate", "--tiers", "N1", "--out", str(out), "--force", "--set", "sov.max_rows=2"
    )
    assert forced.returncode == 0, forced.stderr
    assert (out / "notes.txt").read_text() == "mine"
    assert _snapshot(out / "N1-000002") == kept
    knobs = json.loads((out / "N1-000001" / "manifest_sov_pdf.json").read_text())["knobs"]
    assert knobs["sov.max_rows"] == 2
    corpus = json.loads((out / "corpus.json").read_text())
    assert [e["packet_id"] for e in corpus["entries"]] == ["N1-000001", "N1-000002"]


@pytest.mark.slow
def test_extract_force_keeps_files_it_did_not_write(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert run_cli("extract", "--packets", PACKET, "--out", str(run)).returncode == 0
    (run / "notes.json").write_text('{"mine": true}')
    forced = run_cli(
        "extract", "--packets", PACKET, "--out", str(run), "--force", "--profile", "perfect"
    )
    assert forced.returncode == 0, forced.stderr
    assert (run / "notes.json").read_text() == '{"mine": true}'
    assert json.loads((run / "run.json").read_text())["model"] == "sim-perfect"


@pytest.mark.slow
def test_extract_resume_of_a_scored_run_keeps_its_scores(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert run_cli("extract", "--packets", PACKET, "--out", str(run)).returncode == 0
    assert run_cli("score", str(run), "--packets", PACKET).returncode == 0
    scored = _snapshot(run)
    resumed = run_cli("extract", "--packets", PACKET, "--out", str(run), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    after = _snapshot(run)
    assert {k: v for k, v in after.items() if k != "run.json"} == {
        k: v for k, v in scored.items() if k != "run.json"
    }
    assert run_cli("sql", str(run), "SELECT count(*) FROM claims").returncode == 0


@pytest.mark.slow
def test_extract_resume_drops_scores_only_of_records_it_changed(
    run_cli: Run, tmp_path: Path
) -> None:
    """A resume that writes again a record that was lost, the same bytes, keeps the scores
    (they are of those records); one that writes records other than those scored removes
    the scores, and scoring again gives the scores of the records."""
    run = tmp_path / "run"
    assert run_cli("extract", "--packets", PACKET, "--out", str(run)).returncode == 0
    assert run_cli("score", str(run), "--packets", PACKET).returncode == 0
    scored = _snapshot(run)
    record = run / "extractions" / "N1-000001" / "sov_pdf.json"
    record.unlink()
    resumed = run_cli("extract", "--packets", PACKET, "--out", str(run), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert {k: v for k, v in _snapshot(run).items() if k != "run.json"} == {
        k: v for k, v in scored.items() if k != "run.json"
    }
    # scored from an edited record: the resume writes the simulator's record back
    data = json.loads(record.read_text())
    data["output"] = None
    record.write_text(json.dumps(data))
    assert run_cli("score", str(run), "--packets", PACKET).returncode == 0
    resumed = run_cli("extract", "--packets", PACKET, "--out", str(run), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert not (run / "scores").exists() and not (run / "results.duckdb").exists()
    assert run_cli("score", str(run), "--packets", PACKET).returncode == 0
    assert _snapshot(run / "scores") == {
        k.removeprefix("scores/"): v for k, v in scored.items() if k.startswith("scores/")
    }


@pytest.mark.slow
def test_readers_refuse_a_database_whose_records_changed(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert run_cli("extract", "--packets", PACKET, "--out", str(run)).returncode == 0
    assert run_cli("score", str(run), "--packets", PACKET).returncode == 0
    record = run / "extractions" / "N1-000001" / "sov_pdf.json"
    data = json.loads(record.read_text())
    data["output"] = None
    record.write_text(json.dumps(data))
    database = run / "results.duckdb"
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\nmetric = "halluc_numbers"\nmax = 1.0\n')
    for args in (
        ("sql", str(run), "SELECT count(*) FROM claims"),
        ("report", str(run), "--out", str(tmp_path / "report")),
        ("gate", str(run), "--rules", str(rules)),
    ):
        result = run_cli(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert result.stderr.strip() == (
            f"packetbench: error: {database}: the run's extraction records changed since it "
            "was scored; score the run again"
        ), args
    assert run_cli("score", str(run), "--packets", PACKET).returncode == 0
    assert run_cli("sql", str(run), "SELECT count(*) FROM claims").returncode == 0
    # a database of the schema before the records digest (4) is refused as another version's
    import duckdb

    with duckdb.connect(str(database)) as con:
        con.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
        con.execute("DELETE FROM meta WHERE key = 'records'")
    old = run_cli("sql", str(run), "SELECT count(*) FROM claims")
    assert old.returncode == 2
    assert old.stderr.strip() == (
        f"packetbench: error: {database}: written by another packetbench version (results "
        f"schema 4, expected {SCHEMA_VERSION}); score the run again"
    )


@pytest.mark.slow
def test_two_generates_of_one_folder_one_wins(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "packets"
    base = ["generate", "--tiers", "N1", "--seed", "1", "--count", "2", "--out", str(out)]
    results = _together([*base, "--set", "sov.max_rows=2"], [*base, "--set", "sov.max_rows=3"])
    winner = _one_wins(results, out, "generate")
    printed = results[winner].stdout.strip().splitlines()[-1]
    digest = json.loads((out / "corpus.json").read_text())["digest"]
    assert printed.endswith(f"digest {digest}")
    knobs = json.loads((out / "N1-000001" / "manifest_sov_pdf.json").read_text())["knobs"]
    assert knobs["sov.max_rows"] == (2, 3)[winner]
    assert not (out / ".packetbench.lock").exists()


@pytest.mark.slow
def test_two_extracts_of_one_run_one_wins(tmp_path: Path) -> None:
    run = tmp_path / "run"
    base = ["extract", "--packets", str(PACKETS), "--out", str(run)]
    results = _together([*base, "--profile", "perfect"], [*base, "--profile", "sloppy"])
    winner = _one_wins(results, run, "extract")
    info = json.loads((run / "run.json").read_text())
    assert info["model"] == ("sim-perfect", "sim-sloppy")[winner]
    assert info["status"] == "complete"
    # every record is the winner's: the same bytes as the winner's command run alone
    alone = tmp_path / "alone"
    profile = ("perfect", "sloppy")[winner]
    done = subprocess.run(
        [cli_path(), *base[:-1], str(alone), "--profile", profile],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _snapshot(run / "extractions") == _snapshot(alone / "extractions")


@pytest.mark.slow
def test_two_scores_of_one_run_one_wins(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert run_cli("extract", "--packets", str(PACKETS), "--out", str(run)).returncode == 0
    base = ["score", str(run), "--packets", str(PACKETS)]
    results = _together(base, [*base, "--claims-jsonl"])
    winner = _one_wins(results, run, "score")
    assert (run / "scores" / "claims.jsonl").exists() == (winner == 1)
    assert run_cli("sql", str(run), "SELECT count(*) FROM claims").returncode == 0


@pytest.mark.slow
def test_two_runs_into_one_folder_one_wins(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    base = ["run", "--tiers", "N1", "--out", str(out)]
    results = _together([*base, "--profile", "perfect"], [*base, "--profile", "sloppy"])
    winner = _one_wins(results, out, "run")
    runs = sorted(p.name for p in (out / "runs").iterdir())
    assert runs == [("sim-perfect", "sim-sloppy")[winner]]
    report = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert runs[0] in report


def test_a_lock_left_by_a_dead_writer_is_taken_over(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / ".packetbench.lock").write_text(
        json.dumps({"pid": 999999, "host": os.uname().nodename, "command": "x", "since": "1"})
    )
    result = run_cli("extract", "--packets", PACKET, "--out", str(run))
    assert result.returncode == 0, result.stderr
    assert not (run / ".packetbench.lock").exists()


@pytest.mark.slow
def test_a_record_holding_infinity_or_nan_is_scored_as_invented(
    run_cli: Run, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    assert (
        run_cli(
            "extract", "--packets", PACKET, "--out", str(run), "--profile", "perfect"
        ).returncode
        == 0
    )
    record = run / "extractions" / "N1-000001" / "sov_pdf.json"
    building = json.loads(record.read_text())["output"]["buildings"][0]
    text = record.read_text()
    for key, sent in (("year_built", "Infinity"), ("stories", "NaN"), ("square_feet", '"1e999"')):
        old = f'"{key}": {json.dumps(building[key])}'
        assert old in text
        text = text.replace(old, f'"{key}": {sent}', 1)
    record.write_text(text)
    scored = run_cli("score", str(run), "--packets", PACKET)
    assert scored.returncode == 0, scored.stderr
    assert "excluded: none" in scored.stdout
    result = run_cli(
        "sql",
        str(run),
        "SELECT path, verdict, hallucinated FROM claims WHERE doc_id = 'sov_pdf' AND path IN "
        "('buildings[0].year_built', 'buildings[0].stories', 'buildings[0].square_feet') "
        "ORDER BY path",
        "--format",
        "csv",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1:] == [
        "buildings[0].square_feet,contradicted,True",
        "buildings[0].stories,contradicted,True",
        "buildings[0].year_built,contradicted,True",
    ]
