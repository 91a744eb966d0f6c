"""A disk that fills up under `report --force`, `view --out` and `verify`, and a standard
output that cannot be written (`> /dev/full`, a reader gone): one line naming what could not
be written, exit 1, no traceback, and nothing half written left as if whole (the earlier
report stays whole: never its Markdown of one run beside its HTML of another).

The disk is a small tmpfs mounted in a user and mount namespace of its own (`unshare -rm`),
so the writes really fail with ENOSPC; those tests skip where namespaces are not allowed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.disks import namespaces as _namespaces
from tests.support.paths import PACKETS, cli_path

small_disk = pytest.mark.skipif(not _namespaces(), reason="no user and mount namespaces")


def _scored(root: Path, packets: Path, name: str, profile: str, seed: int) -> Path:
    extract(SimProvider(profile, seed), packets, root / name)
    score_run(root / name, packets)
    load_run(root / name, packets)
    return root / name


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(packets, a scored sim run of the canonical N1 packet)."""
    root = tmp_path_factory.mktemp("full")
    packets = root / "packets"
    packets.mkdir()
    shutil.copytree(PACKETS / "N1-000001", packets / "N1-000001")
    return packets, _scored(root, packets, "a", "typical", 1)


@pytest.fixture(scope="module")
def runs(
    run: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path, Path]:
    """(packets, run A, run B): two scored sim runs of the canonical N1 packet."""
    packets, a = run
    return packets, a, _scored(tmp_path_factory.mktemp("full-b"), packets, "b", "sloppy", 2)


def _size_kb(folder: Path) -> int:
    used = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) // 1024
    return used + sum(1 for _ in folder.rglob("*")) * 4  # tmpfs takes a page per small file


def _on_small_disk(tmp_path: Path, copy: dict[str, Path], command: str, free_kb: int) -> str:
    """Run `command` ({disk} for the disk) on a tmpfs holding `copy` (name -> source) with
    `free_kb` KiB free; then copy the disk back to tmp_path/after. Returns the script."""
    disk = tmp_path / "disk"
    disk.mkdir()
    size = sum(_size_kb(source) for source in copy.values()) + free_kb
    copies = "".join(f" && cp -r {source} {disk}/{name}" for name, source in copy.items())
    return (
        f"mount -t tmpfs -o size={size}k tmpfs {disk}{copies} && "
        f"{command.format(disk=disk, cli=cli_path())}; code=$?; "
        f"cp -r {disk} {tmp_path}/after; exit $code"
    )


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, check=False
    )


def _one_line(done: subprocess.CompletedProcess[str], names: str) -> None:
    assert done.returncode == 1, (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"packetbench: error: {names}") and "No space left" in line, line


@small_disk
@pytest.mark.slow
def test_report_force_on_a_full_disk_leaves_the_earlier_report_whole(
    runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    _, a, b = runs
    earlier = tmp_path / "earlier"
    done = subprocess.run(
        [cli_path(), "report", str(a), "--out", str(earlier)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    html = (earlier / "report.html").stat().st_size // 1024
    # room for the new Markdown, not for the new HTML beside it
    script = _on_small_disk(
        tmp_path,
        {"rep": earlier},
        f"{{cli}} report {b} --out {{disk}}/rep --force",
        html // 2 + 24,
    )
    done = _run(script)
    _one_line(done, str(tmp_path / "disk" / "rep"))
    after = tmp_path / "after" / "rep"
    for name in ("report.md", "report.html"):
        assert (after / name).read_bytes() == (earlier / name).read_bytes(), name
    assert sorted(p.name for p in after.iterdir()) == ["report.html", "report.md"]


@small_disk
@pytest.mark.slow
def test_view_out_on_a_full_disk_leaves_nothing(run: tuple[Path, Path], tmp_path: Path) -> None:
    packets, a = run
    script = _on_small_disk(
        tmp_path,
        {},
        f"{{cli}} view {a} --packets {packets} --out {{disk}}/site --cache {tmp_path}/cache",
        200,
    )
    done = _run(script)
    _one_line(done, str(tmp_path / "disk" / "site"))
    assert list((tmp_path / "after").iterdir()) == []


@small_disk
@pytest.mark.slow
def test_verify_on_a_full_disk_is_one_line(run: tuple[Path, Path], tmp_path: Path) -> None:
    packets, a = run
    script = _on_small_disk(
        tmp_path, {"run": a}, f"{{cli}} verify {{disk}}/run --packets {packets}", 40
    )
    done = _run(script)
    _one_line(done, str(tmp_path / "disk" / "run"))


@pytest.mark.parametrize("command", ["sql", "difficulty", "patterns", "plan"])
@pytest.mark.slow
def test_a_full_standard_output_is_one_line(
    run: tuple[Path, Path], command: str, tmp_path: Path
) -> None:
    """`> /dev/full`: the write of what the command prints fails with ENOSPC."""
    packets, a = run
    args = {
        "sql": ["sql", str(a), "SELECT * FROM claims"],
        # no page read by OCR: what is printed does not matter here, only that it fails
        "difficulty": ["difficulty", "--packets", str(packets), "--ocr-sample", "0"],
        "patterns": ["patterns"],
        "plan": ["plan", str(a), "--effect", "0.05"],
    }[command]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [cli_path(), *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp_path
        )
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        "packetbench: error: standard output: cannot write (No space left on device)"
    ], done.stderr


def test_a_reader_gone_ends_silently_with_sigpipes_status(run: tuple[Path, Path]) -> None:
    """`packetbench sql RUN ... | head -1` whose reader is gone before the table is printed
    (the read end closed at once): the write fails with EPIPE; the reader has what it wanted,
    so nothing is said and no traceback is printed, and the status is a SIGPIPE death's
    (141) so a pipeline under `set -o pipefail` still sees the cut."""
    _, a = run
    process = subprocess.Popen(
        [cli_path(), "sql", str(a), "--format", "csv", "SELECT * FROM claims"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    stderr = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=60) == 141, stderr
    assert stderr == "", stderr
