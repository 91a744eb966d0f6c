"""Sealed folders: a release, whose COMMITMENT lists the sha256 of every file it holds.

Nothing but the release's own writers may write into one: a run, an export or a leaderboard
written inside a release is a file its COMMITMENT does not list, and `release verify` fails
from then on. Every writer of a folder asks `refuse_inside` first (the lock of
`core.locking` does, and so every command that holds its output folder).
"""

from __future__ import annotations

import stat
from pathlib import Path

from packetbench.core.errors import UsageError

# The files that make a folder a release (benchmark.release.layout names them from here).
RELEASE_FILES = ("release.json", "COMMITMENT")


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def sealed(folder: Path) -> bool:
    """Whether `folder` is a release folder (holds release.json and COMMITMENT)."""
    return all(_is_file(folder / name) for name in RELEASE_FILES)


def release_around(path: Path, itself: bool = True) -> Path | None:
    """The release folder `path` is in (or is, with `itself`), or None."""
    resolved = path.resolve()
    for folder in (resolved, *resolved.parents) if itself else resolved.parents:
        if sealed(folder):
            return folder
    return None


def refuse_inside(path: Path, itself: bool = True) -> None:
    """UsageError when `path` is inside a release folder (or is one, with `itself`)."""
    found = release_around(path, itself)
    if found is None:
        return
    where = "is a release folder" if found == path.resolve() else f"is inside the release {found}"
    raise UsageError(
        f"{path}: {where}; a release holds only the files its COMMITMENT lists (write elsewhere)"
    )
