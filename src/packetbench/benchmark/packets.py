"""Reading packets written by the generator: which packets a folder holds, and their documents.

The benchmark reads only the generator's files (docs/design.md §4); it never rebuilds a packet.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import orjson

from packetbench import ids, safe_read
from packetbench.benchmark.errors import BadInput


def read_json(path: Path, kind: str = "truth") -> Any:
    """The JSON of `path`, a regular file within the ceiling of `kind` (safe_read);
    BadInput naming it when it is missing or not JSON."""
    try:
        return orjson.loads(safe_read.read_bytes(path, kind))
    except FileNotFoundError:
        raise BadInput(f"{path}: missing") from None
    except (OSError, orjson.JSONDecodeError) as error:
        raise BadInput(f"{path}: unreadable ({error})") from None


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


def touched_in(manifest: Any) -> Touched:
    targets: dict[str, set[str]] = {}
    for applied in (manifest.get("patterns_applied") or []) if isinstance(manifest, dict) else []:
        if not isinstance(applied, dict):
            continue
        for target in applied.get("targets") or []:
            if isinstance(target, str):
                targets.setdefault(target, set()).add(str(applied.get("id")))
    return Touched({t: tuple(sorted(ids)) for t, ids in targets.items()})


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

    def truth(self, doc_id: str) -> dict[str, Any]:
        """The `truth` object of a document's document_truth file."""
        if self.own is not None:
            raise BadInput(f"{self.path}: a folder of your own documents has no truth ({doc_id})")
        data = read_json(self.path / f"document_truth_{doc_id}.json")
        truth = data.get("truth") if isinstance(data, dict) else None
        if not isinstance(truth, dict):
            raise BadInput(f"{self.path / f'document_truth_{doc_id}.json'}: no truth object")
        return truth

    def touched(self, doc_id: str) -> Touched:
        """Which patterns touched which paths of document `doc_id` (its manifest)."""
        if self.own is not None:
            return Touched({})  # one's own documents have no manifest
        return touched_in(read_json(self.path / f"manifest_{doc_id}.json"))

    @cached_property
    def superseded(self) -> dict[str, str]:
        """Superseded doc_id -> the doc_id that replaces it."""
        return {d.doc_id: d.superseded_by for d in self.documents if d.superseded_by}


def _document(entry: Any, index: int, path: Path) -> DocInfo:
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


def load_packet(folder: Path) -> Packet:
    path = folder / "packet_truth.json"
    data = read_json(path, "packet_truth")
    try:
        documents = tuple(_document(d, i, path) for i, d in enumerate(data["documents"]))
        version = data.get("generator_version")
        return Packet(
            folder,
            ids.check(data["packet_id"], "packet_id", path),
            ids.check(data["tier"], "tier", path),
            int(data["seed"]),
            documents,
            str(version) if version is not None else None,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BadInput(f"{path}: not a packet_truth file ({error})") from None


def find_packets(folder: Path) -> list[Packet]:
    """The packet `folder` itself, or every packet folder directly inside it, by packet id."""
    if not folder.is_dir():
        raise BadInput(f"{folder}: not a folder")
    if (folder / "packet_truth.json").is_file():
        return [load_packet(folder)]
    packets = [
        load_packet(child)
        for child in sorted(folder.iterdir())
        if child.is_dir() and (child / "packet_truth.json").is_file()
    ]
    if not packets:
        raise BadInput(f"{folder}: holds no packets (no */packet_truth.json)")
    ids = [p.packet_id for p in packets]
    if len(set(ids)) != len(ids):
        raise BadInput(f"{folder}: two packet folders share a packet_id")
    return sorted(packets, key=lambda p: p.packet_id)
