"""A corpus: a folder of packets described by ``corpus.json`` and locked by ``corpus.lock``.

``corpus.json`` lists every packet (id, tier, seed, generator version, a digest of its knobs,
the sha256 of its ``packet_truth.json`` and of its lock) and a corpus digest: the sha256 of
that list. ``corpus.lock`` is the lock of every file, ``<sha256>  <packet>/<file>`` lines in
packet and file order (``sha256sum -c corpus.lock`` reads it); the lines of one packet, its
folder prefix left out, are that packet's lock. So the digest a user cites covers every byte
of every packet, and it depends only on the packets' bytes: never on when, in which order or
by how many workers they were written, nor on whether a generation was interrupted and resumed.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import orjson

from packetbench.core import ids, safe_read
from packetbench.core.errors import UsageError

CORPUS = "corpus.json"
LOCK = "corpus.lock"
FORMAT = 1


@dataclass(frozen=True)
class Entry:
    """One packet of a corpus (a row of corpus.json)."""

    packet_id: str
    tier: str
    seed: int
    generator_version: str
    knobs_sha256: str
    truth_sha256: str
    lock_sha256: str
    files: int


def file_sha256(path: Path) -> str:
    """The sha256 of a packet's file (a regular file only: safe_read)."""
    return safe_read.sha256(path, "document")


def packet_lock(folder: Path) -> list[tuple[str, str]]:
    """(sha256, file name) of every file of a packet folder, by name."""
    return [(file_sha256(path), path.name) for path in sorted(folder.iterdir())]


def _lock_text(lines: Iterable[tuple[str, str]], prefix: str = "") -> bytes:
    return "".join(f"{sha}  {prefix}{name}\n" for sha, name in lines).encode()


def _canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def entry_of(folder: Path) -> tuple[Entry, list[tuple[str, str]]]:
    """The corpus entry of the packet in `folder` and its lock, read from its files."""
    lock = packet_lock(folder)
    truth_bytes = safe_read.read_bytes(folder / "packet_truth.json", "packet_truth")
    return entry_from(truth_bytes, lock), lock


def entry_written(files: Mapping[str, bytes]) -> tuple[Entry, list[tuple[str, str]]]:
    """`entry_of` a packet folder its writer just filled with `files` (name -> content, all
    it holds): hashed as they were written, not opened and read back (131 files for N1)."""
    lock = [(hashlib.sha256(files[name]).hexdigest(), name) for name in sorted(files)]
    return entry_from(files["packet_truth.json"], lock), lock


def entry_from(truth_bytes: bytes, lock: list[tuple[str, str]]) -> Entry:
    """The corpus entry of a packet from its packet_truth.json and its lock."""
    truth = orjson.loads(truth_bytes)
    return Entry(
        packet_id=str(truth["packet_id"]),
        tier=str(truth["tier"]),
        seed=int(truth["seed"]),
        generator_version=str(truth["generator_version"]),
        knobs_sha256=hashlib.sha256(_canonical(truth.get("knobs"))).hexdigest(),
        truth_sha256=hashlib.sha256(truth_bytes).hexdigest(),
        lock_sha256=hashlib.sha256(_lock_text(lock)).hexdigest(),
        files=len(lock),
    )


def digest(entries: Iterable[Entry]) -> str:
    """The corpus digest: sha256 of the canonical JSON of its entries in packet order."""
    rows = sorted((asdict(e) for e in entries), key=lambda row: row["packet_id"])
    return hashlib.sha256(_canonical(rows)).hexdigest()


@dataclass(frozen=True)
class Corpus:
    folder: Path
    entries: list[Entry]
    digest: str


def _write_atomic(path: Path, chunks: Iterable[bytes]) -> None:
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    with partial.open("wb") as out:
        for chunk in chunks:
            out.write(chunk)
    os.replace(partial, path)


