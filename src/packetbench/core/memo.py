"""Hashes of files read before, kept while each file is provably the same: the viewer's start.

Opening a run of 1,000 hard packets, the viewer hashed 1 GB of extraction records (is the
results database scored from them?) and read 340 MB of packet_truth.json (mostly each
packet's world) for the 31,000 documents' listing: three seconds before the first page, every
time. `HashMemo` keeps, in a file of the viewer's cache, each file's sha256 beside what its
inode said when it was hashed (device, inode number, size, modification and change times in
nanoseconds), and each packet_truth.json's listing by its sha256.

A file whose inode says the same is the same file with the same bytes: writing a file changes
its change time, which no user call can set back (`touch` sets the modification time, and
that changes the change time too). One case is left: a file written again within the clock
tick of the write we saw, the same size, reads the same times. So a hash is kept only for a
file whose last change is at least `SETTLED` seconds older than the hashing (as git treats a
"racily clean" file): a newer one is hashed again next time.

The cache file is the user's own but is read as untrusted all the same: anything but the
layout written here is ignored (and every listing taken from it is checked as the file it
stands for would be).
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path
from typing import Any

import orjson

from packetbench.core import safe_read
from packetbench.core.errors import BadInput, WriteFailed

SETTLED = 2.0  # seconds: a file changed more recently than this is not remembered
VERSION = 1


def _stat(path: Path | str) -> list[int]:
    found = os.stat(path)
    return [found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns]


def _settled(path: Path | str, before: list[int]) -> bool:
    """Whether `path` still says what it said before it was hashed."""
    try:
        return _stat(path) == before
    except OSError:
        return False


class HashMemo:
    """What is known of the files read under one root (a run and its packets)."""

    def __init__(self, file: Path | None) -> None:
        self.file = file
        self._lock = threading.Lock()  # the viewer's requests and its background check
        self._hashes: dict[str, list[Any]] = {}
        self._listings: dict[str, Any] = {}
        self._changed = False
        self._used: set[str] = set()
        self._cwd = os.getcwd()
        if file is None:
            return
        try:
            data = orjson.loads(safe_read.read_bytes(file, "run"))
        except (OSError, ValueError):
            return  # no cache yet, or not one this wrote: everything is read again
        if (
            isinstance(data, dict)
            and data.get("version") == VERSION
            and isinstance(data.get("hashes"), dict)
            and isinstance(data.get("listings"), dict)
        ):
            self._hashes = {
                name: entry
                for name, entry in data["hashes"].items()
                if isinstance(entry, list)
                and len(entry) == 6
                and all(type(v) is int for v in entry[:5])
                and isinstance(entry[5], str)
            }
            self._listings = data["listings"]

    @classmethod
    def under(cls, cache: Path, root: Path) -> HashMemo:
        """The knowledge kept in `cache` for files read under `root`."""
        name = hashlib.sha256(str(root.resolve()).encode("utf-8")).hexdigest()[:32]
        return cls(cache / "known" / f"{name}.json")

    def part(self, name: str) -> HashMemo:
        """Knowledge of other files under the same root, kept in a file of its own (read only
        by whoever asks for it: the viewer's background check of every document, not its
        start)."""
        if self.file is None:
            return HashMemo(None)
        return HashMemo(self.file.with_name(f"{self.file.stem}.{name}.json"))

    def sha256(self, path: Path | str, kind: str) -> str:
        """The sha256 of `path` (`safe_read.sha256` under the ceiling of `kind`), hashed
        again unless its inode says it is the file hashed before; BadInput naming a file
        that is missing or cannot be read."""
        name = os.path.join(self._cwd, path)  # as `Path.absolute`, without its cost
        with self._lock:
            self._used.add(name)
        try:
            before = _stat(path)
            entry = self._hashes.get(name)
            if entry is not None and entry[:5] == before:
                return str(entry[5])
            digest = safe_read.sha256(Path(path), kind)
        except FileNotFoundError:
            raise BadInput(f"{path}: missing") from None
        except OSError as error:
            raise BadInput(f"{path}: unreadable ({error.strerror})") from None
        settled = time.time_ns() - before[4] >= SETTLED * 1e9 and _settled(path, before)
        with self._lock:
            if settled:
                self._hashes[name] = [*before, digest]
                self._changed = True
            elif name in self._hashes:
                del self._hashes[name]
                self._changed = True
        return digest

    def listing(self, sha: str) -> Any:
        """What was kept of the file whose sha256 is `sha` (None: nothing)."""
        found = self._listings.get(sha)
        if found is not None:
            self._used.add(sha)
        return found

    def keep(self, sha: str, listing: Any) -> None:
        with self._lock:
            self._listings[sha] = listing
            self._used.add(sha)
            self._changed = True

    def save(self, forget: bool = True) -> None:
        """Write what is known of the files used this time, and with `forget` false of the
        others too (a check stopped before it reached them); a cache that cannot be written
        is no error, only slower next time."""
        if self.file is None:
            return
        with self._lock:
            hashes = {k: v for k, v in self._hashes.items() if not forget or k in self._used}
            listings = {k: v for k, v in self._listings.items() if not forget or k in self._used}
            if not self._changed and (len(hashes), len(listings)) == (
                len(self._hashes),
                len(self._listings),
            ):
                return
            self._changed = False
        from packetbench.core.writing import write_atomic

        try:
            write_atomic(
                self.file,
                orjson.dumps({"version": VERSION, "hashes": hashes, "listings": listings}),
            )
        except (OSError, BadInput, WriteFailed):
            return
