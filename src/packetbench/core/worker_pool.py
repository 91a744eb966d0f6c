"""Worker processes that die with the process that started them.

A `ProcessPoolExecutor` worker blocks reading its task queue; when the parent is killed
(SIGKILL, OOM killer) nobody closes that queue (a forked worker holds a copy of its write end
itself), so a worker left to itself sleeps forever. Every pool of packetbench comes from
`worker_pool`, whose initializer ties each worker's life to its parent:

- On Linux the kernel does it: `prctl(PR_SET_PDEATHSIG, SIGKILL)` asks for SIGKILL the
  moment the parent dies, whatever the worker is doing (even deep inside a C renderer that
  holds the GIL). The signal follows the thread that created the worker; our pools are
  always started and used from one thread that outlives them. Under the forkserver start
  method the parent is the fork server, which exits when its owner dies, so the signal still
  comes. A parent that died before the request took effect is caught by comparing the
  parent pid with the one the pool was created by.
- Elsewhere a daemon thread waits on the parent's sentinel (a pipe multiprocessing keeps
  open in the parent only) and ends the worker once it closes.

A pool the owner stops (`stop_pool`: Ctrl-C, a failure) is not left to finish its tasks, and
its workers are not killed outright either: a worker killed outright leaves what it started
running (a tesseract process, which ignores the terminal's Ctrl-C as its worker does, reads on
for seconds after the command ended) and what it half wrote (its scratch folder). Each worker
gets SIGTERM, which ends the task it is running by an exception, so every `with` and `finally`
on the way out runs (a `subprocess.run` kills and reaps its child, a temporary folder is
removed), and then the worker exits before taking another task; one still inside C code when
the grace period ends is killed.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
STOP_GRACE_S = 5.0  # how long a stopped worker may take to unwind its task before it is killed
STOPPED_EXIT = 143  # a worker's exit code after SIGTERM ended it (128 + 15)

# Blocked while a worker is forked, until its initializer has installed its own handlers.
STARTUP_BLOCKED = frozenset({signal.SIGINT, signal.SIGTERM})

_in_task = False  # whether this worker is running a task (read by its SIGTERM handler)


class _Stopped(BaseException):
    """Raised inside a worker's task when the pool's owner stops the pool: a BaseException,
    so no `except Exception` of the task catches it."""


def _on_stop(signum: int, frame: object) -> None:
    """SIGTERM in a worker: end the task by an exception (its cleanups run), or, between
    tasks, exit at once."""
    if _in_task:
        raise _Stopped
    os._exit(STOPPED_EXIT)


def _stop_in_a_finalizer(unraisable: Any) -> None:
    """A worker's `sys.unraisablehook`. A SIGTERM that lands while the task runs a finalizer
    (an object's `__del__`, a weakref callback) raises `_Stopped` where Python cannot
    propagate it: it would print "Exception ignored in ..." with a traceback and go on with
    the task. The stop was asked for, so the worker exits as a stopped worker does."""
    if isinstance(unraisable.exc_value, _Stopped):
        os._exit(STOPPED_EXIT)
    sys.__unraisablehook__(unraisable)


def _run_task(function: Any, /, *args: Any, **kwargs: Any) -> Any:
    """Run one task of the pool in a worker; exit once SIGTERM has unwound it."""
    global _in_task
    try:
        _in_task = True
        try:
            return function(*args, **kwargs)
        finally:
            _in_task = False
    except _Stopped:
        os._exit(STOPPED_EXIT)


def alive(process_id: int) -> bool:
    """Whether a process with this id is running (one we may not signal runs too). A process
    that has ended but is not yet reaped (a zombie) is not: a pool's worker stays one until
    the pool's own thread collects it, and what that worker half wrote is for its owner to
    remove now, not after the reaping."""
    try:
        os.kill(process_id, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        stat = Path(f"/proc/{process_id}/stat").read_bytes()
    except FileNotFoundError:  # gone meanwhile, or a system without /proc
        return not Path("/proc/self").is_dir()
    except OSError:
        return True
    state = stat.rpartition(b")")[2].split()[:1]  # the field after the command's name
    return state not in ([b"Z"], [b"X"])


def _exit_when_parent_dies() -> None:
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    from multiprocessing.connection import wait

    wait([parent.sentinel])
    os._exit(1)


def _die_with_parent(owner: int, method: str) -> None:
    """Pool initializer: end this worker when the process that owns the pool ends, and leave
    SIGINT to the owner (a Ctrl-C reaches every process of the terminal's group: the owner
    stops the pool, and no worker prints a KeyboardInterrupt traceback of its own)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_stop)
    sys.unraisablehook = _stop_in_a_finalizer
    # Started with SIGINT and SIGTERM blocked (`_Pool.submit`): a Ctrl-C that came before the
    # lines above is pending here and is now dropped as ignored; a SIGTERM (the pool stopped
    # while this worker starts) now reaches `_on_stop`, not the handler the owner had when it
    # forked, which would raise inside this initializer and print its traceback.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STARTUP_BLOCKED)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            # Forked or spawned by the owner: if it is no longer our parent, it died before
            # the request above took effect, and no signal will come.
            if method != "forkserver" and os.getppid() != owner:
                os._exit(1)
            return
    threading.Thread(target=_exit_when_parent_dies, name="parent-watch", daemon=True).start()


class _Pool(ProcessPoolExecutor):
    """A pool whose workers are started with SIGINT and SIGTERM blocked. A worker is forked
    inside `submit`; between the fork and its initializer it would take a Ctrl-C sent to the
    whole group as a KeyboardInterrupt of its own, or the pool's stop by the owner's SIGTERM
    handler, and print a traceback. Blocked, the signal waits for the initializer, which
    ignores the one and exits quietly on the other."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if threading.current_thread() is not threading.main_thread():
            return super().submit(_run_task, fn, *args, **kwargs)
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, STARTUP_BLOCKED)
        try:
            return super().submit(_run_task, fn, *args, **kwargs)
        finally:
            # A Ctrl-C that came meanwhile is delivered here, to this process alone.
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def worker_pool(jobs: int, method: str | None = None) -> ProcessPoolExecutor:
    """A pool of `jobs` worker processes that never outlive this process, started by `method`
    (``"fork"``...; the platform's default when None)."""
    context = multiprocessing.get_context(method)
    return _Pool(
        max_workers=jobs,
        mp_context=context,
        initializer=_die_with_parent,
        initargs=(os.getpid(), context.get_start_method()),
    )


def stop_pool(pool: ProcessPoolExecutor, grace_s: float = STOP_GRACE_S) -> None:
    """Cancel what `pool` has not started and stop its workers now (a pool's own shutdown
    waits for every task in flight, minutes for an OCR audit of a packet): each unwinds the
    task it runs (the processes it started are killed, its scratch removed) and exits; one
    that has not within `grace_s` seconds is killed. Returns once every worker has ended."""
    from multiprocessing.connection import wait

    workers = list((pool._processes or {}).values())  # shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    running = {process.sentinel: process for process in workers}
    deadline = time.monotonic() + grace_s
    while running and (left := deadline - time.monotonic()) > 0:
        for ended in wait(list(running), timeout=left):
            running.pop(int(ended))  # type: ignore[arg-type]
    for process in running.values():
        process.kill()
    while running:  # a sentinel, unlike join, never races the pool's thread to reap one
        for ended in wait(list(running)):
            running.pop(int(ended))  # type: ignore[arg-type]
