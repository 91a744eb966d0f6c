"""Executors: where the tasks of `generate`, `audit` and `score` run.

``local`` runs them in this process (one job) or in worker processes that die with it;
``ray`` runs them on a Ray cluster (``pip install 'packetbench[ray]'``; Ray is imported only
when this executor is chosen). Either way results come back in task order, whatever finishes
first, so the files written from them are the same bytes whichever executor ran and however
many workers it had. At most a few tasks per worker are in flight, so the results waiting
to be consumed stay few however many tasks there are.

A task that raises is run again (`retries` times); if it still fails the run stops with
`TaskFailed` naming the task (a packet id, or a held-out packet's position: a label never
carries what a task keeps private) and the error's last line, never dropping it: a crash,
which the command line reports with exit code 1. Bad input and bad usage (the `fatal`
classes, `InputError` and `WriteFailed` always among them) stop the run as they are, and a
bug the project detects itself (a `PacketbenchError` such as `LayoutError`) is not retried:
both would fail again. Nor is a write the machine refused (a full disk): it stops the run as
`WriteFailed` naming the task, "cannot write", not as a crash.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from packetbench.core.errors import (
    InputError,
    PacketbenchError,
    TaskFailed,
    UsageError,
    WriteFailed,
)
from packetbench.core.worker_pool import stop_pool, worker_pool
from packetbench.core.writing import machine_refused, refused_write

T = TypeVar("T")
R = TypeVar("R")
IN_FLIGHT_PER_WORKER = 4
RETRIES = 1


class Executor(Protocol):
    name: str

    def map(
        self, function: Callable[[T], R], tasks: Sequence[T], label: Callable[[T], str]
    ) -> Iterator[R]: ...


def _final(error: BaseException, attempt: int, retries: int) -> bool:
    """Whether a task that raised `error` on attempt `attempt` is not tried again."""
    return attempt > retries or isinstance(error, PacketbenchError) or machine_refused(error)


def _failed(label: str, attempts: int, error: BaseException) -> PacketbenchError:
    if machine_refused(error):
        return refused_write(label, error)
    reason = " ".join(f"{type(error).__name__}: {error}".split())
    return TaskFailed(f"{label}: failed {attempts} time(s), last with {reason}")


@dataclass
class LocalExecutor:
    """This process (jobs=1) or `jobs` worker processes."""

    jobs: int = 1
    retries: int = RETRIES
    fatal: tuple[type[BaseException], ...] = (InputError, WriteFailed)
    name: str = "local"

    def map(
        self, function: Callable[[T], R], tasks: Sequence[T], label: Callable[[T], str]
    ) -> Iterator[R]:
        if self.jobs == 1 or len(tasks) <= 1:
            for task in tasks:
                yield self._inline(function, task, label)
            return
        pool = worker_pool(min(self.jobs, len(tasks)))
        try:
            window = self.jobs * IN_FLIGHT_PER_WORKER
            pending: deque[tuple[T, Future[R], int]] = deque()
            upcoming = iter(tasks)

            def submit() -> None:
                for task in upcoming:
                    pending.append((task, pool.submit(function, task), 1))
                    return

            for _ in range(window):
                submit()
            while pending:
                task, future, attempt = pending.popleft()
                try:
                    result = future.result()
                except self.fatal:
                    raise
                except BrokenProcessPool as error:
                    # A worker died (killed, out of memory): the pool cannot run anything more.
                    raise _failed(label(task), attempt, error) from None
                except Exception as error:
                    if _final(error, attempt, self.retries):
                        raise _failed(label(task), attempt, error) from error
                    pending.appendleft((task, pool.submit(function, task), attempt + 1))
                    continue
                submit()
                yield result
        except BaseException:
            # Stopping (an error, SIGINT, a consumer that stopped reading): the tasks in
            # flight are not waited for; a pool's own shutdown would run them to the end.
            stop_pool(pool)
            raise
        finally:
            pool.shutdown(wait=True)

    def _inline(self, function: Callable[[T], R], task: T, label: Callable[[T], str]) -> R:
        attempt = 1
        while True:
            try:
                return function(task)
            except self.fatal:
                raise
            except Exception as error:
                if _final(error, attempt, self.retries):
                    raise _failed(label(task), attempt, error) from error
                attempt += 1


def cluster_messages_to_stderr() -> None:
    """Send the messages a Ray cluster publishes to a command ("The node with node id ... has
    been marked dead", printed as `(raylet) ...`) to stderr: Ray prints them to stdout, where
    they would end up in `audit --json` and the other commands' output. With log_to_driver
    off they are all Ray's printer prints; a Ray without it is left as it is."""
    from ray._private import worker

    printer = getattr(worker, "print_to_stdstream", None)
    if printer is None or getattr(printer, "to_stderr", False):
        return

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> None:
        printer({**data, "is_err": True}, ignore_prefix)

    to_stderr.to_stderr = True  # type: ignore[attr-defined]
    worker.print_to_stdstream = to_stderr


@dataclass
class RayExecutor:
    """A Ray cluster: `address` "auto" (the cluster this machine belongs to) or HOST:PORT;
    None starts a Ray instance on this machine with `jobs` CPUs for the length of the run.

    Every worker must see the same folders (a shared file system) and run the same
    packetbench version; tasks are functions of this package, shipped by reference.
    """

    address: str | None = None
    jobs: int = 2
    retries: int = RETRIES
    fatal: tuple[type[BaseException], ...] = (InputError, WriteFailed)
    name: str = "ray"

    def _connect(self) -> Any:
        try:
            import ray
        except ImportError:
            raise UsageError("--executor ray needs Ray: pip install 'packetbench[ray]'") from None
        if not ray.is_initialized():
            self._reachable()
            options: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "configure_logging": True,
                "logging_level": "ERROR",
            }
            try:
                if self.address is None:
                    # "local": a new instance, even where RAY_ADDRESS or a `ray start`
                    # cluster on this machine would otherwise be joined.
                    ray.init(address="local", num_cpus=self.jobs, **options)
                else:
                    ray.init(address=self.address, **options)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise UsageError(
                    f"--ray-address {self.address}: cannot connect to a Ray "
                    f"cluster ({' '.join(str(error).split())})"
                ) from None
            cluster_messages_to_stderr()
        return ray

    def _reachable(self) -> None:
        """A HOST:PORT nobody listens on is refused here: Ray itself waits a minute for it
        and then ends the process with a segmentation fault."""
        import socket

        if self.address is None or self.address == "auto":
            return
        host, _, port = self.address.rpartition(":")
        try:
            socket.create_connection((host or "127.0.0.1", int(port)), timeout=5).close()
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise UsageError(
                f"--ray-address {self.address}: cannot connect to a Ray cluster ({reason})"
            ) from None

    def map(
        self, function: Callable[[T], R], tasks: Sequence[T], label: Callable[[T], str]
    ) -> Iterator[R]:
        if not tasks:
            return
        ray = self._connect()
        # Ray retries a task whose worker died (max_retries); exceptions come back here.
        remote = ray.remote(max_retries=self.retries)(function)
        cpus = int(ray.cluster_resources().get("CPU", self.jobs)) or 1
        window = max(cpus, 1) * IN_FLIGHT_PER_WORKER
        pending: deque[tuple[T, Any, int]] = deque()
        upcoming = iter(tasks)

        def submit() -> None:
            for task in upcoming:
                pending.append((task, remote.remote(task), 1))
                return

        for _ in range(window):
            submit()
        while pending:
            task, ref, attempt = pending.popleft()
            try:
                result = ray.get(ref)
            except ray.exceptions.RayTaskError as error:
                cause = error.cause if isinstance(error.cause, BaseException) else error
                if isinstance(cause, self.fatal):
                    raise cause from None
                if _final(cause, attempt, self.retries):
                    raise _failed(label(task), attempt, cause) from None
                pending.appendleft((task, remote.remote(task), attempt + 1))
                continue
            except ray.exceptions.RayError as error:
                raise _failed(label(task), attempt, error) from None
            submit()
            yield result


EXECUTORS = ("local", "ray")


def make_executor(
    name: str,
    jobs: int,
    ray_address: str | None = None,
    fatal: tuple[type[BaseException], ...] = (),
) -> Executor:
    """The executor a command's --executor, --jobs and --ray-address ask for."""
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {jobs})")
    stops: tuple[type[BaseException], ...] = (InputError, WriteFailed, *fatal)
    if name == "local":
        if ray_address is not None:
            raise UsageError("--ray-address is for --executor ray")
        return LocalExecutor(jobs, fatal=stops)
    if name == "ray":
        return RayExecutor(ray_address, jobs, fatal=stops)
    raise UsageError(f"unknown executor {name!r}; choose one of {', '.join(EXECUTORS)}")
