"""Reading packets written by the generator: which packets a folder holds, their documents,
and their files, each read once (`PacketFiles`).

The benchmark reads only the generator's files (docs/design.md §4, typed in `core.packet_files`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, cast

from packetbench.core import ids, packet_files
from packetbench.core.errors import BadInput
from packetbench.core.memo import HashMemo
from packetbench.core.packet_files import (
    DocumentEntry,
    DocumentTruthFile,
    FieldTruthFile,
    ManifestFile,
    PacketTruthFile,
    RenderedUniverseFile,
)


@dataclass(frozen=True)
class DocInfo:
    doc_id: str
    doc_type: str
    format: str
    file: str
    schema: str
    superseded_by: str | None


def ancestors(path: str) -> list[str]:
    """`path` and every object or list above it: ``a[2].b`` -> ``a``, ``a[2]``, ``a[2].b``."""
    return [path[:i] for i, ch in enumerate(path) if ch in ".["] + [path]


@dataclass(frozen=True)
class Touched:
    """Which presentation patterns touched which truth paths of one document.

    From the manifest's `patterns_applied`: each application lists its `targets`, a leaf path
    or the path of a whole record or list (every leaf under it, records a model invents in
    that list included).
    """

    targets: dict[str, tuple[str, ...]]

    def of(self, path: str) -> list[str]:
        """The ids of the patterns that touched `path`, sorted."""
        if not self.targets:
            return []
        found: set[str] = set()
        for ancestor in ancestors(path):
            found.update(self.targets.get(ancestor, ()))
        return sorted(found)


def touched_in(manifest: ManifestFile) -> Touched:
    targets: dict[str, set[str]] = {}
    for applied in manifest["patterns_applied"]:
        for target in applied.get("targets") or []:
            targets.setdefault(target, set()).add(applied["id"])
    return Touched({t: tuple(sorted(ids)) for t, ids in targets.items()})


class PacketFiles:
    """The truth files of one packet folder, each read (and checked) once, when it is first
    asked for. Made for one piece of work on a packet (scoring it, simulating its answers)
    and passed down to everything that reads the packet's files, so none is parsed twice."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._read: dict[tuple[str, str | None], Any] = {}

    def _file(self, kind: str, doc_id: str | None = None) -> Any:
        key = (kind, doc_id)
        if key not in self._read:
            path = self.folder / packet_files.file_name(kind, doc_id)
            self._read[key] = packet_files.read_packet_file(path, kind)
        return self._read[key]

    def packet_truth(self) -> PacketTruthFile:
        return cast(PacketTruthFile, self._file("packet_truth"))

    def doc_ids(self) -> list[str]:
        """The doc ids packet_truth.json lists, each checked to be an id (it names files)."""
        path = self.folder / "packet_truth.json"
        return [
            ids.check(doc["doc_id"], f"documents[{i}].doc_id", path)
            for i, doc in enumerate(self.packet_truth()["documents"])
        ]

    def document_truth(self, doc_id: str) -> DocumentTruthFile:
        return cast(DocumentTruthFile, self._file("document_truth", doc_id))

    def truth(self, doc_id: str) -> dict[str, Any]:
        """The `truth` object of a document's document_truth file."""
        return self.document_truth(doc_id)["truth"]

    def field_truth(self, doc_id: str) -> FieldTruthFile:
        return cast(FieldTruthFile, self._file("field_truth", doc_id))

    def manifest(self, doc_id: str) -> ManifestFile:
        return cast(ManifestFile, self._file("manifest", doc_id))

    def rendered_universe(self, doc_id: str) -> RenderedUniverseFile:
        return cast(RenderedUniverseFile, self._file("rendered_universe", doc_id))

    def touched(self, doc_id: str) -> Touched:
        """Which patterns touched which paths of document `doc_id` (its manifest)."""
        return touched_in(self.manifest(doc_id))


