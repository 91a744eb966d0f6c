"""Audit one document: every located value and every visible string, read back independently.

PDF pages are read through their text layer (`pdftext`), or by OCR (`ocr`) where the manifest
says the text layer cannot be trusted; workbooks through openpyxl (`sheets`), CSV files through
the csv module (`csvcells`). Nothing the generator recorded about *how* it drew is reused: a
value is found only when the reader returns its `rendered_as` at its location.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from benchmark.audit.agreement import agrees
from benchmark.audit.csvcells import CsvCells
from benchmark.audit.files import Document
from benchmark.audit.ocr import OcrPage, Tesseract, read_pages
from benchmark.audit.pdftext import PdfText
from benchmark.audit.result import (
    HANDWRITING,
    INTEGRITY,
    MISSING,
    NOT_CHECKED,
    STRING_MISSING,
    UNTRACEABLE,
    VALUE_MISMATCH,
    DocumentAudit,
    Finding,
)
from benchmark.audit.sheets import Workbook
from benchmark.audit.truth import check_truth
from benchmark.errors import BadInput

# Called once per PDF page read through its text layer (benchmarks and progress use it).
PageHook = Callable[[], None]
_NUMBER_TYPES = frozenset({int, float})  # JSON numbers; bool is neither


def _turn(fields: list[Located]) -> float:
    """How far a scanned page is turned (degrees, counter-clockwise): the median slope of its
    located boxes' lower edges, from their quads."""
    import math

    slopes = sorted(math.degrees(math.atan2(b[3] - b[1], b[2] - b[0]))
                    for _, b, *_ in fields if len(b) == 8 and b[2] - b[0] > 8)
    return slopes[len(slopes) // 2] if slopes else 0.0


def squash(text: str) -> str:
    """Whitespace-normalized text, the form PDF text and universe strings are compared in."""
    return " ".join(text.split())


def reads(text: str) -> str:
    """Text as a reader reads it: compatibility forms folded (NFKC: a ligature glyph reads
    as its letters, an Arabic presentation form as its letter), whitespace squashed."""
    return squash(unicodedata.normalize("NFKC", text))


class _Auditor:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.audit = DocumentAudit(doc.doc_id, doc.format, doc.file.name,
                                   int(doc.manifest.get("pages") or 0))
        self.fields_file = doc.truth_file("field_truth").name
        self.strings_file = doc.truth_file("rendered_universe").name
        self.readings = readings(doc.manifest)
        # Pieces of values split across pages: field index -> {piece: text read}.
        self.pieces: dict[int, dict[int, str]] = defaultdict(dict)
        self.levels = doc.scan_levels()  # scanned page -> scan level
        # Pages with ink only OCR reads (hand.*); a scan of the page judges it by its level.
        self.inked = {page: HANDWRITING for page in doc.inked_pages()}

    # --- findings ----------------------------------------------------------------------------

    def field_result(self, index: int, found: bool, reader: str, *, page: int | None = None,
                     where: str = "", got: str = "", detail: str = "",
                     by_page: bool = False) -> None:
        self.audit.tally("fields", reader).add(found, by_page)
        if found:
            return
        entry = self.doc.fields[index]
        self.audit.unconfirmed_fields.add(index)
        self.audit.findings.append(Finding(
            MISSING, self.doc.doc_id, self.fields_file, entry["path"], reader, page, where,
            entry["rendered_as"], got, detail))

    def string_result(self, index: int, found: bool, reader: str, page: int | None,
                      detail: str = "") -> None:
        self.audit.tally("strings", reader).add(found)
        if found:
            return
        self.audit.unconfirmed_strings.add(index)
        self.audit.findings.append(Finding(
            STRING_MISSING, self.doc.doc_id, self.strings_file, f"strings[{index}]", reader,
            page, f"page {page}", self.doc.strings[index]["text"], "", detail))

    def problem(self, problem: str, path: str, detail: str, file: str = "") -> None:
        self.audit.findings.append(Finding(problem, self.doc.doc_id, file or self.fields_file,
                                           path, detail=detail))

    # --- checks that need no reader ------------------------------------------------------------

    def check_files(self, actual_pages: int) -> None:
        doc, manifest = self.doc, self.doc.manifest
        self.audit.pages = actual_pages
        digest = hashlib.sha256(doc.file.read_bytes()).hexdigest()
        if digest != manifest.get("sha256"):
            self.problem(INTEGRITY, "", f"sha256 {digest} differs from the manifest's "
                         f"{manifest.get('sha256')}: the truth may describe another file",
                         doc.file.name)
        if manifest.get("pages") != actual_pages:
            self.problem(INTEGRITY, "", f"the file has {actual_pages} page(s), the manifest "
                         f"says {manifest.get('pages')}", doc.file.name)
        if manifest.get("doc_id") != doc.doc_id:
            self.problem(INTEGRITY, "", f"manifest doc_id {manifest.get('doc_id')!r} is not "
                         f"{doc.doc_id!r}", doc.truth_file("manifest").name)
        if not doc.fields:
            self.problem(INTEGRITY, "", "no field_truth entries: nothing to audit")

    def check_values(self) -> None:
        for index, entry in enumerate(self.doc.fields):
            if not entry.get("locations"):
                self.audit.unconfirmed_fields.add(index)
                self.problem(UNTRACEABLE, entry["path"], "no locations: the value is in the "
                             "universe but drawn nowhere")
            reading = self.readings.get(entry["path"])
            if not agrees(entry.get("value"), entry["rendered_as"], str(entry.get("kind")),
                          reading):
                self.audit.unconfirmed_fields.add(index)
                self.audit.findings.append(Finding(
                    VALUE_MISMATCH, self.doc.doc_id, self.fields_file, entry["path"],
                    expected=entry["rendered_as"], got=str(entry.get("value")),
                    detail=f"the value does not read as what was drawn (kind "
                           f"{entry.get('kind')})"))
        for index, entry in enumerate(self.doc.strings):
            page = entry.get("page")
            if not isinstance(page, int) or isinstance(page, bool) or page < 1:
                self.audit.unconfirmed_strings.add(index)
                self.problem(UNTRACEABLE, f"strings[{index}]",
                             f"{entry['text']!r} has no page", self.strings_file)

    def strings_by_page(self) -> dict[int, list[int]]:
        pages: dict[int, list[int]] = defaultdict(list)
        for index, entry in enumerate(self.doc.strings):
            page = entry.get("page")
            if isinstance(page, int) and not isinstance(page, bool) and page >= 1:
                pages[page].append(index)
        return pages

    def bad_location(self, index: int, location: Any, needs: str) -> BadInput:
        return BadInput(f"{self.doc.truth_file('field_truth')}: "
                        f"{self.doc.fields[index]['path']}: location {location!r} is not "
                        f"{needs}")

    # --- PDF -----------------------------------------------------------------------------------

    def pdf(self, engine: Tesseract | None, on_page: PageHook | None) -> None:
        with PdfText(self.doc.file) as pdf:
            self.check_files(pdf.pages)
            ocr_pages = self.doc.ocr_pages()
            self.audit.ocr_pages = sorted(ocr_pages)
            located: dict[int, list[Located]] = defaultdict(list)
            pixels_only: set[int] = set()  # pages holding something only OCR can read
            for index, entry in enumerate(self.doc.fields):
                for location in entry.get("locations") or []:
                    page = location.get("page") if isinstance(location, dict) else None
                    bbox = location.get("bbox") if isinstance(location, dict) else None
                    if (type(page) is not int or type(bbox) is not list or len(bbox) != 4
                            or set(map(type, bbox)) - _NUMBER_TYPES):
                        raise self.bad_location(index, location, "{page, bbox: [x0, y0, x1, y1]}")
                    piece = _piece(location)
                    if piece is None:
                        raise self.bad_location(index, location, "a fragment [i, n] location")
                    text_layer = location.get("text_layer", True) is not False
                    quad = location.get("quad")
                    if quad is not None:  # a scanned page: the box's exact corners
                        if (type(quad) is not list or len(quad) != 8
                                or set(map(type, quad)) - _NUMBER_TYPES):
                            raise self.bad_location(index, location, "a quad of 8 numbers")
                        bbox = quad
                    located[page].append((index, bbox, piece, text_layer))
            strings = self.strings_by_page()
            for page, indices in strings.items():
                if any(self.doc.strings[i].get("text_layer") is False for i in indices):
                    pixels_only.add(page)
            for page, fields in located.items():
                if any(not text_layer for *_, text_layer in fields):
                    pixels_only.add(page)
            scans: list[int] = []
            for page in sorted(set(located) | set(strings)):
                fields, texts = located.get(page, []), strings.get(page, [])
                if not 1 <= page <= pdf.pages:
                    for index, bbox, *_ in fields:
                        self.field_result(index, False, "pdf", page=page,
                                          where=f"page {page} bbox {bbox}",
                                          detail=f"the document has {pdf.pages} page(s)")
                    for index in texts:
                        self.string_result(index, False, "pdf", page,
                                           f"the document has {pdf.pages} page(s)")
                elif page in ocr_pages and engine is None:
                    self.unchecked(fields, texts)
                elif page in ocr_pages:
                    scans.append(page)
                else:
                    # The text layer reads what it carries; the rest needs the page image.
                    on_layer = [f for f in fields if f[3]]
                    layer_texts = [i for i in texts
                                   if self.doc.strings[i].get("text_layer") is not False]
                    self.text_layer_page(pdf, page, on_layer, layer_texts)
                    if page in pixels_only:
                        pixel_fields = [f for f in fields if not f[3]]
                        pixel_texts = [i for i in texts if i not in set(layer_texts)]
                        if engine is None:
                            self.unchecked(pixel_fields, pixel_texts)
                        else:
                            scans.append(page)
                            located[page] = pixel_fields
                            strings[page] = pixel_texts
                    if on_page is not None:
                        on_page()
            if scans and engine is not None:
                angles = {page: _turn(located.get(page, [])) for page in scans
                          if page in self.levels}
                for page, scan in read_pages(pdf.document(), scans, engine, self.doc.file,
                                             angles=angles):
                    self.ocr_page(scan, page, located.get(page, []), strings.get(page, []))
            self.join_pieces()
        if sum(self.audit.not_checked.values()):
            pages = sorted(p for p in ocr_pages | pixels_only if p in located or p in strings)
            self.problem(NOT_CHECKED, "", f"{self.audit.not_checked['fields']} located "
                         f"value(s) and {self.audit.not_checked['strings']} string(s) on "
                         f"page(s) {pages} need OCR (text layer missing or unreliable); "
                         f"run with --ocr", self.doc.file.name)

    def unchecked(self, fields: list[Located], texts: list[int]) -> None:
        """Neither found nor missing: counted, and the audit fails unless OCR reads them."""
        self.audit.not_checked["fields"] += len(fields)
        self.audit.not_checked["strings"] += len(texts)
        self.audit.unchecked_fields.update(index for index, *_ in fields)
        self.audit.unchecked_strings.update(texts)

    def text_layer_page(self, pdf: PdfText, page: int, fields: list[Located],
                        texts: list[int]) -> None:
        with pdf.page(page, sizes=page in self.doc.overlay_pages()) as layer:
            read = layer.bounded_many([bbox for _, bbox, *_ in fields], display=False)
            page_text = reads(layer.text)
        entries = self.doc.fields
        misses = whole = 0
        for (index, bbox, piece, _), got in zip(fields, read, strict=True):
            if piece[1] > 1:
                self.pieces[index][piece[0]] = got  # judged once every piece is read
                continue
            whole += 1
            expected = entries[index]["rendered_as"]
            if got != expected and reads(got) != reads(expected):
                misses += 1
                self.field_result(index, False, "pdf", page=page,
                                  where=f"page {page} bbox {bbox}", got=squash(got))
        tally = self.audit.tally("fields", "pdf")
        tally.checked += whole - misses  # the misses counted themselves
        tally.found += whole - misses
        strings, misses = self.doc.strings, 0
        for index in texts:
            text = strings[index]["text"]
            # A string found as written is found squashed too (the page text has no runs).
            if text not in page_text and reads(text) not in page_text:
                misses += 1
                self.string_result(index, False, "pdf", page)
        tally = self.audit.tally("strings", "pdf")
        tally.checked += len(texts) - misses
        tally.found += len(texts) - misses

    def join_pieces(self) -> None:
        """A value split across pages reads as its pieces joined in order."""
        for index, pieces in sorted(self.pieces.items()):
            entry = self.doc.fields[index]
            count = max(_piece(loc) or (1, 1) for loc in entry["locations"])[1]
            got = " ".join(pieces.get(i, "") for i in range(1, count + 1))
            found = len(pieces) == count and reads(got) == reads(entry["rendered_as"])
            self.field_result(index, found, "pdf", where=f"{count} pieces", got=squash(got),
                              detail="" if found else "a value split across pages")

    def ocr_page(self, scan: OcrPage, page: int, fields: list[Located],
                 texts: list[int]) -> None:
        level = self.levels.get(page) or self.inked.get(page)
        for index, bbox, *_ in fields:
            entry = self.doc.fields[index]
            if entry.get("kind") == "checkbox":
                found, got = scan.find_mark(bbox, entry["rendered_as"])
                by_page = False
            else:
                found, by_page, got = scan.find(bbox, entry["rendered_as"])
            where = f"page {page} {'quad' if len(bbox) == 8 else 'bbox'} {bbox}"
            if level is None:
                self.field_result(index, found, "ocr", page=page, where=where, got=got,
                                  by_page=by_page)
                continue
            # A scanned or inked page is judged by its level's recall (OCR_RECALL_MIN).
            self.audit.tally("fields", "ocr").add(found, by_page)
            self.audit.scan_tally(level, "fields").add(found, by_page)
            if not found:
                self.audit.ocr_misses.append(Finding(
                    MISSING, self.doc.doc_id, self.fields_file, entry["path"], "ocr", page,
                    where, entry["rendered_as"], got, f"scan level {level}"))
        for index in texts:
            found = scan.has_string(self.doc.strings[index]["text"])
            if level is None:
                self.string_result(index, found, "ocr", page)
                continue
            self.audit.tally("strings", "ocr").add(found)
            self.audit.scan_tally(level, "strings").add(found)
            if not found:
                self.audit.ocr_misses.append(Finding(
                    STRING_MISSING, self.doc.doc_id, self.strings_file, f"strings[{index}]",
                    "ocr", page, f"page {page}", self.doc.strings[index]["text"], "",
                    f"scan level {level}"))

    # --- XLSX ----------------------------------------------------------------------------------

    def _cell_locations(self, keys: tuple[str, str], kind: type, shape: str,
                        ) -> Iterator[tuple[int, Any, Any]]:
        """(field index, first key, second key) of every cell location, shape-checked."""
        for index, entry in enumerate(self.doc.fields):
            for location in entry.get("locations") or []:
                first = location.get(keys[0]) if isinstance(location, dict) else None
                second = location.get(keys[1]) if isinstance(location, dict) else None
                if not isinstance(first, kind) or not isinstance(second, kind):
                    raise self.bad_location(index, location, shape)
                yield index, first, second

    def xlsx(self) -> None:
        book = Workbook(self.doc.file)
        try:
            self.check_files(len(book.sheets))
            for index, sheet, ref in self._cell_locations(("sheet", "cell"), str,
                                                          "{sheet, cell}"):
                got, why = book.cell(sheet, ref)
                self.field_result(index, got == self.doc.fields[index]["rendered_as"], "xlsx",
                                  where=f"{sheet}!{ref}", got=got or "", detail=why)
            for page, indices in sorted(self.strings_by_page().items()):
                texts = book.sheet_texts(page)
                for index in indices:
                    visible = texts is not None and squash(self.doc.strings[index]["text"]) in texts
                    self.string_result(index, visible, "xlsx", page,
                                       "" if texts is not None else f"sheet {page} is hidden "
                                       "or absent")
        finally:
            book.close()

    # --- CSV -----------------------------------------------------------------------------------

    def csv(self) -> None:
        cells = CsvCells(self.doc.file)
        self.check_files(1)
        for index, row, column in self._cell_locations(("row", "column"), int,
                                                       "{row, column}"):
            got, why = cells.cell(row, column)
            self.field_result(index, got == self.doc.fields[index]["rendered_as"], "csv",
                              where=f"row {row}, column {column}", got=got or "", detail=why)
        texts = cells.texts()
        for page, indices in sorted(self.strings_by_page().items()):
            for index in indices:
                found = page == 1 and squash(self.doc.strings[index]["text"]) in texts
                self.string_result(index, found, "csv", page,
                                   "" if page == 1 else "a CSV file has one page")


Located = tuple[int, list[float], tuple[int, int], bool]  # field, bbox, piece, text layer


def _piece(location: dict[str, Any]) -> tuple[int, int] | None:
    """(i, n) of a location holding the i-th of n pieces of a value; (1, 1) for a whole one."""
    fragment = location.get("fragment")
    if fragment is None:
        return (1, 1)
    if (isinstance(fragment, list) and len(fragment) == 2
            and all(type(v) is int for v in fragment) and 1 <= fragment[0] <= fragment[1]):
        return (fragment[0], fragment[1])
    return None


def readings(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Path -> how its shown text is read (a pattern's delta `reading`, legend included)."""
    out: dict[str, dict[str, Any]] = {}
    for pattern in manifest.get("patterns_applied") or []:
        if not isinstance(pattern, dict):
            continue
        found = pattern.get("details")
        details: dict[str, Any] = found if isinstance(found, dict) else {}
        delta = pattern.get("ground_truth_delta")
        for path, entry in (delta.items() if isinstance(delta, dict) else ()):
            if isinstance(entry, dict) and isinstance(entry.get("reading"), str):
                out[path] = {**entry, "legend": details.get("legend")}
    return out


def audit_document(doc: Document, *, engine: Tesseract | None = None,
                   on_page: PageHook | None = None) -> DocumentAudit:
    """Read back every located value and visible string of `doc`; `engine` enables OCR."""
    auditor = _Auditor(doc)
    auditor.audit.findings.extend(check_truth(doc))
    auditor.check_values()
    if doc.format == "pdf":
        auditor.pdf(engine, on_page)
    elif doc.format == "xlsx":
        auditor.xlsx()
    else:
        auditor.csv()
    return auditor.audit