def _read_lock(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """corpus.lock as packet id -> its lock lines (empty when there is no lock)."""
    path = folder / LOCK
    locks: dict[str, list[tuple[str, str]]] = {}
    if not path.is_file():
        return locks
    try:
        text = safe_read.read_text(path, "corpus")
    except (OSError, UnicodeDecodeError) as error:
        raise CorpusMismatch(f"{path}: unreadable ({error})") from None
    for number, line in enumerate(text.splitlines(), 1):
        sha, sep, name = line.partition("  ")
        pid, slash, file = name.partition("/")
        if not sep or not slash or len(sha) != 64:
            raise CorpusMismatch(f"{path}: line {number} is not '<sha256>  <packet>/<file>'")
        ids.check(pid, f"line {number}: packet", path)
        ids.check(file, f"line {number}: file", path)
        locks.setdefault(pid, []).append((sha, file))
    return locks


def _remove_left_behind(folder: Path) -> None:
    """Delete partial corpus files of writers that were killed mid-write."""
    from packetbench.core.worker_pool import alive

    for stale in folder.glob(".corpus.*.partial-*"):
        owner = stale.name.rpartition("-")[2]
        if owner.isdigit() and int(owner) != os.getpid() and not alive(int(owner)):
            stale.unlink(missing_ok=True)


def write(folder: Path, packets: dict[str, tuple[Entry, list[tuple[str, str]]]]) -> Corpus:
    """Write corpus.lock then corpus.json for `packets` (packet id -> entry and lock)."""
    _remove_left_behind(folder)
    order = sorted(packets)

    def lock_chunks() -> Iterator[bytes]:
        for pid in order:
            yield _lock_text(packets[pid][1], f"{pid}/")

    _write_atomic(folder / LOCK, lock_chunks())
    entries = [packets[pid][0] for pid in order]
    corpus = Corpus(folder, entries, digest(entries))
    tiers: dict[str, int] = {}
    for e in entries:
        tiers[e.tier] = tiers.get(e.tier, 0) + 1
    document = {
        "corpus_format": FORMAT,
        "digest": corpus.digest,
        "packets": len(entries),
        "by_tier": dict(sorted(tiers.items())),
        "files": sum(e.files for e in entries),
        "entries": [asdict(e) for e in entries],
    }
    _write_atomic(folder / CORPUS, [orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"])
    return corpus


def read(folder: Path) -> Corpus:
    """corpus.json of `folder`; UsageError when it is missing or not a corpus file."""
    path = folder / CORPUS
    try:
        data = orjson.loads(safe_read.read_bytes(path, "corpus"))
        entries = [Entry(**row) for row in data["entries"]]
        for index, e in enumerate(entries):
            ids.check(e.packet_id, f"entries[{index}].packet_id", path)
        return Corpus(folder, entries, str(data["digest"]))
    except FileNotFoundError:
        raise UsageError(
            f"{path}: missing (generate the corpus with `packetbench generate --out` first)"
        ) from None
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError) as error:
        raise UsageError(f"{path}: not a corpus file ({type(error).__name__}: {error})") from None


def extend(folder: Path, written: Iterable[tuple[Entry, list[tuple[str, str]]]]) -> Corpus:
    """Add (or replace) the packets `written` to the corpus of `folder` and rewrite it.

    Packets listed before and not written now keep their entries and lock lines; a listed
    packet whose folder is gone is dropped, so the corpus describes what the folder holds.
    """
    packets: dict[str, tuple[Entry, list[tuple[str, str]]]] = {}
    if (folder / CORPUS).is_file():
        try:
            known = read(folder)
            locks = _read_lock(folder)
        except (UsageError, CorpusMismatch):
            known, locks = Corpus(folder, [], ""), {}
        for e in known.entries:
            if (folder / e.packet_id / "packet_truth.json").is_file() and e.packet_id in locks:
                packets[e.packet_id] = (e, locks[e.packet_id])
    for e, lock in written:
        packets[e.packet_id] = (e, lock)
    return write(folder, packets)


class CorpusMismatch(Exception):
    """A corpus file or packet that does not match corpus.json or corpus.lock."""


def verify(folder: Path) -> Corpus:
    """Check every file of the corpus in `folder` against corpus.json and corpus.lock.

    Raises CorpusMismatch naming the first mismatch (packets and files in order), UsageError
    when there is no corpus.json to check against.
    """
    corpus = read(folder)
    listed = sorted(corpus.entries, key=lambda e: e.packet_id)
    if [e.packet_id for e in corpus.entries] != [e.packet_id for e in listed]:
        raise CorpusMismatch(f"{folder / CORPUS}: packets are not in packet id order")
    if digest(corpus.entries) != corpus.digest:
        raise CorpusMismatch(
            f"{folder / CORPUS}: digest {corpus.digest} is not the digest of the packets it lists"
        )
    locks = _read_lock(folder)
    if not (folder / LOCK).is_file():
        raise CorpusMismatch(f"{folder / LOCK}: missing")
    ids = {e.packet_id for e in listed}
    for pid in sorted(locks):
        if pid not in ids:
            raise CorpusMismatch(f"{folder / LOCK}: locks {pid}, which corpus.json does not list")
    on_disk = sorted(
        p.name for p in folder.iterdir() if p.is_dir() and (p / "packet_truth.json").is_file()
    )
    for pid in on_disk:
        if pid not in ids:
            raise CorpusMismatch(f"{folder / pid}: a packet corpus.json does not list")
    for e in listed:
        _verify_packet(folder, e, locks.get(e.packet_id, []))
    return corpus


def _verify_packet(folder: Path, e: Entry, lock: list[tuple[str, str]]) -> None:
    where = folder / e.packet_id
    if not where.is_dir():
        raise CorpusMismatch(f"{where}: missing")
    if hashlib.sha256(_lock_text(lock)).hexdigest() != e.lock_sha256:
        raise CorpusMismatch(
            f"{folder / LOCK}: the lines of {e.packet_id} are not the lock "
            "corpus.json records for it"
        )
    expected = dict((name, sha) for sha, name in lock)
    present = sorted(p.name for p in where.iterdir())
    for name in present:
        if name not in expected:
            raise CorpusMismatch(f"{where / name}: not in {LOCK}")
    for sha, name in lock:
        path = where / name
        if not path.is_file():
            raise CorpusMismatch(f"{path}: missing")
        if file_sha256(path) != sha:
            raise CorpusMismatch(f"{path}: sha256 differs from {LOCK}")
    truth = where / "packet_truth.json"
    if file_sha256(truth) != e.truth_sha256:
        raise CorpusMismatch(f"{truth}: sha256 differs from corpus.json")
