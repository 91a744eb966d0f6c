"""How pool workers end. A stop that lands in a finalizer: a pool worker's SIGTERM raised
inside an object's `__del__` cannot propagate (Python prints "Exception ignored in ..." with a
traceback and goes on with the task); the worker exits as a stopped worker does, silently (a
real pool, a real signal), and what it half wrote is removed by its owner at once, while the
worker is still an unreaped zombie."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from concurrent.futures.process import BrokenProcessPool
    from packetbench.core.worker_pool import worker_pool

    class Slow:
        def __del__(self):
            time.sleep(0.2)  # where the signal lands: inside the finalizer

    def task(pid_file):
        with open(pid_file, "w") as f:
            f.write(str(os.getpid()))
        end = time.monotonic() + 4
        while time.monotonic() < end:
            Slow()  # made and finalized at once
        return "finished"

    if __name__ == "__main__":
        pid_file = sys.argv[1]
        pool = worker_pool(1)
        future = pool.submit(task, pid_file)
        while not os.path.exists(pid_file) or not open(pid_file).read():
            time.sleep(0.05)
        time.sleep(0.5)
        os.kill(int(open(pid_file).read()), 15)
        try:
            print(future.result(timeout=30))
        except BrokenProcessPool:
            print("stopped")
        pool.shutdown()
    """
)


def test_a_stop_inside_a_finalizer_ends_the_worker_silently(tmp_path: Path) -> None:
    script = tmp_path / "stop.py"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "pid")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped", done.stdout
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_an_ended_worker_not_yet_reaped_is_not_alive(tmp_path: Path) -> None:
    """A pool's stopped worker is a zombie until the pool's thread reaps it; meanwhile the owner
    removes what it half wrote (`recover`), which it skips for a writer still running. A real
    process, ended and deliberately not reaped: not alive; one still running: alive."""
    from packetbench.core.worker_pool import alive
    from packetbench.generator.packet import recover

    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        os.waitid(os.P_PID, ended.pid, os.WEXITED | os.WNOWAIT)  # ended, left unreaped
        assert alive(running.pid)
        assert not alive(ended.pid)
        for owner in (running.pid, ended.pid):
            (tmp_path / f".N1-000001.partial-{owner}").mkdir()
        recover(tmp_path, "N1-000001")
        assert [p.name for p in tmp_path.iterdir()] == [f".N1-000001.partial-{running.pid}"]
    finally:
        running.kill()
        running.wait()
        ended.wait()
    assert not alive(running.pid)
