"""Writing files so that no reader and no crash ever sees half of one, and what the machine's
refusal of a write becomes (one line, nothing half written left).

`write_atomic` writes a temporary file beside its target and renames it into place, with the
mode an ordinary write would give it; `write_json` writes the stable JSON layout that way;
`remove_left_behind` deletes what a killed writer left; `check_outputs` is the one policy for
files a command replaces (only with --force). `write_error` is the one way a failed write
becomes a message: it names the file that failed (`naming` gives the name to writes that
carry none, such as a Parquet writer's), never "standard output".
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from packetbench.core import stopping
from packetbench.core.errors import BadInput, InputError, UsageError, WriteFailed
from packetbench.core.jsonfile import dump_json
from packetbench.core.worker_pool import alive

_UMASK_LOCK = threading.Lock()
# What a killed writer leaves: write_atomic's temporary files and load_run's scratch folders,
# named after the process that made them, so that another process can tell they are stale.
_LEFT_BEHIND = re.compile(r"^\.(?:.+\.tmp|results)-(\d+)-")
_OLD_SCRATCH = re.compile(r"^\.results-[a-z0-9_]{8}$")  # before they carried the process id


def umask() -> int:
    """The process umask, read without changing it where the system allows."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:  # elsewhere the only way to read it is to set it and put it back
        current = os.umask(0o022)
        os.umask(current)
    return current


def remove_left_behind(folder: Path, name: str = "") -> None:
    """Delete what killed writers left in `folder` (temporary files of target `name`, or of
    every target when `name` is empty, and scratch folders) when their process is gone."""
    pattern = f".{name}.tmp-*" if name else ".*"
    for entry in folder.glob(pattern):
        found = _LEFT_BEHIND.match(entry.name)
        stale = (
            found is not None
            and int(found.group(1)) != os.getpid()
            and not alive(int(found.group(1)))
        ) or bool(_OLD_SCRATCH.match(entry.name))
        if not stale:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


# What the machine, not the user, makes a write fail with: no space, no quota, a file size
# limit, a failing disk. DuckDB reports them in its message only.
_MACHINE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
_MACHINE_WORDS = ("No space left on device", "Disk quota exceeded", "File too large")


def machine_refused(error: BaseException) -> bool:
    """Whether `error` (an OSError, or a DuckDB error) is the machine refusing a write."""
    if isinstance(error, OSError):
        return error.errno in _MACHINE_ERRNOS
    return any(words in str(error) for words in _MACHINE_WORDS)


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.errno:
        return os.strerror(error.errno)  # pyarrow's own strerror wraps the system's words
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return next((w for w in _MACHINE_WORDS if w in str(error)), type(error).__name__)


def refused_write(path: Path | str, error: BaseException) -> WriteFailed:
    """The one-line WriteFailed for a write of `path` the machine refused."""
    return WriteFailed(f"{path}: cannot write ({_reason(error)}); nothing half written is left")


def write_error(path: Path | str, error: BaseException) -> WriteFailed | InputError:
    """The one-line error of a write of `path` that failed with `error`: WriteFailed (exit 1)
    when the machine refused it (a full disk), BadInput (exit 2) when the path cannot be
    written (a read-only folder, a file where a folder belongs)."""
    if machine_refused(error):
        return refused_write(path, error)
    return BadInput(f"{path}: cannot write ({_reason(error)})")


@contextmanager
def naming(path: Path | str) -> Iterator[None]:
    """Writes inside the block that the machine refuses, or that fail naming no file, are
    one line naming `path`: for writers whose errors name no file (pyarrow's, DuckDB's,
    `os.write`'s) and for files written under a scratch name. An error that names a file of
    its own (a read of an input) is left to the caller."""
    try:
        yield
    except OSError as error:
        if error.filename is not None and not machine_refused(error):
            raise
        raise write_error(path, error) from None
    except Exception as error:
        if machine_refused(error):
            raise refused_write(path, error) from None
        raise


def write_atomic(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write `data` (bytes, or pieces of them written as they come) to `path` so a reader
    (or a crash) never sees a partial file.

    The file gets the mode an ordinary write would give it (0666 less the umask), not
    mkstemp's 0600. A temporary file of the same target left by a killed writer is removed.
    A path that cannot be written is BadInput naming it; a write the machine refuses (a full
    disk) is WriteFailed, and the temporary file is gone either way.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        if machine_refused(error):
            raise refused_write(path, error) from None
        raise BadInput(f"{path.parent}: cannot create the folder ({_reason(error)})") from None
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, cannot write a file there")
    remove_left_behind(path.parent, path.name)
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.tmp-{os.getpid()}-", dir=path.parent
        )
    except OSError as error:
        raise write_error(path, error) from None
    try:
        with os.fdopen(handle, "wb") as out:
            os.fchmod(out.fileno(), 0o666 & ~umask())
            if isinstance(data, bytes):
                out.write(data)
            else:
                for piece in data:
                    out.write(piece)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise write_error(path, error) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_together(files: dict[Path, bytes]) -> None:
    """Write several files that describe one thing (a report's Markdown and HTML): each to
    a temporary file first, then all renamed into place, so a write the machine refuses (a
    full disk) leaves every old file as it was, never a new one beside an old one."""
    written: dict[Path, Path] = {}
    try:
        for path, data in files.items():
            temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}-together")
            written[path] = temporary
            write_atomic(temporary, data)
        with stopping.no_signals():
            for path, temporary in written.items():
                os.replace(temporary, path)
    except WriteFailed as error:
        for temporary in written.values():
            temporary.unlink(missing_ok=True)
        message = str(error)
        for path, temporary in written.items():  # named as the file it was for
            message = message.replace(str(temporary), str(path))
        raise WriteFailed(message) from None
    except BaseException:
        for temporary in written.values():
            temporary.unlink(missing_ok=True)
        raise


def check_outputs(folder: Path, names: tuple[str, ...], force: bool, what: str) -> None:
    """The one policy for files a command writes: an existing one is replaced only with
    `force`, and never when something else (a folder) is in its place. `what` names the
    kind of file in the message ("report")."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: exists and is not a folder")
    for name in names:
        path = folder / name
        if path.is_dir():
            raise UsageError(f"{path}: is a folder, not a {what} (move it away first)")
        if path.exists() and not force:
            raise UsageError(f"{path}: already exists (use --force to replace it)")


def write_json(path: Path, data: Any) -> None:
    write_atomic(path, dump_json(data))
