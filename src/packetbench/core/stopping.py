"""How a command stops: SIGINT and SIGTERM, the native libraries, and the end of the process.

A command ends on SIGINT (exit 130) or SIGTERM (exit 143) with one line, its `finally` and
`except BaseException` blocks run: SIGTERM is raised in the main thread as `Terminated`, a
KeyboardInterrupt, so every cleanup written for Ctrl-C serves both. The main thread may be
inside native code when the signal comes (a DuckDB query runs for minutes without returning
to Python); a watcher thread, woken through the interpreter's signal wakeup fd, interrupts
every DuckDB connection registered with `watch`, so the query returns at once and the
signal is handled.

The end of the process is where native libraries break: pypdfium2's exit handler destroys
pdfium while another thread may be rendering (a segfault, or an abort), and a daemon thread
still inside DuckDB when the interpreter finalizes is ended by ``pthread_exit``, whose forced
unwinding through DuckDB's C++ ``catch (...)`` aborts the process ("terminate called after
throwing an instance of '' / FATAL: exception not rethrown", exit 134). So every use of
pdfium holds `PDFIUM` (pdfium is not thread-safe either), and when the main thread ends,
before any exit handler and before the interpreter finalizes, `_at_exit` interrupts the
registered DuckDB connections, joins the registered native threads, and closes `PDFIUM` to
daemon threads; a page still being rendered then is not waited for: pypdfium2's exit handler
is dropped instead, so the library is never destroyed under it. No thread is inside DuckDB,
and none inside pdfium while it is torn down.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, Protocol, TypeVar


class _Pdfium:
    """The lock every use of pdfium holds. Once the process ends (`close`), a daemon
    thread that would enter pdfium waits here until the process is gone instead (the
    library is about to be destroyed under it); a non-daemon thread goes on, as the
    interpreter joins it before any exit handler runs."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._closed = False

    def __enter__(self) -> None:
        self._lock.acquire()
        if self._closed and threading.current_thread().daemon:
            self._lock.release()
            threading.Event().wait()  # never set: the process ends while this waits

    def __exit__(self, *_: object) -> None:
        self._lock.release()

    def close(self, timeout: float) -> bool:
        """Let no daemon thread in, and wait (at most `timeout`) for one inside to leave:
        whether none is inside now."""
        self._closed = True
        if self._lock.acquire(timeout=max(0.0, timeout)):
            self._lock.release()
            return True
        return False


# pdfium is not thread-safe: every use of it, in any module, holds this lock.
PDFIUM = _Pdfium()
# How long the end of the process waits for native work to stop (a page being rendered).
EXIT_WAIT_S = 2.0
PDFIUM_WAIT_S = 0.2  # ... for a thread inside pdfium, before its library is left as it is

_connections: weakref.WeakSet[Any] = weakref.WeakSet()  # DuckDB connections to interrupt


class _Interruptible(Protocol):
    def interrupt(self) -> object: ...


