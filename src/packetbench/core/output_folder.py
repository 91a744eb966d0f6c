"""One way a command writes an output folder whole: `release build`, `publish`, `refresh`
and `export`, and `leaderboard --out`.

- Refused before any work, in one line (exit 2): a path that is not a folder, a link, a
  folder inside a release (`core.sealed`), a folder holding anything the command does not
  write (--force replaces the command's own files, never a file of the user's), and an
  existing output without --force.
- One writer at a time: a lock file beside the folder (``.NAME.packetbench.lock``,
  `core.locking`), so a second writer is refused, naming the first.
- Built in a scratch folder beside it named by the writer's process (``.NAME.partial-PID``)
  and put in place whole: the old folder renamed aside (``.NAME.old-PID``), the new one
  renamed in, the old one removed. A full disk, an error or a signal leaves every old file
  or every new one, never a new file beside an old one; the scratch folder is removed.
- What a killed writer left beside the folder (a scratch folder, or the old folder it had
  renamed aside) is removed, or put back, by the next command that writes or reads the
  folder (`recover`).
- A write that fails is one line naming the file it was for (`OutputFolder.shown`), never
  the scratch folder, and never "standard output".
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from packetbench.core import sealed, stopping
from packetbench.core.errors import BadInput, InputError, UsageError, WriteFailed
from packetbench.core.locking import hold, remove_stale
from packetbench.core.worker_pool import alive
from packetbench.core.writing import machine_refused, naming, write_error


@dataclass(frozen=True)
class OutputFolder:
    """An output folder being written: `staging` is where its files go, `out` where they
    will be once the block ends without an error."""

    out: Path
    staging: Path

    def shown(self, path: Path) -> Path:
        """Where `path` (a file under `staging`) will be: what a message names."""
        try:
            return self.out / path.relative_to(self.staging)
        except ValueError:
            return path

    @contextmanager
    def naming(self, path: Path) -> Iterator[None]:
        """A write of `path` (under `staging`) that fails inside the block names the file
        it was for."""
        with naming(self.shown(path)):
            yield

    def write(self, relative: str, data: bytes) -> None:
        """Write the file `relative` of the folder (a failure names it)."""
        path = self.staging / relative
        with self.naming(path):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def _lock_name(out: Path) -> str:
    return f".{out.name}.packetbench.lock"


def _scratch(out: Path, kind: str) -> Path:
    return out.parent / f".{out.name}.{kind}-{os.getpid()}"


# The scratch a writer of NAME names by its pid, .NAME.KIND-PID: its new folder (partial; a
# release's writers named theirs publish and refresh too) and the old one it moved aside.
# Nothing else beside a folder is taken for a writer's.
_KINDS = ("partial", "old", "publish", "refresh")


def _left_behind(out: Path) -> re.Pattern[str]:
    kinds = "|".join(_KINDS)
    return re.compile(rf"^\.{re.escape(out.name)}\.({kinds})-(\d+)$")


def recover(out: Path) -> None:
    """Remove what killed writers of `out` left beside it (their scratch folders), and put
    back the old folder one had renamed aside when it died before the new one took its
    place. Only what a process that is gone left; nothing is said when the parent cannot be
    written (a read-only copy keeps its leftovers, and they are never read)."""
    parent = out.parent
    try:
        entries = sorted(parent.iterdir())
    except OSError:
        return
    remove_stale(parent, _lock_name(out))
    pattern = _left_behind(out)
    for entry in entries:
        found = pattern.match(entry.name)
        if found is None or not entry.is_dir() or entry.is_symlink():
            continue
        owner = int(found.group(2))
        if owner == os.getpid() or alive(owner):
            continue
        try:
            if found.group(1) == "old" and not os.path.lexists(out):
                entry.rename(out)
            else:
                shutil.rmtree(entry)
        except OSError:
            continue


def check(
    out: Path,
    names: frozenset[str],
    *,
    command: str,
    force: bool,
    what: str,
    release: bool,
    ours: Callable[[Path], bool] | None = None,
) -> None:
    """The refusals of `output_folder`, for a command to make before its work starts."""
    if out.is_symlink():
        raise UsageError(f"{out}: a symbolic link; give the folder it points to")
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    sealed.refuse_inside(out, itself=not release)
    if not out.is_dir():
        return
    try:
        present = sorted(entry.name for entry in out.iterdir())
    except OSError as error:
        raise BadInput(f"{out}: unreadable ({error.strerror or type(error).__name__})") from None
    foreign = [
        name for name in present if name not in names or (ours is not None and not ours(out / name))
    ]
    if foreign:
        raise UsageError(
            f"{out}: holds {foreign[0]}, which {command} did not write; --force replaces only "
            f"a {what} (choose another folder)"
        )
    if present and not force:
        raise UsageError(f"{out / present[0]}: already exists (use --force to replace the {what})")


@contextmanager
def output_folder(
    out: Path,
    names: frozenset[str],
    *,
    command: str,
    force: bool,
    what: str,
    release: bool = False,
    ours: Callable[[Path], bool] | None = None,
) -> Iterator[OutputFolder]:
    """Write the folder `out` whole (see the module docstring): the block writes its files
    into the yielded folder's `staging`; `out` is replaced once the block has ended without
    an error. `names` are what the command writes at the top of the folder, and `ours` tells
    a file of one of those names the command wrote from one of the user's (a README.md):
    anything else there is the user's, and refused. `release` when `out` is itself a
    release (a command writing releases)."""

    if out.name in ("", ".."):  # `--out .`: named, and replaced, by its full path
        out = out.resolve()

    def refuse() -> None:
        check(out, names, command=command, force=force, what=what, release=release, ours=ours)

    refuse()
    parent = out.parent
    with hold(parent, name=_lock_name(out), shown=out):
        recover(out)
        refuse()  # again, now that no other writer can change it
        staging = _scratch(out, "partial")
        try:
            staging.mkdir()
        except OSError as error:
            raise write_error(out, error) from None
        folder = OutputFolder(out, staging)
        try:
            yield folder
            _replace(folder)
        except OSError as error:
            shutil.rmtree(staging, ignore_errors=True)
            raise _named(folder, error) from None
        except (InputError, WriteFailed) as error:
            shutil.rmtree(staging, ignore_errors=True)
            # a message naming a scratch path names the file it was for
            raise type(error)(str(error).replace(str(staging), str(out))) from None
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise


def _named(folder: OutputFolder, error: OSError) -> InputError | WriteFailed:
    """The one-line error of an OSError of the block: a write of a file of the folder (or
    one that names no file) names the file it was for; a read of a file elsewhere names that
    file as unreadable."""
    named = [
        Path(name)
        for name in (error.filename, error.filename2)  # a copy names its source and target
        if isinstance(name, str | os.PathLike)
    ]
    written = [p for p in named if p == folder.staging or folder.staging in p.parents]
    if written or not named:
        return write_error(folder.shown(written[0]) if written else folder.out, error)
    if machine_refused(error):
        return write_error(named[0], error)
    return BadInput(f"{named[0]}: unreadable ({error.strerror or type(error).__name__})")


def _replace(folder: OutputFolder) -> None:
    """Put `folder.staging` in place of `folder.out`: two renames, no signal between them."""
    out, staging = folder.out, folder.staging
    with stopping.no_signals():
        if not out.exists():
            staging.rename(out)
            return
        old = _scratch(out, "old")
        out.rename(old)
        try:
            staging.rename(out)
        except BaseException:
            old.rename(out)
            raise
    shutil.rmtree(old, ignore_errors=True)
