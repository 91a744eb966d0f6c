"""SIGINT during `packetbench generate --jobs 2`: it stops at once, leaves only complete
packets (each listed in corpus.json), writes nothing after it ends, and says what to run to
continue; that command finishes the batch."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from packetbench.generator.corpus import verify
from tests.support.paths import cli_path
from tests.support.processes import wait_until_gone


def _interrupted(tier: str, count: int, tmp_path: Path) -> tuple[Path, list[str]]:
    """`generate --jobs 2` of `count` packets of `tier`, sent SIGINT once its first packet is
    there: it must end at once, with exit 130 and the command that continues; returns its
    output folder and its arguments."""
    out = tmp_path / "corpus"
    args = ["generate", "--tiers", tier, "--count", str(count), "--jobs", "2", "--out", str(out)]
    process = subprocess.Popen(
        [cli_path(), *args, "--force"],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 300
    while not (out.is_dir() and any(p.name.startswith(f"{tier}-") for p in out.iterdir())):
        assert process.poll() is None, "generate ended before it was interrupted"
        assert time.monotonic() < deadline, "generate never got going"
        time.sleep(0.02)
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)  # a Ctrl-C reaches the whole group
    try:
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    took = time.monotonic() - sent
    assert wait_until_gone(process.pid) == [], "a process of generate outlived it"
    hint = " ".join([*args, "--resume"])
    assert (process.returncode, stderr) == (
        130,
        f"packetbench: interrupted; continue with: packetbench {hint}\n",
    )
    assert took < 20, f"generate took {took:.0f} s to stop"
    return out, args


@pytest.mark.slow
@pytest.mark.parametrize(("tier", "count"), [("N1", 10), ("N5", 3)])
def test_ctrl_c_during_generate_jobs_2_says_how_to_continue(
    tier: str, count: int, tmp_path: Path
) -> None:
    """N5 packets (scans, hundreds of rows) take each worker seconds: the Ctrl-C comes while
    both are halfway through one."""
    out, args = _interrupted(tier, count, tmp_path)
    hint = " ".join([*args, "--resume"])
    left = sorted(p.name for p in out.iterdir())
    time.sleep(2)
    assert sorted(p.name for p in out.iterdir()) == left, (
        f"packets written after the interrupt: {left}"
    )
    packets = [name for name in left if name.startswith(f"{tier}-")]
    # Ten N1 packets on two workers: the Ctrl-C comes after the first is written, long before
    # the last (six were too few on a loaded CI machine, where the test polled late).
    assert len(packets) < count, left
    assert not [name for name in left if name.startswith(".")], left  # nothing half written
    assert ".packetbench.lock" not in left, left
    verify = subprocess.run(
        [cli_path(), "corpus", "verify", str(out)], capture_output=True, text=True, check=False
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert f"{len(packets)} packet(s)" in verify.stdout  # every packet left is complete, listed
    resumed = subprocess.run(
        [cli_path(), *hint.split()], capture_output=True, text=True, check=False
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{count} packet(s)" in resumed.stdout.splitlines()[-1], resumed.stdout


def test_ctrl_c_during_generate_leaves_only_complete_packets(tmp_path: Path) -> None:
    """The fast tier's check (N1, no resume): after the Ctrl-C and the one line saying how to
    continue, only complete packets are left, nothing half written and no lock, nothing more
    is written afterwards, and corpus.json lists every packet left (checked file by file)."""
    out, _ = _interrupted("N1", 10, tmp_path)
    left = sorted(p.name for p in out.iterdir())
    time.sleep(0.5)
    assert sorted(p.name for p in out.iterdir()) == left
    packets = [name for name in left if name.startswith("N1-")]
    assert 0 < len(packets) < 10, left
    assert not [name for name in left if name.startswith(".")], left
    for name in packets:  # each packet left is whole: its truth and every manifest's file
        folder = out / name
        assert (folder / "packet_truth.json").is_file(), name
        for manifest in folder.glob("manifest_*.json"):
            listed = json.loads(manifest.read_text())
            data = (folder / listed["file"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == listed["sha256"], (name, manifest.name)
    assert sorted(entry.packet_id for entry in verify(out).entries) == packets
