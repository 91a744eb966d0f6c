"""What a run was extracted from, so that nothing is ever scored against anything else.

run.json lists every packet of a run with its generator version, the sha256 of its
packet_truth.json and, per document, the sha256 of the document file and of its four truth
files. Scoring checks the packets it is given against that list; the results database keeps
the list it was scored against, and every command that reads it (report, compare, gate, plan,
sql) checks it is still the run's; runs paired by compare or gate must have been extracted
from the same documents. Packet ids alone prove nothing: the same id is another packet under
other knobs or another generator version, and scores against it are silently wrong numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from packetbench.benchmark.runs import RUN_FILE, PacketEntry, RunInfo
from packetbench.core import safe_read
from packetbench.core.errors import BadInput
from packetbench.core.memo import HashMemo
from packetbench.core.packet_files import read_manifest
from packetbench.truth.packets import DocInfo, Packet

TRUTH_KINDS = ("document_truth", "field_truth", "manifest", "rendered_universe")
HASHED = ("file", *TRUTH_KINDS)


def sha256(path: Path, kind: str = "truth") -> str:
    try:
        return safe_read.sha256(path, kind)
    except FileNotFoundError:
        raise BadInput(f"{path}: missing") from None
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error.strerror})") from None


def _kind(kind: str) -> str:
    """The safe_read ceiling of a hashed file."""
    return "document" if kind == "file" else "truth"


def _file(packet: Packet, doc: DocInfo, kind: str) -> Path:
    return packet.path / (doc.file if kind == "file" else f"{kind}_{doc.doc_id}.json")


def _hashed(packet: Packet) -> tuple[str, ...]:
    """The files hashed per document: one's own documents have no truth files."""
    return ("file",) if packet.truthless else HASHED


def listing_sha256(packet: Packet) -> str:
    """What stands for packet_truth.json's sha256 for a folder of one's own documents: the
    sha256 of its listing (files, schemas, how each was chosen)."""
    import hashlib

    import orjson

    listing = {"own": packet.own, "documents": [d.__dict__ for d in packet.documents]}
    return hashlib.sha256(orjson.dumps(listing, option=orjson.OPT_SORT_KEYS)).hexdigest()


def document_hashes(packet: Packet, doc: DocInfo) -> dict[str, str]:
    """sha256 of a document's file and truth files; BadInput when the file is not the one
    its manifest describes (truncated, replaced): no run is made of a broken packet."""
    if packet.truthless:
        return {"file": sha256(_file(packet, doc, "file"), "document")}
    hashes = {kind: sha256(_file(packet, doc, kind), _kind(kind)) for kind in HASHED}
    manifest = read_manifest(packet.path, doc.doc_id)
    if manifest["sha256"] != hashes["file"]:
        raise BadInput(
            f"{_file(packet, doc, 'file')}: sha256 differs from its manifest (not "
            "the file its truth describes)"
        )
    return hashes


def packet_entry(packet: Packet) -> PacketEntry:
    """The run.json entry of one packet: what a run of it was extracted from (for a folder
    of one's own documents, also the folder and its listing: `benchmark.documents`)."""
    entry = PacketEntry(
        packet_id=packet.packet_id,
        tier=packet.tier,
        generator_version=packet.generator_version,
        packet_truth_sha256=(
            listing_sha256(packet)
            if packet.truthless
            else sha256(packet.path / "packet_truth.json", "packet_truth")
        ),
        documents=[d.doc_id for d in packet.documents],
        sha256={d.doc_id: document_hashes(packet, d) for d in packet.documents},
    )
    if packet.own is not None:
        entry.own_documents = {**packet.own, "files": [d.__dict__ for d in packet.documents]}
    return entry


def recorded(info: RunInfo, run: Path) -> dict[str, dict[str, Any]]:
    """packet_id -> run.json entry of every packet the run lists, each with its hashes;
    BadInput when run.json predates them (nothing can prove what it was extracted from)."""
    found: dict[str, dict[str, Any]] = {}
    for entry in info.packets or []:
        if entry.sha256 is None or entry.packet_truth_sha256 is None:
            raise BadInput(
                f"{run / RUN_FILE}: records no sha256 of the documents it was "
                "extracted from (written by an older packetbench), so no score of "
                "it can be trusted; extract the run again"
            )
        found[entry.packet_id] = entry.model_dump(mode="json", exclude_unset=True)
    if not found:
        raise BadInput(f"{run / RUN_FILE}: no packets list")
    return found