@dataclass(frozen=True)
class Packet:
    path: Path
    packet_id: str
    tier: str
    seed: int
    documents: tuple[DocInfo, ...]
    generator_version: str | None = None
    # A folder of one's own documents (`extract --documents`, benchmark.documents): where it
    # is and how each document's schema was chosen. It has no truth. None for a packet.
    own: dict[str, Any] | None = field(default=None, hash=False, compare=False)

    @property
    def truthless(self) -> bool:
        return self.own is not None

    def files(self) -> PacketFiles:
        """The packet's files, each to be read once (BadInput for one's own documents: they
        have none but the documents)."""
        if self.own is not None:
            raise BadInput(f"{self.path}: a folder of your own documents has no truth files")
        return PacketFiles(self.path)

    def truth(self, doc_id: str) -> dict[str, Any]:
        """The `truth` object of a document's document_truth file (read now: a reader of
        several of the packet's files reads them through `files()`)."""
        if self.own is not None:
            raise BadInput(f"{self.path}: a folder of your own documents has no truth ({doc_id})")
        return packet_files.read_document_truth(self.path, doc_id)["truth"]

    def touched(self, doc_id: str) -> Touched:
        """Which patterns touched which paths of document `doc_id` (its manifest)."""
        if self.own is not None:
            return Touched({})  # one's own documents have no manifest
        return touched_in(packet_files.read_manifest(self.path, doc_id))

    @cached_property
    def superseded(self) -> dict[str, str]:
        """Superseded doc_id -> the doc_id that replaces it."""
        return {d.doc_id: d.superseded_by for d in self.documents if d.superseded_by}


# What a packet's listing needs of its packet_truth.json (its knobs and world aside).
LISTING = ("packet_id", "tier", "seed", "generator_version", "documents")


def _document(entry: DocumentEntry, index: int, path: Path) -> DocInfo:
    """One entry of packet_truth's documents list, every id in it checked (ids.check): each
    names files of the packet."""
    where = f"documents[{index}]"
    superseded = entry.get("superseded_by")
    if superseded is not None:
        ids.check(superseded, f"{where}.superseded_by", path)
    # Every packet repeats the same ids, types and file names: interned, a corpus of 10^4
    # packets keeps one copy of each instead of one per document.
    return DocInfo(
        sys.intern(ids.check(entry["doc_id"], f"{where}.doc_id", path)),
        sys.intern(ids.check(entry["doc_type"], f"{where}.doc_type", path)),
        sys.intern(ids.check(entry["format"], f"{where}.format", path)),
        sys.intern(ids.check(entry["file"], f"{where}.file", path)),
        sys.intern(ids.check_schema(entry["schema"], f"{where}.schema", path)),
        superseded,
    )


def load_packet(folder: Path, memo: HashMemo | None = None) -> Packet:
    """The packet in `folder`, from its packet_truth.json. With `memo`, a file whose listing
    is known by its sha256 (`HashMemo.sha256`: not read again while its inode says the same) is
    not parsed again; the listing is checked as the file's own would be."""
    path = folder / "packet_truth.json"
    data: Any = None
    if memo is not None:
        sha = memo.sha256(path, "packet_truth")
        data = memo.listing(sha)
        if data is not None:
            try:
                packet_files.check(data, "packet_truth", path)
            except BadInput:
                data = None  # not what this wrote: the file itself is read
        if data is None:
            data = packet_files.read_packet_truth(folder)
            memo.keep(sha, {key: data.get(key) for key in LISTING})
    else:
        data = packet_files.read_packet_truth(folder)
    documents = tuple(_document(d, i, path) for i, d in enumerate(data["documents"]))
    version = data.get("generator_version")
    return Packet(
        folder,
        ids.check(data["packet_id"], "packet_id", path),
        ids.check(data["tier"], "tier", path),
        data["seed"],
        documents,
        version,
    )


def find_packets(folder: Path, memo: HashMemo | None = None) -> list[Packet]:
    """The packet `folder` itself, or every packet folder directly inside it, by packet id."""
    if not folder.is_dir():
        raise BadInput(f"{folder}: not a folder")
    if (folder / "packet_truth.json").is_file():
        return [load_packet(folder, memo)]
    packets = [
        load_packet(child, memo)
        for child in sorted(folder.iterdir())
        if child.is_dir() and (child / "packet_truth.json").is_file()
    ]
    if not packets:
        raise BadInput(f"{folder}: holds no packets (no */packet_truth.json)")
    ids = [p.packet_id for p in packets]
    if len(set(ids)) != len(ids):
        raise BadInput(f"{folder}: two packet folders share a packet_id")
    return sorted(packets, key=lambda p: p.packet_id)
