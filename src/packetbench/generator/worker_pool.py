"""Worker processes that die with the process that started them.

A `ProcessPoolExecutor` worker blocks reading its task queue; when the parent is killed
(SIGKILL, OOM killer) nobody closes that queue (a forked worker holds a copy of its write end
itself), so the workers used to sleep forever. Every pool of packetbench comes from
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
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def alive(process_id: int) -> bool:
    """Whether a process with this id exists (one we may not signal exists too)."""
    try:
        os.kill(process_id, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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
    # Started with SIGINT blocked (`_Pool.submit`): a Ctrl-C that came before the line above
    # is pending here, and is now dropped as ignored.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
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
    """A pool whose workers are started with SIGINT blocked. A worker is forked inside
    `submit`; between the fork and its initializer it would take a Ctrl-C sent to the whole
    group as a KeyboardInterrupt of its own and print ``Process ForkProcess-2:`` with a
    traceback. Blocked, the signal waits for the initializer, which ignores it."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if threading.current_thread() is not threading.main_thread():
            return super().submit(fn, *args, **kwargs)
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return super().submit(fn, *args, **kwargs)
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


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what `pool` has not started and kill its workers now (a pool's own shutdown
    waits for every task in flight, minutes for an OCR audit of a packet)."""
    workers = list((pool._processes or {}).values())  # shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.kill()
