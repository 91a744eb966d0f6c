"""Which processes are still alive, read from /proc (Linux) without psutil.

The kill tests start a command in a new session (its own process group), SIGKILL it, and then
ask whether any process of that group is still running. A zombie (state Z or X) is already
dead: only its parent has yet to collect its exit status.
"""

from __future__ import annotations

import os
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


def named(pgid: int, name: str) -> dict[int, float]:
    """The living processes of group `pgid` whose command is `name`: pid -> when it started
    (seconds since boot, to the kernel's clock tick)."""
    found = {}
    for pid in living(pgid):
        try:
            if (PROC / str(pid) / "comm").read_text().strip() == name:
                found[pid] = started(pid)
        except (OSError, ValueError):
            continue  # it ended meanwhile
    return found


def started(pid: int) -> float:
    """When process `pid` started, in seconds since boot."""
    text = (PROC / str(pid) / "stat").read_text()
    ticks = int(text[text.rindex(")") + 2 :].split()[19])
    return ticks / os.sysconf("SC_CLK_TCK")


def uptime() -> float:
    """Seconds since boot, on the clock `started` reads."""
    return float((PROC / "uptime").read_text().split()[0])
