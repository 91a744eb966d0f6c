"""Which processes are still alive, read from /proc (Linux) without psutil.

The kill tests start a command in a new session (its own process group), SIGKILL it, and then
ask whether any process of that group is still running. A zombie (state Z or X) is already
dead: only its parent has yet to collect its exit status.
"""

from __future__ import annotations

import time
from pathlib import Path

PROC = Path("/proc")


def _stat(pid_dir: Path) -> tuple[int, str, int] | None:
    """(ppid, state, pgid) of one /proc/<pid>, or None when it vanished meanwhile."""
    try:
        text = (pid_dir / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], int(fields[2])


def living(pgid: int) -> list[int]:
    """Pids of the processes of process group `pgid` that are not zombies."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(entry)
        if stat is not None and stat[2] == pgid and stat[1] not in "ZX":
            found.append(int(entry.name))
    return sorted(found)


def children(pid: int) -> list[int]:
    """Pids of the living processes whose parent is `pid`."""
    found = []
    for entry in PROC.iterdir():
        if (
            entry.name.isdigit()
            and (stat := _stat(entry)) is not None
            and stat[0] == pid
            and stat[1] not in "ZX"
        ):
            found.append(int(entry.name))
    return sorted(found)


def wait_until_gone(pgid: int, timeout: float = 10.0) -> list[int]:
    """Wait up to `timeout` seconds for group `pgid` to die out; return the survivors."""
    deadline = time.monotonic() + timeout
    while (alive := living(pgid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive
