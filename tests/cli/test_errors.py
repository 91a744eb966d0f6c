"""What the command line makes of an error: bad input exits 2 with one line, a crash in a
worker exits 1 naming its packet, and a bug (`LayoutError` among them) exits 1 with its
traceback, never passing for bad input."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from packetbench.core.errors import InputError, TaskFailed, UsageError
from packetbench.core.executors import LocalExecutor
from packetbench.generator.errors import LayoutError
from tests.support.paths import cli_path
from tests.support.processes import children

# A command added to the real app in a fresh interpreter, raising `error`; then the real main.
PROBE = textwrap.dedent("""
    import sys
    from packetbench.cli import app, main
    from packetbench.core.errors import UsageError
    from packetbench.generator.errors import LayoutError

    @app.command("explode")
    def explode() -> None:
        raise {error}

    sys.argv = ["packetbench", "explode"]
    main()
""")


def _main_raising(error: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE.format(error=error)], capture_output=True, text=True
    )


def test_bad_input_is_one_line_and_exit_2() -> None:
    result = _main_raising('UsageError("--count must be at least 1")')
    assert result.returncode == 2
    assert result.stderr == "packetbench: error: --count must be at least 1\n"


def test_a_layout_error_is_a_bug_not_bad_input() -> None:
    result = _main_raising('LayoutError("acord_125: value of insured.name not drawn")')
    assert result.returncode == 1
    assert "packetbench: error:" not in result.stderr
    assert "Traceback" in result.stderr
    assert result.stderr.rstrip().splitlines()[-1] == (
        "packetbench.generator.errors.LayoutError: acord_125: value of insured.name not drawn"
    )


def _layout_bug(task: tuple[int, str]) -> int:
    with (Path(task[1]) / "tries").open("a") as tries:
        tries.write("x")
    raise LayoutError(f"packet {task[0]}: a value was not drawn")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bug_in_a_task_is_not_retried_and_names_the_task(jobs: int, tmp_path: Path) -> None:
    tasks = [(7, str(tmp_path))]
    with pytest.raises(TaskFailed, match=r"^N3-7: failed 1 time\(s\), last with LayoutError: "):
        list(LocalExecutor(jobs).map(_layout_bug, tasks, lambda t: f"N3-{t[0]}"))
    assert (tmp_path / "tries").read_text() == "x"
    assert not issubclass(TaskFailed, InputError) and not issubclass(LayoutError, InputError)
    assert issubclass(UsageError, InputError)


@pytest.mark.e2e
def test_a_worker_killed_under_jobs_2_is_a_crash_naming_the_packet(tmp_path: Path) -> None:
    out = tmp_path / "packets"
    process = subprocess.Popen(
        [cli_path(), "generate", "--tiers", "N3", "--count", "4", "--jobs", "2", "--out", str(out)],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while len(workers := children(process.pid)) < 2:
        assert process.poll() is None, "generate ended before a worker was killed"
        assert time.monotonic() < deadline, "generate never started its workers"
        time.sleep(0.01)
    time.sleep(0.5)  # both workers have taken a packet
    subprocess.run(["kill", f"-{int(signal.SIGKILL)}", str(workers[0])], check=True)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 1, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("packetbench: crash: N3-00000"), stderr
    assert ": failed 1 time(s), last with BrokenProcessPool: " in last
    assert "packetbench: error:" not in stderr and "Traceback" not in stderr
