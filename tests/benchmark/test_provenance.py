"""A run records what it was extracted from, and nothing scores, reports or compares it
against anything else: same packet ids with other contents are refused, naming the file."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.harness.stub import StubServer
from packetbench.generator.generation import generate
from tests.support.errors import error_message as _error

Run = Callable[..., subprocess.CompletedProcess[str]]
KINDS = ("document_truth", "field_truth", "manifest", "rendered_universe")


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): _sha(p) for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two folders holding packet N1-000001: the preset's, and one with smaller tables."""
    root = tmp_path_factory.mktemp("twins")
    generate("N1", 1, 1, root / "a")
    generate("N1", 1, 1, root / "b", overrides={"sov.max_rows": 2, "loss_run.max_claims": 2})
    return root / "a", root / "b"


@pytest.fixture(scope="module")
def runs(
    twins: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory, run_cli: Run
) -> tuple[Path, Path]:
    """A sim run of each twin, each scored against its own packets."""
    root = tmp_path_factory.mktemp("runs")
    made = []
    for packets, name in zip(twins, ("run-a", "run-b"), strict=True):
        run = root / name
        assert run_cli("extract", "--packets", str(packets), "--out", str(run)).returncode == 0
        assert run_cli("score", str(run), "--packets", str(packets)).returncode == 0
        made.append(run)
    return made[0], made[1]


def _copy(run: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(run, tmp_path / run.name))


@pytest.mark.slow
def test_run_json_records_every_hash(runs: tuple[Path, Path], twins: tuple[Path, Path]) -> None:
    info = json.loads((runs[0] / "run.json").read_text())
    [entry] = info["packets"]
    packet = twins[0] / "N1-000001"
    truth = json.loads((packet / "packet_truth.json").read_text())
    assert entry["generator_version"] == truth["generator_version"]
    assert entry["packet_truth_sha256"] == _sha(packet / "packet_truth.json")
    assert list(entry["sha256"]) == entry["documents"] == [d["doc_id"] for d in truth["documents"]]
    for doc in truth["documents"]:
        assert entry["sha256"][doc["doc_id"]] == {
            "file": _sha(packet / doc["file"]),
            **{kind: _sha(packet / f"{kind}_{doc['doc_id']}.json") for kind in KINDS},
        }


@pytest.mark.slow
def test_score_refuses_other_packets_with_the_same_ids(
    runs: tuple[Path, Path], twins: tuple[Path, Path], run_cli: Run, tmp_path: Path
) -> None:
    run = _copy(runs[0], tmp_path)
    before = _tree(run)
    message = _error(run_cli("score", str(run), "--packets", str(twins[1])))
    # acord_125 is the first document (a smaller schedule moves its world: its PDF differs)
    assert message == (
        f"{twins[1] / 'N1-000001' / 'acord_125.pdf'}: not the file "
        f"{run} was extracted from (its sha256 differs); score the run with "
        "the packets it was extracted from"
    )
    assert _tree(run) == before  # the earlier, right scores are untouched


def test_score_names_a_changed_truth_file(
    runs: tuple[Path, Path], twins: tuple[Path, Path], run_cli: Run, tmp_path: Path
) -> None:
    packets = Path(shutil.copytree(twins[0], tmp_path / "packets"))
    path = packets / "N1-000001" / "field_truth_sov_excel.json"
    path.write_bytes(path.read_bytes().replace(b'"kind":"money"', b'"kind":"number"', 1))
    message = _error(run_cli("score", str(runs[0]), "--packets", str(packets)))
    assert message.startswith(f"{path}: not the file {runs[0]} was extracted from")


