"""The canonical suite in packets/: one packet per tier at seed 1, locked by sha256.

    python -m packetbench.generator.suite [FOLDER]    # regenerate the suite and rewrite its lock

The lock, ``packets/SHA256SUMS``, is in `sha256sum` format and is what the repository commits
(the packets outgrew what is worth committing): ``make suite`` rebuilds them, ``cd packets &&
sha256sum -c SHA256SUMS`` verifies them without Python, and the tests build them when they are
missing and compare them, and an in-memory rebuild, with the lock.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from packetbench.core.locking import hold
from packetbench.generator.packet import build_packet, packet_id, write_packet
from packetbench.generator.tiers import PRESETS, resolve

SEED = 1
LOCK = "SHA256SUMS"
DEFAULT_FOLDER = Path(__file__).resolve().parents[3] / "packets"  # the checkout's


def canonical() -> list[tuple[str, int]]:
    return [(tier, SEED) for tier in PRESETS]


def expected_lock() -> dict[str, str]:
    """Relative path -> sha256 of every file of a freshly built suite (nothing written)."""
    lock: dict[str, str] = {}
    for tier, seed in canonical():
        built = build_packet(tier, seed, resolve(tier))
        for name, data in built.files.items():
            lock[f"{packet_id(tier, seed)}/{name}"] = hashlib.sha256(data).hexdigest()
    return dict(sorted(lock.items()))


def read_lock(folder: Path) -> dict[str, str]:
    lock: dict[str, str] = {}
    for line in (folder / LOCK).read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        lock[name] = digest
    return lock


def format_lock(lock: dict[str, str]) -> str:
    return "".join(f"{digest}  {name}\n" for name, digest in sorted(lock.items()))


def _matches(folder: Path, lock: dict[str, str]) -> bool:
    for name, digest in lock.items():
        path = folder / name
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            return False
    return True


def ensure_suite(folder: Path = DEFAULT_FOLDER) -> None:
    """Write the canonical packets into `folder` unless they are there and match its lock
    (the lock itself is left as it is). Concurrent callers (the processes of a test session)
    wait for the folder's writer lock: the first builds, the others find the suite built."""
    with hold(folder, wait=True):
        if (folder / LOCK).is_file() and _matches(folder, read_lock(folder)):
            return
        for tier, seed in canonical():
            write_packet(folder, tier, seed, resolve(tier), force=True)


def write_suite(folder: Path = DEFAULT_FOLDER) -> dict[str, str]:
    """Regenerate every canonical packet into `folder` and write the lock."""
    with hold(folder, wait=True):
        for tier, seed in canonical():
            write_packet(folder, tier, seed, resolve(tier), force=True)
        lock: dict[str, str] = {}
        for tier, seed in canonical():
            pid = packet_id(tier, seed)
            for path in sorted((folder / pid).iterdir()):
                lock[f"{pid}/{path.name}"] = hashlib.sha256(path.read_bytes()).hexdigest()
        (folder / LOCK).write_text(format_lock(lock), encoding="utf-8")
    return lock


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_FOLDER
    files = write_suite(target)
    sys.stdout.write(f"wrote {len(files)} files and {target / LOCK}\n")
