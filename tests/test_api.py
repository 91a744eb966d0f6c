"""docs/api.md tells the truth: its example runs as written on a packet and a scored run, and
the API refuses a bad file in one line naming it."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from packetbench import api
from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from packetbench.core.errors import BadInput
from tests.support.paths import PACKETS, ROOT

PAGE = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE, re.S)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder as the page's example expects: packets/N1-000001 and the scored run
    runs/sim-typical of it."""
    root = tmp_path_factory.mktemp("api")
    packets = root / "packets"
    shutil.copytree(PACKETS / "N1-000001", packets / "N1-000001")
    run = root / "runs" / "sim-typical"
    extract(SimProvider("typical", 0), packets, run)
    score_run(run, packets)
    load_run(run, packets)
    return root


def test_the_example_runs_as_written(workdir: Path) -> None:
    (example,) = _blocks("python")
    printed = io.StringIO()
    here = Path.cwd()
    os.chdir(workdir)
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(example, "docs/api.md", "exec"), {})
    finally:
        os.chdir(here)
    lines = printed.getvalue().splitlines()
    assert lines[0].startswith("N1-000001 N1 1 ")
    assert lines[2].startswith("sim sim-typical complete ")
    assert lines[3].startswith("numbers hallucinated: 0.")


def test_the_schema_command_prints_every_table() -> None:
    (command,) = [b.strip() for b in _blocks("bash")]
    printed = subprocess.run(
        [sys.executable, "-c", command.split('"')[1]], capture_output=True, text=True, check=True
    ).stdout
    for table in ("runs", "documents", "fields", "claims", "patterns", "judge_labels"):
        assert f"CREATE TABLE {table} (" in printed


def test_a_bad_file_is_one_line_naming_it(workdir: Path, tmp_path: Path) -> None:
    with pytest.raises(BadInput, match=r"packet_truth\.json: missing"):
        api.load_packet(tmp_path)
    copy = Path(shutil.copytree(workdir / "runs" / "sim-typical", tmp_path / "run"))
    (copy / "run.json").write_text('{"run_id": "x"}')
    with pytest.raises(BadInput) as caught:
        api.read_run(copy)
    assert (
        str(caught.value) == f"{copy / 'run.json'}: not a run's record (provider: Field required)"
    )
    with pytest.raises(BadInput, match=r"results\.duckdb: missing"):
        api.open_results(tmp_path)
