"""Real full disks and real read-only folders for the tests of what commands write.

A full disk is a small tmpfs mounted in a user and mount namespace of the test's own
(`unshare -rm`): the writes really fail with ENOSPC, and nothing outside the namespace sees
the mount. A read-only folder is a folder without write permission, which root ignores: a
test running as root runs the command with the capabilities that let it do so dropped
(`setpriv --bounding-set`), so the kernel refuses its writes with EACCES as it would a
user's. Tests skip where neither is possible.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

# The capabilities that let root write and read whatever the permission bits say.
OVERRIDES = "-dac_override,-dac_read_search,-fowner"


@functools.cache
def namespaces() -> bool:
    """Whether this machine lets the tests mount a tmpfs in a namespace of their own."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


small_disk = pytest.mark.skipif(not namespaces(), reason="no user and mount namespaces")


def size_kb(folder: Path) -> int:
    """What `folder` takes on a tmpfs, in KiB (a page per file at least)."""
    found = [p for p in folder.rglob("*")]
    used = sum(-(-p.stat().st_size // 4096) * 4 for p in found if p.is_file())
    return used + 4 * sum(1 for p in found if p.is_dir())


def on_small_disk(
    disk: Path,
    size_kb: int,
    command: str,
    after: Path,
    before: Path | None = None,
    fill: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run the shell `command` ({disk} for the disk) with a tmpfs of `size_kb` KiB mounted
    on `disk` holding a copy of what `before` holds, then copy what the disk holds to
    `after` (the mount is gone once the namespace ends). With `fill`, the disk is filled to
    its last byte before the command runs."""
    disk.mkdir(parents=True, exist_ok=True)
    setup = f"cp -a {before}/. {disk}/ && " if before is not None else ""
    filler = f"{{ dd if=/dev/zero of={disk}/.fill bs=4k 2>/dev/null; true; }} && " if fill else ""
    script = (
        f"mount -t tmpfs -o size={size_kb}k tmpfs {disk} && {setup}{filler}"
        f"{{ {command.format(disk=disk)}; }} && code=0 || code=$?; "
        f"rm -f {disk}/.fill; cp -a {disk} {after}; exit $code"
    )
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, check=False
    )


@functools.cache
def can_drop_privileges() -> bool:
    """Whether a command can be run here so that permission bits bind it."""
    if os.geteuid() != 0:
        return True
    if shutil.which("setpriv") is None:
        return False
    probe = subprocess.run(["setpriv", "--bounding-set", OVERRIDES, "true"], check=False)
    return probe.returncode == 0


def unprivileged() -> list[str]:
    """The prefix that runs a command so that a folder's permission bits bind it."""
    return ["setpriv", "--bounding-set", OVERRIDES] if os.geteuid() == 0 else []


read_only = pytest.mark.skipif(
    not can_drop_privileges(), reason="cannot run a command bound by permission bits"
)
