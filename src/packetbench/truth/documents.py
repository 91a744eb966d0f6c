"""A packet folder's documents as the audit and the difficulty measure read them: each with its
manifest, field truth and rendered universe (docs/design.md §4), read through the packet's one
`PacketFiles`.

Everything is loaded up front and checked, so a missing, unreadable or malformed file
stops the audit with its name (exit 2) before anything is counted: an audit that silently
loaded nothing must be impossible.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from packetbench.core import ids
from packetbench.core.errors import BadInput
from packetbench.truth.packets import PacketFiles, find_packets

FORMATS = ("pdf", "xlsx", "csv")
TRUTH_KINDS = ("document_truth", "field_truth", "manifest", "rendered_universe")
# A page needs OCR when a pattern of one of these phases lists it: "scan" rasterizes the page
# (no text layer), "text_layer" leaves a text layer that deliberately disagrees with the ink.
OCR_PHASES = frozenset({"scan", "text_layer"})


@dataclass
class Document:
    """One document of a packet with its manifest, field truth and rendered universe."""

    doc_id: str
    format: str
    file: Path
    manifest: dict[str, Any]
    fields: list[dict[str, Any]]
    strings: list[dict[str, Any]]
    hidden: list[dict[str, Any]]
    folder: Path = field(repr=False)
    schema: str = ""  # of the document truth
    truth: dict[str, Any] = field(default_factory=dict, repr=False)  # what a perfect reader returns
    # Values damaged past reading (docs/patterns.md rule 3b): {path, text, value, page}.
    illegible: list[dict[str, Any]] = field(default_factory=list)

    def truth_file(self, kind: str) -> Path:
        return self.folder / f"{kind}_{self.doc_id}.json"

    def overlay_pages(self) -> set[int]:
        """Pages on which a pattern drew over the content (lettering a reader ignores)."""
        pages: set[int] = set()
        for pattern in self.manifest.get("patterns_applied") or []:
            if isinstance(pattern, dict) and pattern.get("phase") == "overlay":
                affected = pattern.get("pages_affected")
                if isinstance(affected, list):
                    pages.update(p for p in affected if isinstance(p, int))
        return pages

    def scanned_pages(self) -> Iterator[tuple[int, dict[str, Any], dict[str, Any]]]:
        """(page, how it was scanned, the scan pattern) for every scanned page the manifest's
        scan patterns record."""
        for pattern in self.manifest.get("patterns_applied") or []:
            if not isinstance(pattern, dict) or pattern.get("phase") != "scan":
                continue
            pages = (pattern.get("details") or {}).get("pages")
            if not isinstance(pages, dict):
                continue
            for page, how in pages.items():
                if str(page).isdigit() and isinstance(how, dict):
                    yield int(page), how, pattern

    def scan_levels(self) -> dict[int, str]:
        """Scanned pages and the level each was scanned at (manifest scan patterns)."""
        return {
            page: str(how.get("level") or pattern.get("id"))
            for page, how, pattern in self.scanned_pages()
        }

    def attacks(self) -> Attacks:
        """What the manifest's text-layer attacks claim about the file (see `Attacks`)."""
        found = Attacks()
        for pattern in self.manifest.get("patterns_applied") or []:
            if not isinstance(pattern, dict) or not _attacks_text(pattern):
                continue
            affected = pattern.get("pages_affected")
            if isinstance(affected, list):
                found.pages.update(p for p in affected if type(p) is int)
            details = pattern.get("details")
            if not isinstance(details, dict):
                continue
            for key, into in (
                ("unreadable", found.unreadable),
                ("out_of_order", found.out_of_order),
            ):
                claims = details.get(key)
                if not isinstance(claims, dict):
                    continue
                for page, listed in claims.items():
                    if (
                        not str(page).isdigit()
                        or not isinstance(listed, list)
                        or not all(isinstance(item, str) for item in listed)
                    ):
                        raise BadInput(
                            f"{self.truth_file('manifest')}: pattern "
                            f"{pattern.get('id')!r} details.{key} is not page -> "
                            "list of strings"
                        )
                    into.setdefault(int(page), []).extend(listed)
        return found

    def inked_pages(self) -> set[int]:
        """Pages a hand.* pattern wrote or stamped on: their ink has no text layer, and OCR
        of it is judged by the handwriting recall level, not value by value."""
        pages: set[int] = set()
        for pattern in self.manifest.get("patterns_applied") or []:
            if isinstance(pattern, dict) and str(pattern.get("id", "")).startswith("hand."):
                affected = pattern.get("pages_affected")
                if isinstance(affected, list):
                    pages.update(p for p in affected if isinstance(p, int))
        return pages

    def ocr_pages(self) -> set[int]:
        """Pages whose text layer is missing or deliberately unreliable (manifest patterns)."""
        pages: set[int] = set()
        for pattern in self.manifest.get("patterns_applied") or []:
            if not isinstance(pattern, dict) or pattern.get("phase") not in OCR_PHASES:
                continue
            affected = pattern.get("pages_affected")
            if affected is None:  # a pattern without a page list affects every page
                pages.update(range(1, int(self.manifest.get("pages") or 0) + 1))
            elif isinstance(affected, list) and all(isinstance(p, int) for p in affected):
                pages.update(affected)
            else:
                raise BadInput(
                    f"{self.truth_file('manifest')}: pattern {pattern.get('id')!r} "
                    f"has pages_affected that is not a list of page numbers"
                )
        return pages


def _attacks_text(pattern: dict[str, Any]) -> bool:
    """A pattern that attacks the text layer (textlayer.*, and a scan's OCR layer)."""
    return pattern.get("family") == "textlayer" or pattern.get("id") == "scan.ocr_layer"


@dataclass
class Attacks:
    """The text-layer attacks a manifest claims: per page, the paths whose shown value the
    text layer must not yield at their location (`unreadable`), and [first, last] strings a
    reader meets first and last that the text layer has the other way round (`out_of_order`);
    `pages` every page such a pattern touched (where hidden text must not be seen)."""

    unreadable: dict[int, list[str]] = field(default_factory=dict)
    out_of_order: dict[int, list[str]] = field(default_factory=dict)
    pages: set[int] = field(default_factory=set)


@dataclass
class PacketDocuments:
    """A packet folder's documents, every file of each loaded and checked up front (the audit
    and the difficulty measure read them all): packet_truth.json and every listed document."""

    folder: Path
    packet_id: str
    truth: dict[str, Any]
    documents: list[Document]
    unlisted: list[str]  # truth files in the folder for documents packet_truth does not list


def _require(condition: bool, path: Path, what: str) -> None:
    if not condition:
        raise BadInput(f"{path}: {what}")


def _document(files: PacketFiles, doc_id: str) -> Document:
    """Document `doc_id`, its files read through `files` (checked as `core.packet_files`
    types them), with what the audit needs beyond their types: a known format, the file its
    manifest names, every field's drawn text and every universe string's text."""
    folder = files.folder
    manifest = files.manifest(doc_id)
    manifest_path = folder / f"manifest_{doc_id}.json"
    fmt = manifest.get("format")
    _require(fmt in FORMATS, manifest_path, f"unknown format {fmt!r}")
    file = folder / ids.check(manifest.get("file"), "file", manifest_path)
    _require(file.is_file(), file, "missing (named by its manifest)")
    fields = files.field_truth(doc_id)
    for index, field_entry in enumerate(fields["fields"]):
        _require(
            isinstance(field_entry.get("rendered_as"), str),
            folder / f"field_truth_{doc_id}.json",
            f"fields[{index}] has no rendered_as text",
        )
    universe = files.rendered_universe(doc_id)
    for key, entries in (
        ("hidden", universe.get("hidden")),
        ("illegible", universe.get("illegible")),
    ):
        for index, entry in enumerate(entries or []):
            _require(
                isinstance(entry, dict) and isinstance(entry.get("text"), str),
                folder / f"rendered_universe_{doc_id}.json",
                f"{key}[{index}] has no text",
            )
    document_truth = files.document_truth(doc_id)
    return Document(
        doc_id,
        str(fmt),
        file,
        cast(dict[str, Any], manifest),
        cast(list[dict[str, Any]], fields["fields"]),
        cast(list[dict[str, Any]], universe["strings"]),
        list(universe.get("hidden") or []),
        folder,
        str(document_truth.get("schema")),
        document_truth["truth"],
        list(universe.get("illegible") or []),
    )


def read_packet(folder: Path) -> PacketDocuments:
    """Read and check every truth file of the packet in `folder`."""
    truth_path = folder / "packet_truth.json"
    _require(truth_path.is_file(), folder, "not a packet folder (no packet_truth.json)")
    files = PacketFiles(folder)
    truth = files.packet_truth()
    documents = [_document(files, doc_id) for doc_id in files.doc_ids()]
    listed_ids = {doc.doc_id for doc in documents}
    on_disk = {
        p.name[len("field_truth_") : -len(".json")] for p in folder.glob("field_truth_*.json")
    }
    return PacketDocuments(
        folder,
        ids.check(truth.get("packet_id", folder.name), "packet_id", truth_path),
        cast(dict[str, Any], truth),
        documents,
        sorted(on_disk - listed_ids),
    )


def packet_folders(paths: Iterable[Path]) -> list[Path]:
    """The packet folders named by `paths` (a packet folder, or a folder of packets), each
    once, in the order given and by packet id within a folder."""
    folders = [packet.path for path in paths for packet in find_packets(path)]
    return list(dict.fromkeys(folders))
