"""Writing an output folder whole (`core.output_folder`): refused over files it did not
write and inside a release, one writer at a time, all of it replaced or none, and what a
killed writer left cleared by the next one."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from packetbench.core.errors import UsageError, WriteFailed
from packetbench.core.locking import FolderBusy
from packetbench.core.output_folder import output_folder, recover

NAMES = frozenset({"a.txt", "b.txt"})


def _write(out: Path, text: str, force: bool = True, fail: bool = False) -> None:
    with output_folder(out, NAMES, command="test", force=force, what="pair") as folder:
        folder.write("a.txt", text.encode())
        if fail:
            raise RuntimeError("stopped half way")
        folder.write("b.txt", text.encode())


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def test_all_of_the_folder_is_replaced_or_none_of_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _write(out, "old", force=False)
    assert _files(out) == {"a.txt": "old", "b.txt": "old"}
    with pytest.raises(RuntimeError):
        _write(out, "new", fail=True)
    assert _files(out) == {"a.txt": "old", "b.txt": "old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no scratch, no lock
    with pytest.raises(UsageError, match=re.escape("out/a.txt: already exists (use --force")):
        _write(out, "new", force=False)
    _write(out, "new")
    assert _files(out) == {"a.txt": "new", "b.txt": "new"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_file_of_the_user_is_never_replaced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.md").write_text("mine")
    with pytest.raises(
        UsageError, match=re.escape("out: holds notes.md, which test did not write")
    ):
        _write(out, "new")
    assert _files(out) == {"notes.md": "mine"}
    (out / "notes.md").unlink()
    (out / "a.txt").write_text("mine too")  # one of its names, but not one it wrote

    def ours(path: Path) -> bool:
        return path.read_text() != "mine too"

    with (
        pytest.raises(UsageError, match=re.escape("holds a.txt, which test did not write")),
        output_folder(out, NAMES, command="test", force=True, what="pair", ours=ours),
    ):
        pass
    assert _files(out) == {"a.txt": "mine too"}


def test_nothing_is_written_inside_a_release(tmp_path: Path) -> None:
    release = tmp_path / "rel"
    (release / "dev").mkdir(parents=True)
    for name in ("release.json", "COMMITMENT"):
        (release / name).write_text("{}")
    for out in (release / "dev" / "data", release / "board", release):
        with pytest.raises(UsageError, match="a release holds only the files its COMMITMENT"):
            _write(out, "x")
    assert sorted(p.name for p in release.iterdir()) == ["COMMITMENT", "dev", "release.json"]
    assert list((release / "dev").iterdir()) == []
    # a command writing releases replaces one (release build --force), never one inside one
    names = frozenset({"release.json", "COMMITMENT", "dev"})
    with output_folder(
        release, names, command="build", force=True, what="release", release=True
    ) as folder:
        folder.write("release.json", b"{}")
        folder.write("COMMITMENT", b"")
    assert sorted(p.name for p in release.iterdir()) == ["COMMITMENT", "release.json"]


HOLDER = """
import sys, time
from pathlib import Path
from packetbench.core.output_folder import output_folder
with output_folder(Path(sys.argv[1]), frozenset({"a.txt", "b.txt"}), command="test",
                   force=True, what="pair") as folder:
    folder.write("a.txt", b"half")
    print("writing", flush=True)
    time.sleep(60)
"""


def _holder(out: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(out)], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    if process.stdout.readline().strip() != "writing":
        _kill(process)
        pytest.fail("the holder did not start writing")
    return process


def _kill(process: subprocess.Popen[str]) -> None:
    """SIGKILL: nothing of the writer's own cleanup runs."""
    process.kill()
    process.communicate()


def test_a_second_writer_is_refused_naming_the_first(tmp_path: Path) -> None:
    out = tmp_path / "out"
    holder = _holder(out)
    try:
        with pytest.raises(FolderBusy, match=f"^{out}: is being written by pid {holder.pid} "):
            _write(out, "second")
    finally:
        _kill(holder)


def test_what_a_killed_writer_left_is_cleared_by_the_next(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _write(out, "old")
    holder = _holder(out)
    _kill(holder)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [".out.packetbench.lock", f".out.partial-{holder.pid}", "out"]
    recover(out)  # what a reader of the folder does first (release verify, export)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert _files(out) == {"a.txt": "old", "b.txt": "old"}


KILLED_BETWEEN_RENAMES = """
import os, signal, sys
from pathlib import Path
from packetbench.core.output_folder import output_folder

renamed = Path.rename

def rename(self, target):
    done = renamed(self, target)
    if ".old-" in Path(target).name:  # the old folder moved aside, the new one not yet in
        os.kill(os.getpid(), signal.SIGKILL)
    return done

Path.rename = rename
with output_folder(Path(sys.argv[1]), frozenset({"a.txt", "b.txt"}), command="test",
                   force=True, what="pair") as folder:
    folder.write("a.txt", b"new")
"""


def test_an_old_folder_moved_aside_by_a_killed_writer_is_put_back(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _write(out, "old")
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(KILLED_BETWEEN_RENAMES), str(out)], check=False
    )
    assert done.returncode == -signal.SIGKILL
    assert not out.exists()  # killed in the one moment the folder is not in its place
    recover(out)
    assert _files(out) == {"a.txt": "old", "b.txt": "old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_write_that_names_no_file_is_named_as_the_file_it_was_for(tmp_path: Path) -> None:
    """A Parquet writer's full disk says "[errno 28]" and names no file: the message names
    the file of the folder it was writing, never the scratch folder."""
    out = tmp_path / "data"
    with (
        pytest.raises(WriteFailed) as refused,
        output_folder(out, NAMES, command="test", force=False, what="pair") as folder,
        folder.naming(folder.staging / "a.txt"),
    ):
        raise OSError(28, "Error writing bytes to file. Detail: [errno 28] No space left")
    assert str(refused.value) == (
        f"{out}/a.txt: cannot write (No space left on device); nothing half written is left"
    )
    assert list(tmp_path.iterdir()) == []
