"""`--executor ray --ray-address` on a real cluster: a head and two worker nodes started with
`ray start`, as on three machines, each its own process group and its own IP (127.0.0.2-4). A
corpus generated through it is byte-identical to the local executor's, with one worker node
killed (SIGKILL to every process of the node, as a machine that loses power) while it runs a
task.

The command attaches to the raylet of the node whose IP Ray cached last in the session folder:
on one machine the nodes share that folder, so it is the node started last, the one not
killed (on separate machines it is the command's own). A command whose own node dies stops,
as it would with its machine."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.files import file_digests as _tree
from tests.support.paths import cli_path

Run = Callable[..., subprocess.CompletedProcess[str]]
GENERATE = ("generate", "--tiers", "N1", "--count", "16", "--seed", "970001")


def _free_ports(count: int) -> list[int]:
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]


def _group_alive(group: int) -> list[int]:
    """The processes still running in process group `group` (not the dead, not yet reaped)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                state, _, pgrp = (entry / "stat").read_text().rpartition(")")[2].split()[:3]
                if int(pgrp) == group and state not in ("Z", "X"):
                    alive.append(int(entry.name))
    return alive


def _stop(group: int) -> None:
    """Stop a node as `ray stop` would (SIGTERM), then SIGKILL what is left of it (the GCS
    and the autoscaler's monitor outlast a SIGTERM by more than 15 s)."""
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, sig)
        deadline = time.monotonic() + wait
        while _group_alive(group) and time.monotonic() < deadline:
            time.sleep(0.2)
        if not _group_alive(group):
            return


class Cluster:
    """Ray nodes started with `ray start`; each node's processes are one process group (the
    `ray start` that launched them leads it), so a node is stopped or killed by its group id."""

    def __init__(self, ray: str, temp: Path) -> None:
        self.ray, self.temp = ray, temp
        self.groups: list[int] = []
        self.address = ""

    def start(self, ip: str) -> int:
        (gcs, manager, objects, metrics, agent, agent_grpc, env_agent, dashboard) = _free_ports(8)
        where = ["--address", self.address]
        if not self.address:
            self.address = f"{ip}:{gcs}"
            where = ["--head", "--port", str(gcs), "--include-dashboard", "false"]
            where += ["--dashboard-port", str(dashboard)]
        command = [
            self.ray, "start", *where, "--node-ip-address", ip, "--num-cpus", "1",
            "--temp-dir", str(self.temp),
            "--object-store-memory", str(100 * 1024 * 1024), "--disable-usage-stats",
            "--node-manager-port", str(manager), "--object-manager-port", str(objects),
            "--min-worker-port", "0", "--max-worker-port", "0",
            "--metrics-export-port", str(metrics), "--dashboard-agent-listen-port", str(agent),
            "--dashboard-agent-grpc-port", str(agent_grpc),
            "--runtime-env-agent-port", str(env_agent),
        ]  # fmt: skip
        starter = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"},
        )
        self.groups.append(starter.pid)
        said, _ = starter.communicate(timeout=120)
        assert starter.returncode == 0, said
        return starter.pid

    def nodes(self) -> int:
        status = subprocess.run(
            [self.ray, "status", "--address", self.address],
            capture_output=True,
            text=True,
            timeout=60,
        )
        return sum(line.strip().startswith("1 node_") for line in status.stdout.splitlines())

    def stop(self) -> None:
        for group in reversed(self.groups):
            _stop(group)


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    pytest.importorskip("ray")
    ray = shutil.which("ray", path=str(Path(sys.executable).parent)) or shutil.which("ray")
    if ray is None:
        pytest.skip("the ray command is not installed")
    # Short: Ray's Unix sockets live under it, and their paths may not pass 107 characters.
    temp = Path(tempfile.mkdtemp(prefix="pbray-", dir="/tmp"))
    nodes = Cluster(ray, temp)
    try:
        yield nodes
    finally:
        nodes.stop()
        left = [pid for group in nodes.groups for pid in _group_alive(group)]
        shutil.rmtree(temp, ignore_errors=True)
        assert not left, f"processes of the cluster left running: {left}"


def _running(group: int, task: str) -> bool:
    """Whether a process of group `group` runs `task` (Ray names a busy worker ray::TASK)."""
    for pid in _group_alive(group):
        with contextlib.suppress(OSError):
            if (Path("/proc") / str(pid) / "cmdline").read_bytes().startswith(task.encode()):
                return True
    return False


@pytest.mark.slow
def test_a_cluster_loses_nothing_when_a_node_dies_mid_task(
    cluster: Cluster, run_cli: Run, tmp_path: Path
) -> None:
    cluster.start("127.0.0.2")  # the head
    victim = cluster.start("127.0.0.3")
    cluster.start("127.0.0.4")  # the node the command attaches to
    deadline = time.monotonic() + 30
    while cluster.nodes() < 3:
        assert time.monotonic() < deadline, "the worker nodes never joined the head"
        time.sleep(0.5)

    local, ray = tmp_path / "local", tmp_path / "ray"
    made = run_cli(*GENERATE, "--out", str(local))
    assert made.returncode == 0, made.stderr
    command = [cli_path(), *GENERATE, "--out", str(ray)]
    command += ["--executor", "ray", "--ray-address", cluster.address]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as gen:
        while not _running(victim, "ray::_one"):
            assert gen.poll() is None, gen.communicate()
            time.sleep(0.02)
        written = len(list(ray.glob("N1-*")))
        os.killpg(victim, signal.SIGKILL)  # the node, and the packet it was writing
        out, err = gen.communicate(timeout=300)
    assert gen.returncode == 0, err
    assert written < 16, "the run ended before the node was killed"
    # Only the packets and the corpus on stdout (Ray's "node marked dead" goes to stderr).
    said = [line for line in made.stdout.splitlines() if not line.startswith("wrote ")]
    assert [line for line in out.splitlines() if not line.startswith("wrote ")] == [
        line.replace(str(local), str(ray)) for line in said
    ]
    assert _tree(ray) == _tree(local)
    assert not _group_alive(victim)


def test_stopping_a_node_ends_every_process_of_its_group() -> None:
    """How the test stops a node, on a real process group: a leader that ignores SIGTERM and a
    child of it are both gone after `_stop` (the SIGKILL after the SIGTERM)."""
    script = (
        "import signal, subprocess, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        "print('ready', flush=True); time.sleep(60)"
    )
    leader = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert leader.stdout is not None and leader.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 10
        while len(_group_alive(leader.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_group_alive(leader.pid)) == 2
        _stop(leader.pid)
        leader.wait(timeout=10)
        assert _group_alive(leader.pid) == []
        assert leader.returncode == -signal.SIGKILL
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(leader.pid, signal.SIGKILL)
        leader.wait(timeout=10)
        if leader.stdout is not None:
            leader.stdout.close()
