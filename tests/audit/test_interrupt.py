"""SIGINT during `packetbench audit`: one line, exit 130, promptly, and no process left.

A Ctrl-C in a terminal reaches every process of the command's group; `kill -INT` reaches the
command alone. Either way the workers are stopped rather than waited for (a pool's own
shutdown runs every task in flight to its end: minutes of OCR) and none prints a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.ocr import needs_tesseract
from tests.support.paths import PACKETS, cli_path
from tests.support.processes import children, living, named, uptime, wait_until_gone


def _again(args: list[str]) -> str:
    """What an interrupted audit prints: it keeps nothing, so the way on is to run it again."""
    return (
        f"packetbench: interrupted; an audit keeps nothing partial; run it again: "
        f"packetbench {' '.join(args)}\n"
    )


def _interrupt(
    args: list[str], ready: Callable[[int], bool], whole_group: bool
) -> tuple[int, str, float]:
    """Start `packetbench args` in its own session, SIGINT it once `ready(pid)`, and return
    its exit code, its stderr and the seconds it took to end after the signal."""
    process = subprocess.Popen(
        [cli_path(), *args],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        # Python leaves SIGINT ignored in a child whose parent ignores it (a background job).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while not ready(process.pid):
        assert process.poll() is None, "the audit ended before it was interrupted"
        assert time.monotonic() < deadline, "the audit never got going"
        time.sleep(0.01)
    sent = time.monotonic()
    if whole_group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    took = time.monotonic() - sent
    assert wait_until_gone(process.pid) == [], "a process of the audit outlived it"
    return process.returncode, stderr, took


def test_ctrl_c_stops_the_workers_and_says_one_line() -> None:
    code, stderr, _ = _interrupt(
        ["audit", "--jobs", "2", "--packets", str(PACKETS)],
        lambda pid: len(children(pid)) >= 2,
        whole_group=True,
    )
    assert (code, stderr) == (130, _again(["audit", "--jobs", "2", "--packets", str(PACKETS)]))


@needs_tesseract
@pytest.mark.slow
def test_kill_int_during_ocr_ends_at_once() -> None:
    """The workers are each OCR-reading a packet (minutes): they are killed, not awaited."""
    code, stderr, took = _interrupt(
        ["audit", "--ocr", "--jobs", "2", "--packets", str(PACKETS)],
        lambda pid: sum(len(children(worker)) for worker in children(pid)) >= 1,
        whole_group=False,
    )
    assert (code, stderr) == (
        130,
        _again(["audit", "--ocr", "--jobs", "2", "--packets", str(PACKETS)]),
    )
    assert took < 20, f"the audit took {took:.0f} s to stop"


@needs_tesseract
@pytest.mark.slow
def test_kill_int_in_one_process_says_one_line() -> None:
    code, stderr, _ = _interrupt(
        ["audit", "--ocr", "--packets", str(PACKETS / "N3-000001")],
        lambda pid: len(children(pid)) >= 1,  # tesseract is reading a page
        whole_group=False,
    )
    assert (code, stderr) == (
        130,
        _again(["audit", "--ocr", "--packets", str(PACKETS / "N3-000001")]),
    )


@needs_tesseract
@pytest.mark.slow
def test_ctrl_c_during_ocr_jobs_2_leaves_no_tesseract_reading(tmp_path: Path) -> None:
    """A Ctrl-C while tesseract reads a long page under --jobs 2: no tesseract starts after
    it, none reads on once the command has ended (they used to, orphaned, for seconds: a
    worker ignores the terminal's SIGINT and so did the tesseract it started), no scratch
    file is left, and the last line says what to run to continue."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    args = ["audit", "--ocr", "--jobs", "2", "--packets", str(PACKETS)]
    process = subprocess.Popen(
        [cli_path(), *args],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(scratch)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    # A tesseract has read its page in (one still reading its input ends when its worker
    # does; on a loaded machine that takes a second or two) and has been reading it for a
    # while: a page read that long is a long one, with seconds of OCR ahead of it.
    while not any(uptime() - at > 3 for at in named(process.pid, "tesseract").values()):
        assert process.poll() is None, "the audit ended before it was interrupted"
        assert time.monotonic() < deadline, "the audit never got going"
        time.sleep(0.005)
    seen = named(process.pid, "tesseract")
    sent = uptime()
    os.killpg(process.pid, signal.SIGINT)
    while process.poll() is None:
        seen.update(named(process.pid, "tesseract"))
        time.sleep(0.002)
    # Every process the command started ended before it did (an orphan read on for seconds).
    left = living(process.pid)
    _, stderr = process.communicate()
    if left:
        os.killpg(process.pid, signal.SIGKILL)
    assert left == [], "processes of the audit outlived it"
    late = {pid: round(at - sent, 2) for pid, at in seen.items() if at > sent + 0.02}
    assert late == {}, f"tesseract started after the interrupt: {late}"
    assert sorted(p.name for p in scratch.iterdir()) == []
    assert process.returncode == 130
    assert stderr == (
        f"packetbench: interrupted; an audit keeps nothing partial; run it again: "
        f"packetbench {' '.join(args)}\n"
    )
