"""SIGINT and SIGTERM sent to real commands while they work: each ends within 2 s with one
line ("packetbench: interrupted" / "terminated") and exit 130 / 143, never an abort (134,
"FATAL: exception not rethrown") or a traceback, and leaves nothing behind: no lock, no
scratch folder of the results database, no `$TMPDIR/packetbench-results-*`.

The moments are chosen by what the command has written (its scratch folder appears), or by
what it is busy with (page images being rendered for clients), not by a sleep alone.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.paths import PACKETS, cli_path

STOPS = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated")}
WITHIN_S = 2.0


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(packets, a scored sim run) of the canonical N1 packet."""
    root = tmp_path_factory.mktemp("signals")
    packets = root / "packets"
    packets.mkdir()
    (packets / "N1-000001").symlink_to(PACKETS / "N1-000001")
    run = root / "run"
    extract(SimProvider("typical", 1), packets, run)
    score_run(run, packets)
    load_run(run, packets)
    return packets, run


def _stop(
    args: list[str],
    stop: signal.Signals,
    ready: Callable[[subprocess.Popen[str]], bool],
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> tuple[int, str, float]:
    """Start `packetbench ARGS`, send `stop` once `ready` holds, and return its exit code,
    its stderr and how long it took to end after the signal."""
    process = subprocess.Popen(
        [cli_path(), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        handled = time.monotonic() + 20  # the old code never handled SIGTERM: send it anyway
        while not _handles(process.pid, stop) and time.monotonic() < handled:
            assert process.poll() is None, process.communicate()
            time.sleep(0.01)
        while not ready(process):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the moment to stop it never came"
            time.sleep(0.01)
        sent = time.monotonic()
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=60)
        return process.returncode, stderr, time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def _handles(pid: int, stop: signal.Signals) -> bool:
    """Whether process `pid` has a handler of its own for `stop` (its SigCgt mask): until
    then the signal would end it by the kernel's default, before the command has started."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (stop - 1) & 1)


def _assert_stopped(stop: signal.Signals, code: int, stderr: str, took: float) -> None:
    expected, word = STOPS[stop]
    assert "FATAL" not in stderr and "Traceback" not in stderr and "Aborted" not in stderr, stderr
    assert code == expected, (code, stderr)
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"packetbench: {word}"), stderr
    assert took < WITHIN_S, took


@pytest.mark.parametrize("stop", list(STOPS), ids=lambda s: s.name)
def test_sql_ends_mid_query_and_leaves_no_scratch(
    scored: tuple[Path, Path], tmp_path: Path, stop: signal.Signals
) -> None:
    """A query that runs for minutes: the signal interrupts it inside DuckDB (it used to run
    on for a minute after Ctrl-C and leave its scratch folder; SIGTERM killed it outright)."""
    _, run = scored
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    code, stderr, took = _stop(
        ["sql", str(run), "SELECT count(*) FROM range(100000000000) a, claims"],
        stop,
        _after(1.5),  # the command is well into the query
        env={"TMPDIR": str(scratch)},
    )
    _assert_stopped(stop, code, stderr, took)
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("stop", list(STOPS), ids=lambda s: s.name)
def test_score_ends_and_leaves_no_lock_or_scratch(
    scored: tuple[Path, Path], tmp_path: Path, stop: signal.Signals
) -> None:
    """Stopped as its scratch folder appears: no .packetbench.lock, no .results-*."""
    packets, source = scored
    run = tmp_path / "run"
    shutil.copytree(source, run)
    shutil.rmtree(run / "scores")
    (run / "results.duckdb").unlink()
    code, stderr, took = _stop(
        ["score", str(run), "--packets", str(packets)],
        stop,
        lambda _: any(p.name.startswith(".results-") for p in run.iterdir()),
    )
    _assert_stopped(stop, code, stderr, took)
    assert sorted(p.name for p in run.iterdir() if p.name.startswith(".")) == []


def _hammer(url: str, sha: str, stop: threading.Event) -> None:
    """Ask for page images (rendered by pdfium in the server's threads) until `stop`."""
    page = 0
    while not stop.is_set():
        page += 1
        try:
            with urllib.request.urlopen(
                f"{url}pages/{sha}/{page % 4 + 1}?scale={page % 4 + 1}", timeout=5
            ) as answer:
                answer.read()
        except (OSError, urllib.error.URLError):
            if stop.wait(0.01):
                return


@pytest.mark.slow
@pytest.mark.parametrize("stop", list(STOPS), ids=lambda s: s.name)
@pytest.mark.parametrize("attempt", range(3))
def test_view_ends_while_pages_render(
    scored: tuple[Path, Path], tmp_path: Path, stop: signal.Signals, attempt: int
) -> None:
    """The server stopped while four clients keep pdfium rendering pages in its threads:
    the abort at exit (a thread inside pdfium while pypdfium2 destroys the library, or a
    thread inside DuckDB as the interpreter ends) would show here as exit 134 or -11."""
    del attempt
    packets, run = scored
    sha = json.loads((run / "run.json").read_text())["packets"][0]["sha256"]["acord_125"]["file"]
    url: list[str] = []
    since: list[float] = []
    done = threading.Event()
    clients: list[threading.Thread] = []

    def serving(process: subprocess.Popen[str]) -> bool:
        if not url:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith("packetbench view: serving "), line
            url.append(line.split()[3])
            for _ in range(4):
                client = threading.Thread(target=_hammer, args=(url[0], sha, done))
                client.start()
                clients.append(client)
            since.append(time.monotonic())
            return False
        return time.monotonic() - since[0] > 1.5

    try:
        code, stderr, took = _stop(
            ["view", str(run), "--packets", str(packets), "--port", "0", "--cache", str(tmp_path)],
            stop,
            serving,
        )
    finally:
        done.set()
        for client in clients:
            client.join()
    _assert_stopped(stop, code, stderr, took)


def test_view_ends_on_sigterm_with_one_line(scored: tuple[Path, Path], tmp_path: Path) -> None:
    """The fast tier's case of the above: SIGTERM to a server (it used to die with -15)."""
    packets, run = scored
    code, stderr, took = _stop(
        ["view", str(run), "--packets", str(packets), "--port", "0", "--cache", str(tmp_path)],
        signal.SIGTERM,
        lambda process: bool(process.stdout and process.stdout.readline()),
    )
    _assert_stopped(signal.SIGTERM, code, stderr, took)


def _after(seconds: float) -> Callable[[subprocess.Popen[str]], bool]:
    """Ready `seconds` after it is first asked (once the command handles the signal)."""
    since: list[float] = []

    def ready(_: subprocess.Popen[str]) -> bool:
        since.append(time.monotonic())
        return since[-1] - since[0] > seconds

    return ready


@pytest.mark.parametrize(
    "command",
    [
        "report",
        pytest.param("verify", marks=pytest.mark.slow),
        pytest.param("extract", marks=pytest.mark.slow),
        pytest.param("audit", marks=pytest.mark.slow),
        pytest.param("difficulty", marks=pytest.mark.slow),
        pytest.param("generate", marks=pytest.mark.slow),
    ],
)
def test_every_command_ends_on_sigterm_as_on_sigint(
    scored: tuple[Path, Path], tmp_path: Path, command: str
) -> None:
    """SIGTERM a second or two into each command: one line and exit 143, as Ctrl-C is 130
    (a command used to die of SIGTERM with nothing said, leaving what it held)."""
    packets, run = scored
    n3 = str(PACKETS / "N3-000001")
    args = {
        "report": ["report", str(run), "--out", str(tmp_path / "report")],
        "verify": [
            "verify",
            str(shutil.copytree(run, tmp_path / "run")),
            "--packets",
            str(packets),
        ],
        "extract": [
            "extract",
            "--provider",
            "sim",
            "--packets",
            str(PACKETS),
            "--out",
            str(tmp_path / "x"),
        ],
        "audit": ["audit", "--packets", n3],
        "difficulty": ["difficulty", "--packets", n3],
        "generate": ["generate", "--tiers", "N3", "--count", "2", "--out", str(tmp_path / "g")],
    }[command]
    code, stderr, took = _stop(args, signal.SIGTERM, _after(0.3))
    _assert_stopped(signal.SIGTERM, code, stderr, took)
    assert not list(tmp_path.rglob(".packetbench.lock")) and not list(tmp_path.rglob(".results-*"))


@pytest.mark.parametrize(
    "stop",
    [signal.SIGTERM, pytest.param(signal.SIGINT, marks=pytest.mark.slow)],
    ids=lambda s: s.name,
)
def test_extract_from_an_api_ends_mid_run(tmp_path: Path, stop: signal.Signals) -> None:
    """`extract` asking the stub OpenAI API (the real SDK, over HTTP), stopped once three
    records are written: asyncio's own stop (the main task cancelled, its cleanups awaited)
    serves SIGTERM as SIGINT; one line, no traceback of a task, within 2 s."""
    stub = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "packetbench.benchmark.harness.stub",
            "--api",
            "openai",
            "--packets",
            str(PACKETS / "N1-000001"),
            "--delay",
            "0.3",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert stub.stdout is not None
        url = stub.stdout.readline().strip()
        out = tmp_path / "run"
        code, stderr, took = _stop(
            [
                "extract",
                "--provider",
                "openai",
                "--model",
                "stub-model",
                "--base-url",
                url,
                "--packets",
                str(PACKETS / "N1-000001"),
                "--out",
                str(out),
                "--no-cache",
            ],
            stop,
            lambda _: len(list(out.glob("extractions/*/*.json"))) >= 3,
            env={"OPENAI_API_KEY": "stub-key"},
        )
    finally:
        assert stub.stdin is not None
        stub.stdin.close()
        stub.wait(timeout=30)
        if stub.stdout is not None:
            stub.stdout.close()
    _assert_stopped(stop, code, stderr, took)
    assert "--resume" in stderr  # how to continue


# A stop whose handler runs where Python drops exceptions: inside a weakref callback (the
# import system's lock callback is one). The handler's raise is printed as "Exception
# ignored" and lost; the process must stop all the same, at the next bytecode outside.
_IN_A_CALLBACK = """
import gc, os, signal, sys, time, weakref
from packetbench.core import stopping

stopping.install()

class Thing:
    pass

def callback(_: object) -> None:
    os.kill(os.getpid(), signal.{name})
    for _ in range(100_000):  # bytecodes: the handler runs here, and its raise is dropped
        pass

thing = Thing()
ref = weakref.ref(thing, callback)
try:
    del thing
    gc.collect()
    time.sleep(5)
    print("ran on")
except KeyboardInterrupt as stop:
    print(type(stop).__name__)
"""


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_stop_raised_inside_a_callback_is_not_lost(stop: signal.Signals) -> None:
    script = _IN_A_CALLBACK.replace("{name}", stop.name)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    expected = "Terminated" if stop == signal.SIGTERM else "KeyboardInterrupt"
    assert (done.returncode, done.stdout.strip()) == (0, expected), done.stderr
    assert "Exception ignored" not in done.stderr
    assert time.monotonic() - started < 4  # stopped, not after the 5 s sleep


# A command whose stop was swallowed on the way (a library that takes an interrupted DuckDB
# query for "no database here" goes on): run through the command line's own `main`.
_SWALLOWED = """
import os, signal, sys
import typer
from packetbench import cli

@cli.app.command("swallow")
def swallow() -> None:
    try:
        os.kill(os.getpid(), signal.{name})
        for _ in range(100_000):
            pass
    except KeyboardInterrupt:
        pass  # what the library did
    typer.echo("done")

sys.argv = ["packetbench", "swallow"]
cli.main()
"""


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_command_that_swallowed_its_stop_still_ends_as_stopped(stop: signal.Signals) -> None:
    script = _SWALLOWED.replace("{name}", stop.name)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    expected, word = STOPS[stop]
    assert done.returncode == expected, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.strip() == f"packetbench: {word}", done.stderr
