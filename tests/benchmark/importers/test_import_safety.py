"""`packetbench import nightmare` never loses what it did not write and never leaves half an
import: `--force` replaces the earlier import's packets and runs and nothing else in OUT; an
import stopped by SIGINT or SIGTERM, or by a full disk, leaves OUT as it was (and no folder
beside it), so the next import goes through."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.disks import namespaces as _namespaces
from tests.support.paths import cli_path


@pytest.mark.slow
def test_force_replaces_only_what_the_import_wrote(
    corpus: Path, tmp_path: Path, run_cli: Any
) -> None:
    out = tmp_path / "out"
    assert run_cli("import", "nightmare", str(corpus), "--out", str(out)).returncode == 0
    mine = out / "runs" / "my-paid-gpt5"  # a run the user made there, paid for
    mine.mkdir()
    (mine / "run.json").write_text('{"run_id": "my-paid-gpt5"}')
    (out / "notes.md").write_text("mine")
    stale = out / "runs" / "gpt55" / "scores"  # scored since: part of the import's run
    stale.mkdir()
    again = run_cli("import", "nightmare", str(corpus), "--out", str(out), "--force")
    assert again.returncode == 0, again.stderr
    assert (mine / "run.json").read_text() == '{"run_id": "my-paid-gpt5"}'
    assert (out / "notes.md").read_text() == "mine"
    assert not stale.exists()  # the import's own run was replaced whole
    assert sorted(p.name for p in (out / "runs").iterdir()) == ["gpt55", "gpt55_high", mine.name]
    assert sorted(json.loads((out / "import.json").read_text())["cohorts"]) == [
        "gpt55",
        "gpt55_high",
    ]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # nothing built beside it is left


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
@pytest.mark.slow
def test_a_stopped_import_leaves_nothing_and_the_next_goes_through(
    corpus: Path, tmp_path: Path, run_cli: Any, stop: signal.Signals
) -> None:
    out = tmp_path / "out"
    process = subprocess.Popen(
        [cli_path(), "import", "nightmare", str(corpus), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    # the moment its first files are written
    while not any((tmp_path / p.name / "packets").exists() for p in tmp_path.iterdir()):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.002)
    process.send_signal(stop)
    _, stderr = process.communicate(timeout=30)
    code, word = (130, "interrupted") if stop == signal.SIGINT else (143, "terminated")
    assert (process.returncode, stderr.splitlines()[0].split(":")[1].strip()) == (code, word)
    assert len(stderr.splitlines()) == 1, stderr
    assert list(tmp_path.iterdir()) == []  # neither OUT nor the folder it was built in
    done = run_cli("import", "nightmare", str(corpus), "--out", str(out))
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(not _namespaces(), reason="no user and mount namespaces")
def test_a_full_disk_is_one_line_and_leaves_nothing(corpus: Path, tmp_path: Path) -> None:
    """OUT on a tmpfs of 48 KiB (the import is about 120 KiB): one line, exit 1, OUT as it
    was (absent), nothing beside it."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = (
        f"mount -t tmpfs -o size=48k tmpfs {disk} && "
        f"{cli_path()} import nightmare {corpus} --out {disk}/out; code=$?; "
        f"ls -A {disk}; exit $code"
    )
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"packetbench: error: {disk}/out") and "No space left" in line, line
    assert done.stdout == ""  # `ls -A` of the disk: nothing left on it
