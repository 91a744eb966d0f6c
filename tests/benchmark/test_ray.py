"""`--executor ray`: a Ray instance on this machine (2 CPUs) generates, audits and scores 8
packets, byte-identical to the local executor with one worker or two. (A cluster of several
nodes started with `ray start`: test_ray_cluster.py.)"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.core.errors import UsageError
from packetbench.core.executors import RayExecutor, cluster_messages_to_stderr, make_executor
from packetbench.generator.corpus import verify
from tests.support.files import file_digests as _tree

Run = Callable[..., subprocess.CompletedProcess[str]]
RAY = ("--executor", "ray", "--jobs", "2")


def _ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.slow
def test_ray_executor_matches_local(run_cli: Run, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    gen = ("generate", "--tiers", "N1", "--count", "8")
    local, ray = tmp_path / "local", tmp_path / "ray"
    _ok(run_cli(*gen, "--out", str(local)))
    # Without --ray-address a Ray instance of its own, whatever cluster RAY_ADDRESS names.
    said = _ok(run_cli(*gen, "--out", str(ray), *RAY, env={"RAY_ADDRESS": "127.0.0.1:1"}))
    assert said.splitlines()[-1].endswith(verify(local).digest)
    assert _tree(ray) == _tree(local)

    audits = []
    args: tuple[str, ...]
    for args in ((), RAY):
        result = run_cli("audit", "--packets", str(ray), "--json", *args)
        assert result.returncode in (0, 1), result.stderr
        audits.append(json.loads(result.stdout))
    assert audits[0] == audits[1]

    run = tmp_path / "run"
    _ok(run_cli("extract", "--provider", "sim", "--packets", str(ray), "--out", str(run)))
    scores = []
    for name, args, env in (
        ("one", ("--jobs", "1"), {}),
        ("two", ("--jobs", "2"), {"PYTHONHASHSEED": "99"}),
        ("ray", RAY, {}),
    ):
        copy = tmp_path / f"run-{name}"
        shutil.copytree(run, copy)
        _ok(run_cli("score", str(copy), "--packets", str(ray), *args, env=env))
        scores.append(_tree(copy / "scores"))
    assert scores[0] == scores[1] == scores[2]
    assert {"claims.parquet", "fields.parquet"} <= set(scores[0])


@pytest.mark.slow
def test_a_missing_ray_cluster_is_one_line(run_cli: Run, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    result = run_cli(
        "generate",
        "--tiers",
        "N1",
        "--out",
        str(tmp_path / "p"),
        "--executor",
        "ray",
        "--ray-address",
        "127.0.0.1:1",
    )
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].startswith(
        "packetbench: error: --ray-address 127.0.0.1:1: cannot connect to a Ray cluster"
    )


def test_the_executor_refuses_an_address_nobody_listens_on() -> None:
    """The fast tier's check, in process and without starting Ray: the executors are made
    from the options as asked (an address only with Ray, an unknown executor named), an
    empty map connects to nothing, and a Ray address nobody listens on is refused at once in
    one line, before Ray would wait a minute for it."""
    pytest.importorskip("ray")
    with pytest.raises(UsageError, match=r"^--ray-address is for --executor ray$"):
        make_executor("local", 1, "127.0.0.1:1")
    with pytest.raises(UsageError, match=r"^unknown executor 'dask'; choose one of local, ray$"):
        make_executor("dask", 1)
    executor = make_executor("ray", 2, "127.0.0.1:1")
    assert isinstance(executor, RayExecutor) and executor.jobs == 2
    assert list(executor.map(str, [], str)) == []
    started = time.monotonic()
    with pytest.raises(UsageError) as refused:
        list(executor.map(str, [1], str))
    assert time.monotonic() - started < 10
    message = str(refused.value)
    assert message.startswith("--ray-address 127.0.0.1:1: cannot connect to a Ray cluster (")
    assert "\n" not in message


def test_a_cluster_message_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """What a Ray cluster tells a command (a node marked dead) is printed on stderr: on
    stdout it would end up in `audit --json`. Wrapped once however often it is asked."""
    pytest.importorskip("ray")
    from ray._private import worker

    cluster_messages_to_stderr()
    wrapped = worker.print_to_stdstream
    cluster_messages_to_stderr()
    assert worker.print_to_stdstream is wrapped
    message = "The node with node id: 5882 has been marked dead (a test of the printer)"
    worker.print_to_stdstream(
        {"lines": [message], "pid": "raylet", "is_err": False}, ignore_prefix=False
    )
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err
