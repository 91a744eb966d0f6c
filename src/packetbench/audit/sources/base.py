"""What every source auditor of a document shares: the document's audit state (its findings
and tallies, what its truth files say about its pages), the pages a source is given to read,
and the interface each source implements (`SourceAuditor`)."""

from __future__ import annotations

import unicodedata
from abc import ABC, abstractmethod
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, ClassVar

from packetbench.audit.agreement import agrees
from packetbench.audit.result import (
    HANDWRITING,
    INTEGRITY,
    MISSING,
    STRING_MISSING,
    UNTRACEABLE,
    VALUE_MISMATCH,
    DocumentAudit,
    Finding,
)
from packetbench.core import safe_read
from packetbench.core.errors import BadInput
from packetbench.reading.located import Located
from packetbench.truth.documents import Document

NUMBER_TYPES = frozenset({int, float})  # JSON numbers; bool is neither


def squash(text: str) -> str:
    """Whitespace-normalized text, the form PDF text and universe strings are compared in."""
    return " ".join(text.split())


def reads(text: str) -> str:
    """Text as a reader reads it: compatibility forms folded (NFKC: a ligature glyph reads
    as its letters, an Arabic presentation form as its letter), whitespace squashed."""
    return squash(unicodedata.normalize("NFKC", text))


class DocumentState:
    """One document's audit as its sources fill it in (`audit`: findings, tallies, stats), and
    what its truth files say that more than one source reads: where values are split across
    pages, which pages are scanned, inked or attacked, which boxes are illegible."""

    def __init__(
        self,
        doc: Document,
        packet: dict[str, Any] | None = None,
        calibrate: set[int] | None = None,
    ) -> None:
        self.doc = doc
        self.packet = packet  # packet_truth.json: scanned pages are judged by pixels first
        self.packet_id = str((packet or {}).get("packet_id") or doc.folder.name)
        # Scanned pages read by OCR to calibrate the pixel rule (`pixels.calibration_pages`,
        # drawn for the whole packet); None: the pages the hash alone samples (`sampled`).
        self.calibrate = calibrate
        self.audit = DocumentAudit(
            doc.doc_id, doc.format, doc.file.name, int(doc.manifest.get("pages") or 0)
        )
        self.fields_file = doc.truth_file("field_truth").name
        self.strings_file = doc.truth_file("rendered_universe").name
        self.readings = readings(doc.manifest)
        # Pieces of values split across pages: field index -> {piece: text read}.
        self.pieces: dict[int, dict[int, str]] = defaultdict(dict)
        # ...and the scan level of the scanned page OCR read a piece from (None: not scanned).
        self.ocr_pieces: dict[int, str | None] = {}
        self.levels = doc.scan_levels()  # scanned page -> scan level
        self.attacks = doc.attacks()  # what text-layer attacks claim about the file
        # Pages with ink only OCR reads (hand.*); a scan of the page judges it by its level.
        self.inked = {page: HANDWRITING for page in doc.inked_pages()}
        # Boxes the generator judged illegible (`legible: false`): page -> (field, quad or
        # bbox). Never read as the value; OCR must not recover them (`check_illegible`).
        self.illegible: dict[int, list[Located]] = defaultdict(list)
        # Scanned page -> how far it is turned (`page_turn` of all its located boxes).
        self.turns: dict[int, float] = {}

    def field_result(
        self,
        index: int,
        found: bool,
        reader: str,
        *,
        page: int | None = None,
        where: str = "",
        got: str = "",
        detail: str = "",
        by_page: bool = False,
    ) -> None:
        self.audit.tally("fields", reader).add(found, by_page)
        if found:
            return
        entry = self.doc.fields[index]
        self.audit.unconfirmed_fields.add(index)
        self.audit.findings.append(
            Finding(
                MISSING,
                self.doc.doc_id,
                self.fields_file,
                entry["path"],
                reader,
                page,
                where,
                entry["rendered_as"],
                got,
                detail,
            )
        )

    def string_result(
        self, index: int, found: bool, reader: str, page: int | None, detail: str = ""
    ) -> None:
        self.audit.tally("strings", reader).add(found)
        if found:
            return
        self.audit.unconfirmed_strings.add(index)
        self.audit.findings.append(
            Finding(
                STRING_MISSING,
                self.doc.doc_id,
                self.strings_file,
                f"strings[{index}]",
                reader,
                page,
                f"page {page}",
                self.doc.strings[index]["text"],
                "",
                detail,
            )
        )

    def problem(self, problem: str, path: str, detail: str, file: str = "") -> None:
        self.audit.findings.append(
            Finding(problem, self.doc.doc_id, file or self.fields_file, path, detail=detail)
        )

    def check_files(self, actual_pages: int) -> None:
        doc, manifest = self.doc, self.doc.manifest
        self.audit.pages = actual_pages
        digest = safe_read.sha256(doc.file, "document")
        if digest != manifest.get("sha256"):
            self.problem(
                INTEGRITY,
                "",
                f"sha256 {digest} differs from the manifest's "
                f"{manifest.get('sha256')}: the truth may describe another file",
                doc.file.name,
            )
        if manifest.get("pages") != actual_pages:
            self.problem(
                INTEGRITY,
                "",
                f"the file has {actual_pages} page(s), the manifest says {manifest.get('pages')}",
                doc.file.name,
            )
        if manifest.get("doc_id") != doc.doc_id:
            self.problem(
                INTEGRITY,
                "",
                f"manifest doc_id {manifest.get('doc_id')!r} is not {doc.doc_id!r}",
                doc.truth_file("manifest").name,
            )
        if not doc.fields:
            self.problem(INTEGRITY, "", "no field_truth entries: nothing to audit")

    def check_values(self) -> None:
        for index, entry in enumerate(self.doc.fields):
            if not entry.get("locations"):
                self.audit.unconfirmed_fields.add(index)
                self.problem(
                    UNTRACEABLE,
                    entry["path"],
                    "no locations: the value is in the universe but drawn nowhere",
                )
            reading = self.readings.get(entry["path"])
            if not agrees(
                entry.get("value"), entry["rendered_as"], str(entry.get("kind")), reading
            ):
                self.audit.unconfirmed_fields.add(index)
                self.audit.findings.append(
                    Finding(
                        VALUE_MISMATCH,
                        self.doc.doc_id,
                        self.fields_file,
                        entry["path"],
                        expected=entry["rendered_as"],
                        got=str(entry.get("value")),
                        detail=f"the value does not read as what was drawn (kind "
                        f"{entry.get('kind')})",
                    )
                )
        for index, entry in enumerate(self.doc.strings):
            page = entry.get("page")
            if not isinstance(page, int) or isinstance(page, bool) or page < 1:
                self.audit.unconfirmed_strings.add(index)
                self.problem(
                    UNTRACEABLE,
                    f"strings[{index}]",
                    f"{entry['text']!r} has no page",
                    self.strings_file,
                )

    def strings_by_page(self) -> dict[int, list[int]]:
        pages: dict[int, list[int]] = defaultdict(list)
        for index, entry in enumerate(self.doc.strings):
            page = entry.get("page")
            if isinstance(page, int) and not isinstance(page, bool) and page >= 1:
                pages[page].append(index)
        return pages

    def bad_location(self, index: int, location: Any, needs: str) -> BadInput:
        return BadInput(
            f"{self.doc.truth_file('field_truth')}: "
            f"{self.doc.fields[index]['path']}: location {location!r} is not "
            f"{needs}"
        )

    def unchecked(self, fields: list[Located], texts: list[int]) -> None:
        """Neither found nor missing: counted, and the audit fails unless OCR reads them."""
        self.audit.not_checked["fields"] += len(fields)
        self.audit.not_checked["strings"] += len(texts)
        self.audit.unchecked_fields.update(index for index, *_ in fields)
        self.audit.unchecked_strings.update(texts)


