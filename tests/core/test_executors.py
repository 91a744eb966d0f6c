"""Executors return results in task order, retry a failing task once, then stop naming it;
errors the project raises on purpose are not retried."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from packetbench.core.errors import TaskFailed, UsageError
from packetbench.core.executors import LocalExecutor, make_executor


def _square_slowly_first(task: tuple[int, str]) -> int:
    n, _ = task
    if n == 0:
        import time

        time.sleep(0.2)  # the first task finishes last: order must not follow finishing
    return n * n


def _flaky(task: tuple[int, str]) -> int:
    """Fails the first time it sees a task (a marker file remembers), then succeeds."""
    n, folder = task
    marker = Path(folder) / f"seen-{n}"
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        raise OSError(f"transient failure of task {n}")
    return n


def _broken(task: tuple[int, str]) -> int:
    n, folder = task
    with (Path(folder) / f"tries-{n}").open("a") as tries:
        tries.write("x")
    if n == 2:
        raise ValueError("this task never works")
    return n


def _refused(task: tuple[int, str]) -> int:
    n, folder = task
    with (Path(folder) / f"refused-{n}").open("a") as tries:
        tries.write("x")
    raise UsageError(f"task {n}: bad input")


def _label(task: tuple[int, str]) -> str:
    return f"P-{task[0]}"


@pytest.mark.parametrize("jobs", [1, 2])
def test_order_retry_and_failure(jobs: int, tmp_path: Path) -> None:
    executor = LocalExecutor(jobs)
    tasks = [(n, str(tmp_path)) for n in range(6)]
    assert list(executor.map(_square_slowly_first, tasks, _label)) == [0, 1, 4, 9, 16, 25]
    assert list(executor.map(_flaky, tasks, _label)) == list(range(6))
    with pytest.raises(
        TaskFailed,
        match=r"^P-2: failed 2 time\(s\), last with ValueError: "
        r"this task never works$",
    ):
        list(executor.map(_broken, tasks, _label))
    assert (tmp_path / "tries-2").read_text() == "xx"
    with pytest.raises(UsageError, match="task 0: bad input"):
        list(executor.map(_refused, tasks, _label))
    assert (tmp_path / "refused-0").read_text() == "x"  # not retried


def test_make_executor_checks_its_options() -> None:
    with pytest.raises(UsageError, match="unknown executor 'dask'; choose one of local, ray"):
        make_executor("dask", 1)
    with pytest.raises(UsageError, match="--ray-address is for --executor ray"):
        make_executor("local", 1, "auto")
    with pytest.raises(UsageError, match="--jobs must be at least 1"):
        make_executor("local", 0)


def test_a_packet_task_run_again_after_its_rename_returns_the_packet(tmp_path: Path) -> None:
    """A worker (or a Ray node) that dies after renaming its packet into place, before its
    result comes back, has its task run again: the second run reads the packet back, the
    same entry and not marked kept, instead of refusing the folder as in the way."""
    from packetbench.generator.generation import _one, job_for

    job = job_for("N1", 970001, 1, tmp_path, force=False)
    task = (tmp_path, "N1", 970001, job.knobs, False)
    first = _one(task)
    files = {p.name: p.read_bytes() for p in (tmp_path / "N1-970001").iterdir()}
    again = _one(task)
    assert again[1:] == first[1:]
    assert again[0].packet_id == "N1-970001" and not again[0].kept
    assert {p.name: p.read_bytes() for p in (tmp_path / "N1-970001").iterdir()} == files
    assert sorted(p.name for p in tmp_path.iterdir()) == ["N1-970001"]
