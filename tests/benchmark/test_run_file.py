"""run.json is a file format of its own: one typed record (`runs.RunInfo`), written
with its format version by every writer and read through one reader, which refuses in one
line a key it does not know, a newer version, or a value of the wrong type."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.config import HarnessOptions, repeat_seed
from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.repeats import extract_repeats
from packetbench.benchmark.runs import FORMAT_VERSION, RunInfo, read_run, write_run
from packetbench.core.errors import BadInput
from tests.support.paths import PACKETS

Cli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The canonical N1 packet, a sim run of it, and a repeated run (two repeats)."""
    root = tmp_path_factory.mktemp("runfile")
    packets = root / "packets"
    shutil.copytree(PACKETS / "N1-000001", packets / "N1-000001")
    extract(SimProvider("typical", 1), packets, root / "run")
    extract_repeats(
        lambda i: SimProvider("typical", repeat_seed(1, i)),
        packets,
        root / "reps",
        2,
        False,
        HarnessOptions(),
    )
    return packets, root / "run", root / "reps"


def test_every_writer_records_the_format_version(made: tuple[Path, Path, Path]) -> None:
    _, run, reps = made
    for folder in (run, reps, reps / "repeats" / "r1", reps / "repeats" / "r2"):
        data = json.loads((folder / "run.json").read_text())
        assert data["format_version"] == FORMAT_VERSION
        assert next(iter(data)) == "format_version"
    info = read_run(run)
    assert info.provider == "sim" and info.simulator and info.status == "complete"
    assert info.documents is not None and info.documents.written == info.documents.expected
    assert info.packets is not None and info.packets[0].packet_id == "N1-000001"


def test_what_is_read_is_what_was_written(made: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """A record read and written again is the same bytes: nothing is lost or added."""
    _, run, reps = made
    for folder in (run, reps):
        copy = tmp_path / folder.name
        shutil.copytree(folder, copy)
        write_run(copy, read_run(folder, repeats=True))
        assert (copy / "run.json").read_bytes() == (folder / "run.json").read_bytes()


def test_a_run_json_of_before_the_format_number_reads_as_version_1(
    made: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    _, run, _ = made
    copy = Path(shutil.copytree(run, tmp_path / "old"))
    data = json.loads((copy / "run.json").read_text())
    del data["format_version"]
    (copy / "run.json").write_text(json.dumps(data))
    assert read_run(copy).to_json() == read_run(run).to_json()


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: d.update(surprise=1), "not a run's record (surprise: Extra inputs"),
        (lambda d: d.update(format_version=FORMAT_VERSION + 1), "written by a newer packetbench"),
        (lambda d: d.update(format_version="1"), "not a run's record (format_version '1')"),
        (lambda d: d.update(status="finished"), "not a run's record (status: Input should be"),
        (lambda d: d["documents"].update(written="all"), "(documents.written: Input should be"),
        (lambda d: d["packets"][0].pop("packet_id"), "(packets.0.packet_id: Field required)"),
    ],
    ids=["unknown key", "newer version", "version text", "status", "count", "packet id"],
)
def test_a_damaged_run_json_is_refused_in_one_line(
    made: tuple[Path, Path, Path],
    tmp_path: Path,
    run_cli: Cli,
    change: Callable[[dict[str, object]], None],
    needle: str,
) -> None:
    packets, run, _ = made
    copy = Path(shutil.copytree(run, tmp_path / "run"))
    data = json.loads((copy / "run.json").read_text())
    change(data)
    (copy / "run.json").write_text(json.dumps(data))
    with pytest.raises(BadInput, match=r"run\.json: ") as caught:
        read_run(copy)
    assert needle in str(caught.value)
    result = run_cli("score", str(copy), "--packets", str(packets))
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"packetbench: error: {copy / 'run.json'}: ") and needle in line


def test_the_configuration_leaves_out_the_packets_and_the_format(
    made: tuple[Path, Path, Path],
) -> None:
    info = read_run(made[1])
    shown = info.configuration()
    assert "packets" not in shown and "format_version" not in shown
    assert shown["parameters"] == {"profile": "typical", "seed": 1}
    assert RunInfo.model_validate(info.to_json()) == info