@dataclass
class Pages:
    """What a source is given to read: page numbers (1-based; a workbook's sheets are its
    pages, a CSV file has one), the located values on each (field index, box, piece, whether
    the text layer carries it: PDF pages only, as a workbook's or CSV file's values are
    located by cell and its auditor reads those from the field truth), and the indices of the
    visible strings on each. A source may cut `located` and `strings` down to what it left
    unread."""

    numbers: list[int]
    located: dict[int, list[Located]] = field(default_factory=dict)
    strings: dict[int, list[int]] = field(default_factory=dict)


class SourceAuditor(ABC):
    """One source a document's values are read back from, as docling has one backend per
    format: a PDF page's text layer (`TextLayerAuditor`), a scanned or otherwise unreadable
    PDF page (`ScannedPageAuditor`: the pixel rule, then OCR), a workbook (`WorkbookAuditor`)
    and a CSV file (`CsvAuditor`). `check` reads back the values and strings of the pages it is
    given: each found is tallied under `reader`, each not found is a finding, both in
    `state.audit`. Which source reads which page is `audit_document`'s choice (for a PDF,
    `PdfPages`'s)."""

    reader: ClassVar[str]  # the reader its tallies and findings name

    def __init__(self, state: DocumentState) -> None:
        self.state = state
        self.doc = state.doc
        self.audit = state.audit

    @abstractmethod
    def check(self, pages: Pages) -> None:
        """Read back what `pages` locates and shows; record it in `self.audit`."""


def readings(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Path -> how its shown text is read (a pattern's delta `reading`, legend included)."""
    out: dict[str, dict[str, Any]] = {}
    for pattern in manifest.get("patterns_applied") or []:
        if not isinstance(pattern, dict):
            continue
        found = pattern.get("details")
        details: dict[str, Any] = found if isinstance(found, dict) else {}
        delta = pattern.get("ground_truth_delta")
        for path, entry in delta.items() if isinstance(delta, dict) else ():
            if isinstance(entry, dict) and isinstance(entry.get("reading"), str):
                out[path] = {**entry, "legend": details.get("legend")}
    return out
