"""One policy for existing outputs: every command refuses to replace them without --force
(exit 2, one line, nothing changed), and nothing writes into a folder that is not its own."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.errors import error_message as _error
from tests.support.files import tree_digests as _tree
from tests.support.paths import PACKETS
from tests.support.runs import ScoredRun

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.slow
def test_report_refuses_an_existing_report_without_force(
    scored_run: ScoredRun, run_cli: Run, tmp_path: Path
) -> None:
    run, out = scored_run("typical", 1), tmp_path / "report"
    assert run_cli("report", str(run), "--out", str(out)).returncode == 0
    (out / "report.md").write_text("edited by hand")
    before = _tree(out)
    assert _error(run_cli("report", str(run), "--out", str(out))) == (
        f"{out / 'report.md'}: already exists (use --force to replace it)"
    )
    assert _tree(out) == before
    assert run_cli("report", str(run), "--out", str(out), "--force").returncode == 0
    assert (out / "report.md").read_text().startswith("# packetbench report")


@pytest.mark.slow
def test_compare_refuses_an_existing_comparison_without_force(
    scored_run: ScoredRun, run_cli: Run, tmp_path: Path
) -> None:
    runs = [str(scored_run("typical", 1)), str(scored_run("sloppy", 2))]
    out = tmp_path / "comparison"
    assert run_cli("compare", *runs, "--out", str(out)).returncode == 0
    before = _tree(out)
    assert _error(run_cli("compare", *runs, "--out", str(out))) == (
        f"{out / 'paired_stats.json'}: already exists (use --force to replace it)"
    )
    assert _tree(out) == before
    assert run_cli("compare", *runs, "--out", str(out), "--force").returncode == 0


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_folder_where_the_report_belongs_is_refused(
    scored_run: ScoredRun, run_cli: Run, tmp_path: Path, force: list[str]
) -> None:
    (tmp_path / "report.html").mkdir()
    (tmp_path / "report.html" / "keep.txt").write_text("mine")
    before = _tree(tmp_path)
    assert _error(
        run_cli("report", str(scored_run("typical", 1)), "--out", str(tmp_path), *force)
    ) == (f"{tmp_path / 'report.html'}: is a folder, not a report (move it away first)")
    assert _tree(tmp_path) == before


@pytest.mark.slow
def test_extract_and_run_refuse_a_folder_that_is_not_theirs(run_cli: Run, tmp_path: Path) -> None:
    packets = Path(shutil.copytree(PACKETS / "N1-000001", tmp_path / "packets" / "N1-000001"))
    before = _tree(tmp_path)
    for force in ([], ["--force"]):
        assert _error(
            run_cli(
                "extract", "--packets", str(packets), "--out", str(tmp_path / "packets"), *force
            )
        ) == (
            f"{tmp_path / 'packets'}: not a run folder (it holds N1-000001 and no run.json); "
            "write the run into a new or empty folder"
        )
        assert _error(
            run_cli("run", "--out", str(tmp_path / "packets"), "--tiers", "N1", *force)
        ) == (
            f"{tmp_path / 'packets'}: not a folder packetbench run made (it holds N1-000001); "
            "write the run into a new or empty folder"
        )
    assert _tree(tmp_path) == before


@pytest.mark.slow
def test_extract_force_leaves_nothing_of_the_replaced_run(
    scored_run: ScoredRun, run_cli: Run, tmp_path: Path
) -> None:
    run = Path(shutil.copytree(scored_run("typical", 1), tmp_path / "run"))
    (run / "requests.jsonl").write_text('{"from": "an earlier API run"}\n')
    assert (run / "results.duckdb").is_file()
    assert (
        run_cli(
            "extract", "--packets", str(PACKETS / "N1-000001"), "--out", str(run), "--force"
        ).returncode
        == 0
    )
    assert sorted(p.name for p in run.iterdir()) == [
        "extractions",
        "run.json",
        "sim_injections.json",
    ]