_Connection = TypeVar("_Connection", bound=_Interruptible)
_Result = TypeVar("_Result")
# native work to join at the end, and what stops it
_threads: weakref.WeakKeyDictionary[threading.Thread, Callable[[], object] | None] = (
    weakref.WeakKeyDictionary()
)
_received: list[int] = []  # the signals received, in order
_exiting = threading.Event()  # set when the main thread has ended
_installed = False


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C is (its cleanups are the same)."""


def watch(connection: _Connection) -> _Connection:
    """Register a DuckDB connection: interrupted when a signal comes or the process ends
    (at once, when it is ending already)."""
    _connections.add(connection)
    if _exiting.is_set():
        with contextlib.suppress(Exception):
            connection.interrupt()
    return connection


def interrupt_all() -> None:
    """Interrupt every registered DuckDB connection (its running query raises)."""
    for connection in list(_connections):
        with contextlib.suppress(Exception):  # closed already: nothing runs on it
            connection.interrupt()


def native_thread(
    target: Callable[[], object], name: str, stop: Callable[[], object] | None = None
) -> threading.Thread:
    """A started daemon thread that runs native code (DuckDB, pdfium): at the end of the
    process `stop` is called (to end a wait of its own) and its connections interrupted,
    and it is joined, never left inside a library."""
    thread = threading.Thread(target=target, name=name, daemon=True)
    _threads[thread] = stop
    thread.start()
    return thread


def exiting() -> bool:
    """Whether the process is ending (native work should not start)."""
    return _exiting.is_set()


def signalled() -> int | None:
    """The first SIGINT or SIGTERM this process received, if any."""
    return _received[0] if _received else None


_owned = False  # the command ends on a stop of its own accord (`own_stops`)


def own_stops() -> None:
    """Say that this command ends on SIGINT and SIGTERM by its own choice, as a server ends
    on Ctrl-C (`stub`): the end it gives is its end (`unheeded` is None)."""
    global _owned
    _owned = True


def unheeded() -> int | None:
    """The stop signal a command that returned received, None when it received none or owns
    its stops: a signal must end the command as stopped however its raise was lost on the
    way (a library that takes an interrupted DuckDB query for "no database here" and goes
    on: `verify` SIGTERMed as it began ran to its end and exited 0)."""
    return None if _owned else signalled()


def interrupted_error(error: BaseException) -> bool:
    """Whether `error` is a native library reporting that a signal interrupted it (DuckDB:
    InterruptException, or "Query interrupted" when it noticed the signal itself)."""
    name = type(error).__name__
    return name == "InterruptException" or "Query interrupted" in str(error)


def stop_signal() -> KeyboardInterrupt:
    """The KeyboardInterrupt to raise for the signal received (Terminated for SIGTERM)."""
    return Terminated() if signalled() == signal.SIGTERM else KeyboardInterrupt()


def _stop(signum: int, error: KeyboardInterrupt) -> None:
    if signum not in _received:
        _received.append(signum)
    handling = sys.exc_info()[1]
    if isinstance(handling, KeyboardInterrupt) or (
        handling is not None and interrupted_error(handling)
    ):
        # The stop is on its way out already (a query the watcher interrupted, a first
        # Ctrl-C): raising again here would cut short the cleanup that is running.
        return
    raise error


def _unraisable(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """`sys.unraisablehook` that raises a stop again when its raise was lost: the interpreter
    runs a signal's handler at the next check of the main thread's loop, which may be inside
    a weakref callback, a `__del__` or the import system's lock callback, where an exception
    is printed as "Exception ignored" and dropped (an `audit` SIGTERMed as it imported ran on
    to its verdict). Sending the signal again would not do: `os.kill` and
    `_thread.interrupt_main` run its handler at once, here. So the stop is raised by a
    profile function at the main thread's next call or return outside this hook, and
    raised again from there for as long as it lands in a place that drops it."""

    def handle(unraisable: Any) -> object:
        error = unraisable.exc_value
        main = threading.current_thread() is threading.main_thread()
        if not (isinstance(error, KeyboardInterrupt) and _received and _installed and main):
            return hook(unraisable)
        _raise_at_next_call(Terminated if isinstance(error, Terminated) else KeyboardInterrupt)
        return None

    _OWN_CODE.add(handle.__code__)
    return handle


_OWN_CODE: set[Any] = set()  # the frames a raise by the profile function skips


def _raise_at_next_call(kind: type[KeyboardInterrupt]) -> None:
    previous = sys.getprofile()

    def profile(frame: Any, event: str, arg: object) -> None:
        del event, arg
        if frame.f_code in _OWN_CODE:
            return
        sys.setprofile(previous)
        raise kind()

    sys.setprofile(profile)


_OWN_CODE.add(_raise_at_next_call.__code__)


def _on_term(signum: int, frame: object) -> None:
    del frame
    _stop(signum, Terminated())


def _on_int(signum: int, frame: object) -> None:
    del frame
    _stop(signum, KeyboardInterrupt())


WATCHER = "signal-watcher"


def _watch_wakeup(fd: int) -> None:
    """Read the signal numbers the interpreter writes to its wakeup fd: interrupt native
    work at once, while the main thread may still be inside it."""
    while True:
        try:
            data = os.read(fd, 64)
        except OSError:
            return
        if not data:
            return
        for number in data:
            if number in (signal.SIGINT, signal.SIGTERM):
                if number not in _received:
                    _received.append(number)
                interrupt_all()


def install() -> None:
    """Handle SIGINT and SIGTERM in this process (the command line's main thread only)."""
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    _installed = True
    signal.signal(signal.SIGINT, _on_int)
    signal.signal(signal.SIGTERM, _on_term)
    sys.unraisablehook = _unraisable(sys.unraisablehook)
    read, write = os.pipe()
    os.set_blocking(write, False)
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        threading.Thread(target=_watch_wakeup, args=(read,), name=WATCHER, daemon=True).start()


def alone() -> bool:
    """Whether this thread is the process's only one but for the signal watcher, which waits
    in a read holding no lock: forking is then safe (a fork copies only the calling thread,
    and a lock another thread held would stay held in the child forever)."""
    current = threading.current_thread()
    return all(t is current or t.name == WATCHER for t in threading.enumerate())


def _at_exit() -> None:
    """Before exit handlers and finalization: no thread left inside pdfium or DuckDB."""
    _exiting.set()
    for stop in list(_threads.values()):
        if stop is not None:
            with contextlib.suppress(Exception):
                stop()
    interrupt_all()
    deadline = time.monotonic() + EXIT_WAIT_S
    for thread in list(_threads):
        while thread.is_alive() and thread is not threading.current_thread():
            thread.join(min(0.05, max(0.0, deadline - time.monotonic())))
            interrupt_all()  # a query it started since
            if time.monotonic() >= deadline:
                break
    if not PDFIUM.close(min(PDFIUM_WAIT_S, max(0.0, deadline - time.monotonic()))):
        # A daemon thread is inside pdfium (a page being rendered): the library is not
        # destroyed under it; the process ends around it instead, as it would if killed.
        scope = sys.modules.get("pypdfium2._library_scope")
        destroy = getattr(scope, "destroy_lib", None)
        if destroy is not None:
            atexit.unregister(destroy)


@contextlib.contextmanager
def no_signals() -> Iterator[None]:
    """A block SIGINT and SIGTERM cannot cut short (a few renames that must happen
    together): a signal that comes meanwhile is handled as the block ends."""
    mask = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, mask)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def run_async(main: Coroutine[Any, Any, _Result]) -> _Result:
    """`asyncio.run(main)` with asyncio's own graceful stop on SIGINT, and on SIGTERM too:
    the first signal cancels the main task, whose cleanups are awaited, then
    KeyboardInterrupt is raised (asyncio installs that only over Python's default SIGINT
    handler, which `install` replaced: it is put back for the run)."""
    import asyncio

    if not _installed or threading.current_thread() is not threading.main_thread():
        return asyncio.run(main)

    def forward(signum: int, frame: Any) -> None:
        if signum not in _received:
            _received.append(signum)
        handler = signal.getsignal(signal.SIGINT)  # asyncio's, while it runs
        if callable(handler):
            handler(signal.SIGINT, frame)

    previous = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, forward)
    try:
        return asyncio.run(main)
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])


def _after_fork_in_child() -> None:
    """A worker process forked from a command: the signals it gets are its own (its pool
    stops it with SIGTERM), not its parent's, so they are not written to the parent's pipe."""
    global _installed
    _received.clear()
    _installed = False
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)


os.register_at_fork(after_in_child=_after_fork_in_child)
# threading runs these when the main thread ends, before it joins the other non-daemon
# threads and before any atexit handler (pypdfium2's destroys the library); a private hook
# of the standard library (concurrent.futures uses it), with atexit as the fallback.
getattr(threading, "_register_atexit", atexit.register)(_at_exit)