def document_difference(
    entry: dict[str, Any],
    packet: Packet,
    doc: DocInfo,
    run: Path,
    hint: str,
    memo: HashMemo | None = None,
) -> str | None:
    """Why `doc` is not the document `run` was extracted from (its first file whose sha256
    is not the one run.json's `entry` for its packet records, or that cannot be read), or
    None when all its files are those (with `memo`, a file is not hashed again while its
    inode says it is the file hashed before)."""
    expected = entry["sha256"].get(doc.doc_id)
    hashed = _hashed(packet)
    digest = memo.sha256 if memo is not None else sha256
    try:
        actual = {kind: digest(_file(packet, doc, kind), _kind(kind)) for kind in hashed}
    except BadInput as error:
        return str(error)
    if expected == actual:
        return None
    kind = next((k for k in hashed if (expected or {}).get(k) != actual[k]), "file")
    return (
        f"{_file(packet, doc, kind)}: not the file {run} was extracted from (its sha256 "
        f"differs); {hint}"
    )


def packet_difference(
    entry: dict[str, Any], packet: Packet, run: Path, hint: str, memo: HashMemo | None = None
) -> str | None:
    """Why `packet`'s packet_truth.json is not the one `run` was extracted from, or None
    (with `memo`, not hashed again while its inode says it is the file hashed before)."""
    if packet.truthless:
        if listing_sha256(packet) == entry["packet_truth_sha256"]:
            return None
        return (
            f"{packet.path}: not the documents {run} was extracted from (listed otherwise); {hint}"
        )
    path = packet.path / "packet_truth.json"
    try:
        found = (memo.sha256 if memo is not None else sha256)(path, "packet_truth")
    except BadInput as error:
        return str(error)
    if found == entry["packet_truth_sha256"]:
        return None
    return f"{path}: not the packet {run} was extracted from (its sha256 differs); {hint}"


def verify(
    info: RunInfo,
    run: Path,
    selected: list[tuple[Packet, DocInfo]],
    hint: str = "score the run with the packets it was extracted from",
) -> None:
    """BadInput naming the first file of `selected` (documents of the run, in order) whose
    sha256 is not the one run.json recorded, then the packets' packet_truth.json."""
    entries = recorded(info, run)
    packets: dict[str, Packet] = {}
    for packet, doc in selected:
        packets[packet.packet_id] = packet
        entry = entries.get(packet.packet_id)
        if entry is None:
            raise BadInput(f"{packet.path}: not a packet {run} was extracted from; {hint}")
        found = document_difference(entry, packet, doc, run, hint)
        if found is not None:
            raise BadInput(found)
    verify_packets(entries, run, packets.values(), hint)


def verify_packets(
    entries: dict[str, dict[str, Any]],
    run: Path,
    packets: Iterable[Packet],
    hint: str = "score the run with the packets it was extracted from",
    memo: HashMemo | None = None,
) -> None:
    """BadInput naming the first packet_truth.json of `packets` whose sha256 is not the one
    `entries` (run.json's, by packet) records: the cheap check that a packet regenerated
    with another seed or version, or of another corpus, is not the run's (one file a packet,
    which `find_packets` has just read)."""
    for packet in packets:
        entry = entries.get(packet.packet_id)
        if entry is None:
            raise BadInput(f"{packet.path}: not a packet {run} was extracted from; {hint}")
        found = packet_difference(entry, packet, run, hint, memo)
        if found is not None:
            raise BadInput(found)


def _documents(entries: dict[str, dict[str, Any]]) -> Iterator[tuple[str, dict[str, str]]]:
    for packet_id, entry in sorted(entries.items()):
        for doc_id, hashes in entry["sha256"].items():
            yield f"{packet_id}/{doc_id}", hashes


def first_difference(
    a: dict[str, dict[str, Any]],
    b: dict[str, dict[str, Any]],
) -> tuple[str, str] | None:
    """(packet_id/doc_id, what differs) of the first document both list with other
    hashes, or None when every shared document is the same."""
    theirs = dict(_documents(b))
    for document, hashes in _documents(a):
        other = theirs.get(document)
        if other is not None and other != hashes:
            kind = next((k for k in HASHED if hashes.get(k) != other.get(k)), "file")
            return document, kind
    return None


def same_listing(a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]]) -> str | None:
    """The first packet_id/doc_id whose hashes are not the same in both listings (one
    listing a document the other lacks counts), or None when they agree."""
    mine, theirs = dict(_documents(a)), dict(_documents(b))
    for document in sorted(set(mine) | set(theirs)):
        if mine.get(document) != theirs.get(document):
            return document
    differing = sorted(
        p
        for p in set(a) | set(b)
        if (a.get(p) or {}).get("packet_truth_sha256")
        != (b.get(p) or {}).get("packet_truth_sha256")
    )
    return f"{differing[0]}/packet_truth.json" if differing else None
