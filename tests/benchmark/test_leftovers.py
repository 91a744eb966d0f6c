"""Nothing left behind: files honour the umask, and a killed `score` leaves no debris that the
next run does not remove."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.paths import PACKETS, cli_path
from tests.support.processes import wait_until_gone
from tests.support.small_runs import small_run

Run = Callable[..., subprocess.CompletedProcess[str]]


def _cli(*args: str, umask: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [cli_path(), *args], capture_output=True, text=True, check=False, umask=umask, timeout=600
    )


def _modes(folder: Path) -> dict[str, int]:
    return {
        p.relative_to(folder).as_posix(): stat.S_IMODE(p.stat().st_mode)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.slow
def test_every_written_file_honours_the_umask(tmp_path: Path) -> None:
    umask = 0o002
    bench = tmp_path / "bench"
    result = _cli("run", "--out", str(bench), "--tiers", "N1", "--jobs", "1", umask=umask)
    assert result.returncode == 0, result.stderr
    other = tmp_path / "other"
    packets = bench / "packets"
    for args in (
        ("extract", "--packets", str(packets), "--out", str(other), "--profile", "sloppy"),
        ("score", str(other), "--packets", str(packets)),
        (
            "compare",
            str(bench / "runs" / "sim-typical"),
            str(other),
            "--out",
            str(tmp_path / "comparison"),
        ),
        ("report", str(other), "--out", str(tmp_path / "report")),
    ):
        result = _cli(*args, umask=umask)
        assert result.returncode == 0, (args, result.stderr)
    modes = {
        **_modes(bench),
        **{f"other/{k}": v for k, v in _modes(other).items()},
        "paired_stats.json": _modes(tmp_path / "comparison")["paired_stats.json"],
        "report.html": _modes(tmp_path / "report")["report.html"],
    }
    for name in (
        "audit.json",
        "runs/sim-typical/run.json",
        "report/report.html",
        "other/scores/claims.parquet",
        "other/extractions/N1-000001/sov_pdf.json",
        "other/sim_injections.json",
        "paired_stats.json",
        "report.html",
        "packets/N1-000001/sov_pdf.pdf",
    ):
        assert name in modes, name
    wrong = {name: oct(mode) for name, mode in modes.items() if mode != 0o666 & ~umask}
    assert wrong == {}  # the same 0664 as the packets, never mkstemp's 0600


def test_a_small_run_in_process_honours_the_umask(tmp_path: Path) -> None:
    """The fast tier's check: a sim run of two documents extracted, scored and loaded in
    this process under umask 027 writes every file 0640 (its records, Parquet scores and
    results database: never mkstemp's 0600, never wider than the umask allows), and leaves
    no temporary file behind."""
    umask = 0o027
    previous = os.umask(umask)
    try:
        run = small_run(tmp_path / "run")
    finally:
        os.umask(previous)
    modes = _modes(run)
    assert "run.json" in modes and "scores/claims.parquet" in modes
    assert any(name.startswith("extractions/") for name in modes)
    wrong = {name: oct(mode) for name, mode in modes.items() if mode != 0o666 & ~umask}
    assert wrong == {}
    assert sorted(p.name for p in run.rglob(".*")) == []


@pytest.mark.e2e
def test_kill_9_during_score_leaves_nothing_the_next_score_keeps(
    run_cli: Run, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    assert run_cli("extract", "--packets", str(PACKETS), "--out", str(run)).returncode == 0
    for _attempt in range(5):  # the scratch folder lives for a moment: catch it
        process = subprocess.Popen(
            [cli_path(), "score", str(run), "--packets", str(PACKETS)],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        while process.poll() is None and not list(run.glob(".results-*")):
            time.sleep(0.002)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        assert wait_until_gone(process.pid) == []
        if process.returncode == -signal.SIGKILL and list(run.glob(".results-*")):
            break
    else:
        raise AssertionError("score never got caught with its scratch folder")
    debris = sorted(p.name for p in run.rglob(".*"))
    assert debris, "the kill left nothing to clean up"
    result = run_cli("score", str(run), "--packets", str(PACKETS))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in run.rglob(".*")) == []  # the next run removed it all
    shutil.rmtree(run)


@contextlib.contextmanager
def _dead_and_live() -> Iterator[tuple[int, int]]:
    """The process id of a process that has ended, and of one that runs meanwhile."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    live = subprocess.Popen(["sleep", "30"])
    try:
        yield dead.pid, live.pid
    finally:
        live.kill()
        live.wait()


@pytest.mark.e2e
def test_temporary_files_of_a_killed_writer_are_removed(tmp_path: Path) -> None:
    """A record's temporary file, left by a writer that is gone, goes when the record is
    written again; a live writer's is left alone."""
    from packetbench.core.writing import write_atomic

    with _dead_and_live() as (dead, live):
        stale = tmp_path / f".doc.json.tmp-{dead}-abc123"
        busy = tmp_path / f".doc.json.tmp-{live}-def456"
        stale.write_bytes(b"{half")
        busy.write_bytes(b"{half")
        write_atomic(tmp_path / "doc.json", b"{}")
        assert sorted(p.name for p in tmp_path.iterdir()) == [busy.name, "doc.json"]
    assert os.stat(tmp_path / "doc.json").st_mode & 0o777 != 0o600


def test_the_scratch_of_a_process_that_is_gone_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a run's results makes a scratch folder in the system's temp folder (DuckDB's
    spill: 3 GB for the 1,000-packet run), named after the process. A viewer stopped while
    its overview was still reading left its own there, one a start (35 GB filled the disk
    by the time the next CI clone was installed); the next reader now removes every one
    whose process is gone and leaves a live process's alone."""
    import tempfile

    from packetbench.benchmark.results.query import SCRATCH, open_runs

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with _dead_and_live() as (dead, live):
        stale = tmp_path / f"{SCRATCH}{dead}-abc123"
        busy = tmp_path / f"{SCRATCH}{live}-def456"
        other = tmp_path / f"{SCRATCH}zyd0uqax"  # an older version's name: not ours to judge
        for folder in (stale, busy, other):
            (folder / "spill").mkdir(parents=True)
        run = small_run(tmp_path / "run")
        with open_runs([run]) as runs:
            assert runs.scratch is not None
            assert runs.scratch.name.startswith(f"{SCRATCH}{os.getpid()}-")
            left = sorted(p.name for p in tmp_path.glob(f"{SCRATCH}*"))
            assert left == sorted([busy.name, other.name, runs.scratch.name])
        assert not runs.scratch.exists()


def test_a_result_set_never_closed_leaves_no_scratch(tmp_path: Path) -> None:
    """A process that ends with a result set still open (a viewer stopped while its
    overview's thread still read the run) removes its scratch folder as it ends."""
    import sys

    run = small_run(tmp_path / "run")
    temp = tmp_path / "temp"
    temp.mkdir()
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from packetbench.benchmark.results.query import open_runs\n"
        "runs = open_runs([Path(sys.argv[1])])\n"
        "print(runs.scratch)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(run)],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(temp)},
        check=True,
        timeout=120,
    )
    scratch = Path(done.stdout.strip())
    assert scratch.parent == temp and scratch.name.startswith("packetbench-results-")
    assert list(temp.iterdir()) == []