def test_a_run_without_hashes_is_refused(
    runs: tuple[Path, Path], twins: tuple[Path, Path], run_cli: Run, tmp_path: Path
) -> None:
    run = _copy(runs[0], tmp_path)
    info = json.loads((run / "run.json").read_text())
    for entry in info["packets"]:
        for key in ("sha256", "packet_truth_sha256", "generator_version"):
            entry.pop(key)
    (run / "run.json").write_text(json.dumps(info))
    expected = (
        f"{run / 'run.json'}: records no sha256 of the documents it was extracted "
        "from (written by an older packetbench), so no score of it can be trusted; "
        "extract the run again"
    )
    assert _error(run_cli("score", str(run), "--packets", str(twins[0]))) == expected
    assert _error(run_cli("report", str(run), "--out", str(tmp_path / "r"))) == expected
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
def test_report_refuses_scores_of_other_documents(
    runs: tuple[Path, Path], run_cli: Run, tmp_path: Path
) -> None:
    """run.json no longer lists what results.duckdb was scored against (the run was made
    again and not scored): report, compare, gate and sql refuse it."""
    run = _copy(runs[0], tmp_path)
    info = json.loads((run / "run.json").read_text())
    info["packets"][0]["sha256"]["sov_pdf"]["field_truth"] = "0" * 64
    (run / "run.json").write_text(json.dumps(info))
    expected = (
        f"{run / 'results.duckdb'}: scored against other documents than "
        f"{run / 'run.json'} lists (first N1-000001/sov_pdf); score the run again"
    )
    assert _error(run_cli("report", str(run), "--out", str(tmp_path / "r"))) == expected
    assert _error(run_cli("compare", str(run), str(runs[1]))) == expected
    assert _error(run_cli("sql", str(run), "SELECT 1")) == expected


@pytest.mark.slow
def test_compare_refuses_runs_of_different_packets(
    runs: tuple[Path, Path], run_cli: Run, tmp_path: Path
) -> None:
    message = _error(run_cli("compare", str(runs[0]), str(runs[1]), "--out", str(tmp_path / "c")))
    assert message == (
        f"{runs[1]}: extracted from another N1-000001/acord_125 than "
        f"{runs[0]} (its file differs); only runs of the same documents can "
        "be paired"
    )
    assert not (tmp_path / "c").exists()


def test_extract_refuses_a_document_its_manifest_does_not_describe(
    twins: tuple[Path, Path], run_cli: Run, tmp_path: Path
) -> None:
    packets = Path(shutil.copytree(twins[0], tmp_path / "packets"))
    pdf = packets / "N1-000001" / "sov_pdf.pdf"
    pdf.write_bytes(pdf.read_bytes()[:2000])  # truncated
    message = _error(run_cli("extract", "--packets", str(packets), "--out", str(tmp_path / "run")))
    assert message == (
        f"{pdf}: sha256 differs from its manifest (not the file its truth describes)"
    )
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_an_api_run_records_hashes_and_resumes_only_on_the_same_documents(
    twins: tuple[Path, Path], run_cli: Run, tmp_path: Path
) -> None:
    key = {"OPENAI_API_KEY": "provenance-test-key-0001"}
    with StubServer("openai", twins[0]) as server:
        args = [
            "extract",
            "--provider",
            "openai",
            "--model",
            "stub-model",
            "--base-url",
            server.base_url,
            "--no-cache",
            "--out",
            str(tmp_path / "run"),
        ]
        result = run_cli(*args, "--packets", str(twins[0]), env=key)
        assert result.returncode == 0, result.stderr
        recorded = json.loads((tmp_path / "run" / "run.json").read_text())["packets"]
        assert recorded[0]["sha256"]["sov_pdf"]["file"] == _sha(
            twins[0] / "N1-000001" / "sov_pdf.pdf"
        )
        before = _tree(tmp_path / "run")
        message = _error(run_cli(*args, "--packets", str(twins[1]), "--resume", env=key))
    assert message == (
        f"{twins[1] / 'N1-000001' / 'acord_125.pdf'}: not the "
        f"file {tmp_path / 'run'} was extracted from (its sha256 differs); "
        "continue the run with the packets it was extracted from"
    )
    assert _tree(tmp_path / "run") == before
