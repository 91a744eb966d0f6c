"""`packetbench extract` and `packetbench score` as a user runs them."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.generator.doctypes.base import DOC_TYPES
from tests.support.errors import one_line_error as _error
from tests.support.files import read_json
from tests.support.paths import PACKETS

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.slow
def test_extract_then_score(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    packet = PACKETS / "N1-000001"
    result = run_cli(
        "extract",
        "--provider",
        "sim",
        "--profile",
        "typical",
        "--seed",
        "3",
        "--packets",
        str(packet),
        "--out",
        str(run),
    )
    assert result.returncode == 0, result.stderr
    documents = read_json(packet / "packet_truth.json")["documents"]
    total = len(documents)
    assert f"{total} of {total} documents written" in result.stdout
    assert "SIMULATED" in result.stdout
    info = json.loads((run / "run.json").read_text())
    assert info["provider"] == "sim" and info["simulator"] is True
    assert info["status"] == "complete" and "not a model" in info["label"]
    assert info["packets"][0]["packet_id"] == "N1-000001"
    # Every schema the toolkit has is recorded with its hash, the packet's among them.
    assert set(info["schemas"]) == set(DOC_TYPES) >= {d["schema"] for d in documents}
    record = json.loads((run / "extractions" / "N1-000001" / "sov_pdf.json").read_text())
    assert list(record) == [
        "packet_id",
        "doc_id",
        "doc_type",
        "status",
        "output",
        "raw_text",
        "attempts",
        "latency_s",
        "usage",
        "finish_reason",
        "error",
    ]
    assert (run / "sim_injections.json").exists()
    scored = run_cli("score", str(run), "--packets", str(packet))
    assert scored.returncode == 0, scored.stderr
    assert f"{total} documents scored" in scored.stdout
    assert {p.name for p in (run / "scores").iterdir()} == {
        "claims.parquet",
        "consistency.json",
        "documents.parquet",
        "field_breakdown.json",
        "fields.parquet",
        "hallucination.json",
    }


@pytest.mark.slow
def test_extract_twice_is_byte_identical(run_cli: Run, tmp_path: Path) -> None:
    files = []
    for name in ("a", "b"):
        run = tmp_path / name
        assert (
            run_cli(
                "extract",
                "--packets",
                str(PACKETS / "N2-000001"),
                "--out",
                str(run),
                "--profile",
                "sloppy",
                "--seed",
                "9",
            ).returncode
            == 0
        )
        files.append(
            {
                p.relative_to(run).as_posix(): p.read_bytes()
                for p in sorted(run.rglob("*.json"))
                if p.name != "run.json"
            }
        )
    assert files[0] == files[1]


@pytest.mark.slow
def test_bad_input_is_one_line_and_exit_2(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "run"
    _error(
        run_cli("extract", "--provider", "gpt-9", "--packets", str(PACKETS), "--out", str(out)),
        "unknown provider 'gpt-9'",
        "sim",
    )
    _error(
        run_cli("extract", "--profile", "careless", "--packets", str(PACKETS), "--out", str(out)),
        "unknown sim profile 'careless'",
    )
    _error(
        run_cli("extract", "--packets", str(tmp_path / "nowhere"), "--out", str(out)),
        "nowhere: not a folder",
    )
    _error(run_cli("extract", "--packets", str(tmp_path), "--out", str(out)), "holds no packets")
    _error(
        run_cli("score", str(tmp_path), "--packets", str(PACKETS)),
        "run.json: missing (not a run folder)",
    )


@pytest.mark.slow
def test_existing_run_is_refused_and_untouched(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    packet = str(PACKETS / "N1-000001")
    assert run_cli("extract", "--packets", packet, "--out", str(run)).returncode == 0
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    _error(run_cli("extract", "--packets", packet, "--out", str(run)), "already exists", "--force")
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before
    assert (
        run_cli(
            "extract", "--packets", packet, "--out", str(run), "--force", "--profile", "perfect"
        ).returncode
        == 0
    )
    assert json.loads((run / "run.json").read_text())["model"] == "sim-perfect"


@pytest.mark.slow
def test_corrupt_record_names_the_file(run_cli: Run, tmp_path: Path) -> None:
    run = tmp_path / "run"
    packet = str(PACKETS / "N1-000001")
    assert run_cli("extract", "--packets", packet, "--out", str(run)).returncode == 0
    record = run / "extractions" / "N1-000001" / "acord_140.json"
    record.write_text("{not json")
    _error(run_cli("score", str(run), "--packets", packet), str(record), "not an extraction record")


def test_extract_counts_the_failures_score_leaves_out(run_cli: Run, tmp_path: Path) -> None:
    """The simulator writes a schema-breaking answer as an ok record (as a loose model's answer
    would read); `extract`'s last line counts it as invalid, as `score` excludes it: the two
    commands name the same documents failed (of these three, the simulator breaks the ACORD 131's
    schema and fails the declarations page)."""
    run = tmp_path / "run"
    packet = PACKETS / "N5-000001"
    extracted = run_cli(
        "extract", "--profile", "sloppy", "--sim-seed", "1", "--packets", str(packet),
        "--out", str(run), "--doc-types", "acord_131,dec_page,acord_25",
    )  # fmt: skip
    assert extracted.returncode == 0, extracted.stderr
    scored = run_cli("score", str(run), "--packets", str(packet))
    assert scored.returncode == 0, scored.stderr
    failed = extracted.stdout.splitlines()[-1]
    excluded = scored.stdout.splitlines()[-1].split("excluded: ", 1)[1]
    assert failed.startswith(f"2 of 3 documents failed [{excluded}]:"), (failed, excluded)
    assert excluded == "1 error, 1 invalid"
