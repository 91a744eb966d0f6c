"""One writer per output folder: an exclusive lock file naming its holder.

Every command that writes a folder (generate, extract, score, run, the canonical suite build)
holds ``<folder>/.packetbench.lock`` while it writes. The lock is a `flock` on that file,
which the kernel drops when its process dies, so a lock left by a killed writer (a dead pid)
is stale by construction and the next writer takes it over. The file holds the holder's pid,
host, command line and start time, so a second writer is refused with one line naming who
holds the folder. Taking a folder this process already holds is allowed (``run`` holds its
folder while its stages take their own).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from packetbench.core import sealed
from packetbench.core.errors import InputError
from packetbench.core.safe_read import read_text
from packetbench.core.writing import machine_refused, refused_write, write_error

LOCK_NAME = ".packetbench.lock"
_HELD: dict[tuple[Path, str], int] = {}  # (folder, lock file) held here, and how often


class FolderBusy(InputError):
    """Another process is writing the folder; the message names it (exit 2)."""


def _holder(path: Path) -> str:
    """Who holds the lock file `path`, as the refusal names it."""
    info: dict[str, object] = {}
    for _ in range(20):  # the holder writes its details just after taking the lock
        try:
            info = json.loads(read_text(path, "settings") or "{}")
        except (OSError, ValueError):
            info = {}
        if info:
            break
        time.sleep(0.05)
    if not isinstance(info, dict) or not info:
        return "another process"
    host = info.get("host")
    where = f" on {host}" if host and host != socket.gethostname() else ""
    return f"pid {info.get('pid')}{where} ({info.get('command')}) since {info.get('since', '?')}"


def _command() -> str:
    words = [Path(sys.argv[0]).name if sys.argv else "python", *sys.argv[1:]]
    text = " ".join(words)
    return text if len(text) <= 200 else text[:197] + "..."


@contextmanager
def hold(
    folder: Path,
    wait: bool = False,
    create: bool = True,
    name: str = LOCK_NAME,
    shown: Path | None = None,
) -> Iterator[None]:
    """Hold `folder` (created if missing) for writing until the block ends.

    FolderBusy naming the holder when another live process holds it, unless `wait`, which
    waits for it instead. Re-entrant within one process. Folders made for the lock are
    removed again when the block leaves them empty. `name` is the lock file's (another
    than LOCK_NAME locks one thing in the folder, not the folder: an output folder beside
    it, which `shown` names in the messages). Without `create`, a folder that is not
    there is not held (the command reading it will say what is wrong).
    """
    if not create and not folder.is_dir():
        yield
        return
    sealed.refuse_inside(folder)
    if shown is None:
        shown = folder
    key = (folder.resolve(), name)
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield
        finally:
            _HELD[key] -= 1
        return
    created = [p for p in (folder, *folder.parents) if not p.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        if machine_refused(error):
            raise refused_write(folder, error) from None
        raise InputError(
            f"{folder}: cannot create the folder ({error.strerror or type(error).__name__})"
        ) from None
    path = folder / name
    while True:
        try:
            # O_NOFOLLOW: a lock file that is a link (in a folder someone else made) would
            # have us write our details through it, into whatever file it names.
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise InputError(
                    f"{path}: a symbolic link, not a lock file; refusing to write through it"
                ) from None
            _remove_made(created)
            raise write_error(path if machine_refused(error) else shown, error) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise InputError(f"{path}: not a regular file, not a lock file; refusing to use it")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(fd)
            raise FolderBusy(f"{shown}: is being written by {_holder(path)}") from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder removed it as we opened it: take the new one
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": _command(),
        "since": time.strftime("%H:%M:%S"),
    }
    try:
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps(info).encode("utf-8"))
    except OSError as error:  # a full disk: no lock file is left, empty or not
        path.unlink(missing_ok=True)
        os.close(fd)
        _remove_made(created)
        raise write_error(path, error) from None
    _HELD[key] = 1
    try:
        yield
    finally:
        del _HELD[key]
        try:
            path.unlink(missing_ok=True)  # before the unlock: a waiter then retakes a new file
        finally:
            os.close(fd)
        _remove_made(created)


def _remove_made(created: list[Path]) -> None:
    """Remove the folders made for a lock, innermost first, while they are empty: a refused
    command leaves no empty folder it made."""
    for made in created:
        try:
            made.rmdir()
        except OSError:
            break


def remove_stale(folder: Path, name: str = LOCK_NAME) -> None:
    """Remove the lock file `name` of `folder` when nobody holds it (its writer was killed:
    the kernel dropped the lock, the file stayed). Taken the way `hold` takes it, so a
    writer that holds it meanwhile keeps it."""
    path = folder / name
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return  # held: not stale
        if os.stat(path).st_ino == os.fstat(fd).st_ino:
            path.unlink()
    except OSError:
        return
    finally:
        os.close(fd)
