"""Audit one document: every located value and every visible string, read back independently.

PDF pages are read through their text layer (`pdftext`), or by OCR (`ocr`) where the manifest
says the text layer cannot be trusted; workbooks through openpyxl (`sheets`), CSV files through
the csv module (`csvcells`). Nothing the generator recorded about *how* it drew is reused: a
value is found only when the reader returns its `rendered_as` at its location.
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from packetbench.audit.agreement import agrees
from packetbench.audit.csvcells import CsvCells
from packetbench.audit.files import Document
from packetbench.audit.located import Located, page_turn
from packetbench.audit.located import piece_of as _piece
from packetbench.audit.native import unattacked
from packetbench.audit.ocr import (
    DPI,
    OcrPage,
    Tesseract,
    folded,
    misread_everywhere,
    read_bands,
    read_boxes,
    read_pages,
    same_text,
    shown_elsewhere,
)
from packetbench.audit.pdftext import PdfText
from packetbench.audit.pixels import (
    COVERED,
    Agreement,
    PixelPage,
    PixelStats,
    image_alone,
    pixel_pages,
    same_pixels,
    sampled,
)
from packetbench.audit.result import (
    ATTACK_ABSENT,
    HANDWRITING,
    HIDDEN_VISIBLE,
    ILLEGIBLE_READABLE,
    INTEGRITY,
    MISSING,
    NATIVE,
    NOT_CHECKED,
    STRING_MISSING,
    UNACCOUNTED,
    UNTRACEABLE,
    VALUE_MISMATCH,
    DocumentAudit,
    Finding,
)
from packetbench.audit.sheets import Workbook
from packetbench.audit.truth import check_truth
from packetbench.audit.unaccounted import (
    GARBLED,
    OCR_LAYERS,
    accounted,
    declared_cells,
    describe,
    orphans,
    pages_of,
    unaccounted,
)
from packetbench.core import safe_read
from packetbench.core.errors import BadInput
from packetbench.legibility import DAMAGED_VERDICT, INTACT_VERDICT, UNDECIDED_VERDICT

# Called once per PDF page read through its text layer (benchmarks and progress use it).
PageHook = Callable[[], None]
_NUMBER_TYPES = frozenset({int, float})  # JSON numbers; bool is neither


# Brackets folded to one direction: text extraction mirrors them beside right-to-left text.
_MIRRORED = str.maketrans(")]}>", "([{<")


def squash(text: str) -> str:
    """Whitespace-normalized text, the form PDF text and universe strings are compared in."""
    return " ".join(text.split())


def reads(text: str) -> str:
    """Text as a reader reads it: compatibility forms folded (NFKC: a ligature glyph reads
    as its letters, an Arabic presentation form as its letter), whitespace squashed."""
    return squash(unicodedata.normalize("NFKC", text))


class _Auditor:
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
        # The pixel rule's calibration sample: page -> (field, verdict); what OCR found.
        self.calibration: dict[int, list[tuple[int, str]]] = {}
        self.ocr_found: dict[tuple[int, int], bool] = {}
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
        # Pieces of split values the pixel rule found intact: field index -> piece numbers.
        self.intact_pieces: dict[int, set[int]] = defaultdict(set)
        # Scanned page -> how far it is turned (`page_turn` of all its located boxes).
        self.turns: dict[int, float] = {}
        # Strings the pixel rule left to OCR: (page, string index) -> the quad to read it in.
        self.string_boxes: dict[tuple[int, int], list[float]] = {}
        # Attacked pages shown to draw nothing but their image: hidden text settled by pixels.
        self.image_only: set[int] = set()
        # Strings drawn across their page (`PixelPage.spreads`): string_boxes holds the
        # rectangle along their line, and OCR reads them there (`ocr.read_lines`).
        self.spread: set[tuple[int, int]] = set()
        # Strings printed over a scanned page after its scan (a fax header: `Rebuilt.printed`).
        self.overprinted: set[tuple[int, int]] = set()

    # --- findings ----------------------------------------------------------------------------

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

    # --- checks that need no reader ------------------------------------------------------------

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
                    if (
                        type(page) is not int
                        or type(bbox) is not list
                        or len(bbox) != 4
                        or set(map(type, bbox)) - _NUMBER_TYPES
                    ):
                        raise self.bad_location(index, location, "{page, bbox: [x0, y0, x1, y1]}")
                    piece = _piece(location)
                    if piece is None:
                        raise self.bad_location(index, location, "a fragment [i, n] location")
                    text_layer = location.get("text_layer", True) is not False
                    quad = location.get("quad")
                    if quad is not None:  # a scanned page: the box's exact corners
                        if (
                            type(quad) is not list
                            or len(quad) != 8
                            or set(map(type, quad)) - _NUMBER_TYPES
                        ):
                            raise self.bad_location(index, location, "a quad of 8 numbers")
                        bbox = quad
                    if location.get("legible") is False:
                        self.illegible[page].append((index, bbox, piece, text_layer))
                        continue
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
                        self.field_result(
                            index,
                            False,
                            "pdf",
                            page=page,
                            where=f"page {page} bbox {bbox}",
                            detail=f"the document has {pdf.pages} page(s)",
                        )
                    for index in texts:
                        self.string_result(
                            index, False, "pdf", page, f"the document has {pdf.pages} page(s)"
                        )
                elif page in ocr_pages and engine is None:
                    self.unchecked(fields, texts)
                elif page in ocr_pages:
                    scans.append(page)
                else:
                    # The text layer reads what it carries; the rest needs the page image.
                    on_layer = [f for f in fields if f[3]]
                    layer_texts = [
                        i for i in texts if self.doc.strings[i].get("text_layer") is not False
                    ]
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
            self.check_attacks(pdf, located)
            self.check_unaccounted(pdf)
            # Hidden text on an attacked page must not be on its image: only OCR can say.
            hidden_pages = sorted(
                {
                    entry["page"]
                    for entry in self.doc.hidden
                    if entry.get("page") in self.attacks.pages
                }
            )
            if engine is None:
                self.audit.attacks["hidden_not_checked"] += sum(
                    1 for entry in self.doc.hidden if entry.get("page") in self.attacks.pages
                )
            else:
                scans = sorted(set(scans) | {p for p in hidden_pages if 1 <= p <= pdf.pages})
            # How far each scanned page is turned, from all its boxes: the pixel rule may
            # leave a page few or none for OCR to read, and that page is turned all the same.
            self.turns = {
                page: page_turn(located.get(page, []) + self.illegible.get(page, []))
                for page in scans
                if page in self.levels
            }
            if scans and engine is not None and self.packet is not None:
                scans = self.by_unattacked(scans, located, strings)
            if scans and engine is not None and self.packet is not None:
                scans = self.by_pixels(pdf, scans, located, strings, engine)
            if scans and engine is not None:
                angles = {page: self.turns[page] for page in scans if page in self.turns}
                for page, scan in read_pages(
                    pdf.document(), scans, engine, self.doc.file, angles=angles
                ):
                    self.ocr_page(scan, page, located.get(page, []), strings.get(page, []))
                self.calibrated()
            self.join_pieces()
            if engine is not None:
                self.check_illegible(pdf, engine)
        hidden = self.audit.attacks["hidden_not_checked"]
        if sum(self.audit.not_checked.values()) or hidden:
            pages = sorted(
                p
                for p in ocr_pages | pixels_only | self.attacks.pages
                if p in located or p in strings or p in self.attacks.pages
            )
            self.problem(
                NOT_CHECKED,
                "",
                f"{self.audit.not_checked['fields']} located "
                f"value(s) and {self.audit.not_checked['strings']} string(s) on "
                f"page(s) {pages} need OCR (text layer missing or unreliable)"
                + (
                    f", and {hidden} hidden string(s) must be shown absent from the page image"
                    if hidden
                    else ""
                )
                + "; run with --ocr",
                self.doc.file.name,
            )

    def by_pixels(
        self,
        pdf: PdfText,
        scans: list[int],
        located: dict[int, list[Located]],
        strings: dict[int, list[int]],
        engine: Tesseract,
    ) -> list[int]:
        """Scanned pages judged by pixels first (`audit.pixels`): a located value whose box is
        intact is found, one whose box is damaged is a finding, an undecided one is left to
        OCR; a visible string is found when a place its native page draws it is intact, else
        left to OCR. Returns the pages that still need whole-page OCR, with `located` and
        `strings` cut down to what they must read. A page of an attacked text layer (a scan's
        OCR layer) is judged so only when it draws nothing but its image (`image_alone`): its
        hidden text is then shown absent from the page image by pixels, else it keeps
        whole-page OCR."""
        stats = self.audit.pixels = self.audit.pixels or PixelStats()
        wanted = [p for p in scans if p in self.levels]
        if not wanted:
            return scans
        pages, stats.unavailable = pixel_pages(self.doc, self.packet or {}, pdf.document())
        remaining = []
        for page in scans:
            judged = pages.get(page) if page in wanted else None
            if (
                judged is not None
                and page in self.attacks.pages
                and not self.calibrating(page)
                and not self.hidden_by_pixels(page, judged)
            ):
                wanted.remove(page)  # its hidden text is OCR's to show absent: read whole
                judged = None
            if judged is None:
                remaining.append(page)
                continue
            if self.calibrating(page):
                # The calibration sample: read by OCR as a full audit reads it (its findings
                # are a full audit's), and each box's pixel verdict set beside that reading.
                stats.pages_sampled += 1
                self.calibration[page] = [
                    (index, judged.judge_box(bbox).verdict)
                    for index, bbox, piece, _ in located.get(page, [])
                    if piece[1] == 1 and self.doc.fields[index].get("kind") != "checkbox"
                ]
                remaining.append(page)
                continue
            stats.pages += 1
            fields, texts = self.judge_page(
                page, judged, located.get(page, []), strings.get(page, [])
            )
            located[page], strings[page] = fields, texts
            if fields or texts:
                remaining.append(page)
        self.split_by_pixels(located)
        # The pages judged by pixels: what the rule left on them is read box by box, and
        # the page whole only for what that does not find.
        judged_pages = [
            p for p in remaining if p in pages and p in wanted and p not in self.calibration
        ]
        self.nothing_to_read(judged_pages, located, strings)
        self.read_undecided(pdf, judged_pages, located, strings, engine)
        remaining = [
            p for p in remaining if p not in judged_pages or located.get(p) or strings.get(p)
        ]
        banded = self.read_bands(
            pdf, [p for p in remaining if p in judged_pages], located, strings, engine
        )
        remaining = [p for p in remaining if p not in banded]
        stats.pages_ocr = sum(1 for p in remaining if p in judged_pages)
        return remaining

    def by_unattacked(
        self, scans: list[int], located: dict[int, list[Located]], strings: dict[int, list[int]]
    ) -> list[int]:
        """Native pages whose text layer only attacks made on the emitted file touched
        (`textlayer.*` of phase post: a scrambled ToUnicode, a hidden layer) are settled
        without OCR when the rebuild has the file as emitted before them (`native.unattacked`,
        given only when the packet's file is the rebuild's byte for byte) and each such page
        renders at the OCR resolution the very pixels the attacked page does: then the
        attack drew nothing, what that page's text layer holds at each box is what the page
        shows there (reader `pixel`), and its hidden strings are not on it
        (`hidden_not_drawn`). Returns the pages still left to OCR."""
        pages = self.post_attacked() & set(scans)
        pages -= set(self.levels) | set(self.inked)
        if not pages:
            return scans
        stats = self.audit.pixels = self.audit.pixels or PixelStats()
        data, why = unattacked(self.doc, self.packet or {})
        if data is None:
            stats.unavailable = stats.unavailable or why
            return scans
        settled: set[int] = set()
        with PdfText(self.doc.file) as attacked, PdfText(self.doc.file, data) as before:
            for page in sorted(pages):
                if not 1 <= page <= min(attacked.pages, before.pages) or not same_pixels(
                    attacked.document(), before.document(), page, DPI
                ):
                    continue
                self.text_layer_page(
                    before, page, located.get(page, []), strings.get(page, []), "pixel"
                )
                self.audit.attacks["hidden_not_drawn"] += sum(
                    1 for entry in self.doc.hidden if entry.get("page") == page
                )
                located[page], strings[page] = [], []
                settled.add(page)
        stats.pages_unattacked += len(settled)
        return [p for p in scans if p not in settled]

    def post_attacked(self) -> set[int]:
        """Pages that text-layer attacks made on the emitted file touched, and no other
        text-layer attack did (one made while drawing changes what the unattacked file
        holds too)."""
        post: set[int] = set()
        drawn: set[int] = set()
        for pattern in self.doc.manifest.get("patterns_applied") or []:
            if not isinstance(pattern, dict) or pattern.get("family") != "textlayer":
                continue
            affected = pattern.get("pages_affected")
            pages = {p for p in affected if type(p) is int} if isinstance(affected, list) else set()
            (post if pattern.get("phase") == "post" else drawn).update(pages)
        return post - drawn

    def calibrating(self, page: int) -> bool:
        """Whether scanned `page` is in the pixel rule's calibration sample."""
        if self.calibrate is not None:
            return page in self.calibrate
        return sampled(self.packet_id, self.doc.doc_id, page)

    def hidden_by_pixels(self, page: int, judged: PixelPage) -> bool:
        """Whether `page`, of an attacked text layer, draws nothing but its scanned image
        (`image_alone`). Then its hidden strings are settled by pixels, not OCR: one its native
        page does not draw is not on the image (`hidden_not_drawn`), one it draws is shown in
        its own right (`hidden_also_shown`); and the page is judged by the rule as any scan
        is. False leaves the page to whole-page OCR."""
        if not image_alone(self.doc.file, page, judged.dpi):
            return False
        self.image_only.add(page)
        for entry in self.doc.hidden:
            if entry.get("page") == page:
                drawn = judged.string_quads(entry["text"]) or any(
                    text == entry["text"] for text, _ in judged.printed
                )
                self.audit.attacks["hidden_also_shown" if drawn else "hidden_not_drawn"] += 1
        return True

    def placeless(self, page: int, texts: list[int]) -> bool:
        """Whether a string of `texts` on `page` has no place to read it in (none on its native
        page, or one drawn across the page, `PixelPage.spreads`, with no line to read it
        along). Such a page is read whole."""
        return any((page, index) not in self.string_boxes for index in texts)

    def read_bands(
        self,
        pdf: PdfText,
        pages: list[int],
        located: dict[int, list[Located]],
        strings: dict[int, list[int]],
        engine: Tesseract,
    ) -> set[int]:
        """What box reading left on pages judged by pixels (`pages`), looked for by OCR in
        bands of the page around where it is drawn (`ocr.read_bands`) rather than on the
        page read whole: the pieces of split values, and the values and strings their boxes
        did not yield, and strings drawn across the page (a watermark) along their line
        (`ocr.read_lines`). A page keeps whole-page OCR when it holds a checkbox left
        undecided (its ink is read on the page image) or a string with no place on the
        native page.
        Returns the pages read in bands; each is judged as a page read whole is
        (`ocr_page`)."""
        stats = self.audit.pixels
        assert stats is not None
        regions: dict[int, list[list[float]]] = {}
        lines: dict[int, list[list[float]]] = {}
        for page in pages:
            fields, texts = located.get(page, []), strings.get(page, [])
            if any(
                self.doc.fields[f[0]].get("kind") == "checkbox" for f in fields
            ) or self.placeless(page, texts):
                continue
            regions[page] = [list(bbox) for _, bbox, *_ in fields] + [
                list(self.string_boxes[(page, i)]) for i in texts if (page, i) not in self.spread
            ]
            lines[page] = [self.string_boxes[(page, i)] for i in texts if (page, i) in self.spread]
        if not regions:
            return set()
        read = read_bands(
            pdf.document(),
            regions,
            engine,
            self.doc.file,
            angles={page: self.turns.get(page, 0.0) for page in regions},
            lines=lines,
        )
        for page in sorted(regions):
            self.ocr_page(read[page], page, located.get(page, []), strings.get(page, []))
        stats.pages_band += len(regions)
        stats.lines_read += sum(len(found) for found in lines.values())
        return set(regions)

    def split_by_pixels(self, located: dict[int, list[Located]]) -> None:
        """A value split across pages whose every piece the rule found intact is found, by
        pixels, and its pieces are not read by OCR; any other keeps every piece for OCR."""
        for index, intact in sorted(self.intact_pieces.items()):
            entry = self.doc.fields[index]
            pieces = [_piece(loc) for loc in entry["locations"] if isinstance(loc, dict)]
            count = max((p or (1, 1))[1] for p in pieces)
            if intact != set(range(1, count + 1)) or any(
                loc.get("legible") is False for loc in entry["locations"]
            ):
                continue
            pages = {loc["page"] for loc in entry["locations"]}
            for page in pages:
                located[page] = [f for f in located.get(page, []) if f[0] != index]
            level = self.levels[min(pages)]
            self.audit.scan_tally(level, "fields").add(True)
            self.audit.tally("fields", "pixel").add(True)

    def read_undecided(
        self,
        pdf: PdfText,
        pages: list[int],
        located: dict[int, list[Located]],
        strings: dict[int, list[int]],
        engine: Tesseract,
    ) -> None:
        """What the rule left on pages judged by pixels (`pages`), read by OCR box by box
        (`ocr.read_boxes`: the page prepared as for whole-page OCR, then each box on its own,
        as `--ocr-mode full` reads a box again; every box of the document in one tesseract
        process per reading): the undecided values, and the strings in the place their
        native page draws them. What that finds is found (and cut from `located` and
        `strings`); the page is OCRed whole only for what it did not, where the page's
        reading may still find it. A page with a string that has no such place (not in the
        native text layer) is read whole at once, not box by box; a string drawn across the
        page (a watermark) is left to `read_bands`, which reads it along its line."""
        stats = self.audit.pixels
        assert stats is not None
        boxes: dict[int, list[Located]] = {}
        texts: dict[int, list[int]] = {}
        for page in pages:
            if self.placeless(page, strings.get(page, [])):
                continue
            boxes[page] = [
                f
                for f in located.get(page, [])
                if f[2][1] == 1 and self.doc.fields[f[0]].get("kind") != "checkbox"
            ]
            listed = [i for i in strings.get(page, []) if (page, i) not in self.spread]
            # What was printed over the scan (a fax header) last: it is read apart.
            texts[page] = sorted(listed, key=lambda i: (page, i) in self.overprinted)
        regions = {
            page: [bbox for _, bbox, *_ in boxes[page]]
            + [
                self.string_boxes[(page, i)]
                for i in texts[page]
                if (page, i) not in self.overprinted
            ]
            for page in boxes
        }
        regions = {page: found for page, found in regions.items() if found}
        # Printed over the scan after it was made, so upright on the image whatever the page's
        # turn: read without turning the page back.
        printed = {
            page: [
                self.string_boxes[(page, i)] for i in texts[page] if (page, i) in self.overprinted
            ]
            for page in boxes
        }
        printed = {page: found for page, found in printed.items() if found}
        if not regions and not printed:
            return
        read = read_boxes(
            pdf.document(),
            regions,
            engine,
            self.doc.file,
            angles={page: self.turns.get(page, 0.0) for page in regions},
        )
        read_printed = read_boxes(
            pdf.document(), printed, engine, self.doc.file, angles=dict.fromkeys(printed, 0.0)
        )
        for page in sorted(set(regions) | set(printed)):
            level = self.levels[page]
            fields, indices = boxes[page], texts[page]
            readings = read.get(page, []) + read_printed.get(page, [])
            settled: set[int] = set()
            for (index, *_), got in zip(fields, readings[: len(fields)], strict=True):
                if any(same_text(r, self.doc.fields[index]["rendered_as"]) for r in got):
                    settled.add(index)
                    self.ocr_found[(page, index)] = True
                    self.audit.tally("fields", "ocr").add(True, False)
                    self.audit.scan_tally(level, "fields").add(True, False)
            found: set[int] = set()
            for index, got in zip(indices, readings[len(fields) :], strict=True):
                if any(same_text(r, self.doc.strings[index]["text"]) for r in got):
                    found.add(index)
                    self.audit.tally("strings", "ocr").add(True)
                    self.audit.scan_tally(level, "strings").add(True)
            stats.boxes_read += len(fields)
            stats.boxes_read_found += len(settled)
            stats.strings_read += len(indices)
            stats.strings_read_found += len(found)
            located[page] = [f for f in located.get(page, []) if f[0] not in settled]
            strings[page] = [i for i in strings.get(page, []) if i not in found]

    def nothing_to_read(
        self, pages: list[int], located: dict[int, list[Located]], strings: dict[int, list[int]]
    ) -> None:
        """Values and strings the rule left whose text has no letter or digit (a dash, a
        comma) are found as OCR finds them, without reading: OCR's text is compared folded
        (`ocr.folded`), such a text folds to nothing, and every reading finds it (a whole-page
        reading as much as a box's), so a reading would decide nothing."""
        stats = self.audit.pixels
        assert stats is not None
        for page in pages:
            level = self.levels[page]
            kept: list[Located] = []
            for item in located.get(page, []):
                entry = self.doc.fields[item[0]]
                if (
                    item[2][1] > 1
                    or entry.get("kind") == "checkbox"
                    or folded(entry["rendered_as"])
                ):
                    kept.append(item)
                    continue
                self.ocr_found[(page, item[0])] = True
                stats.boxes_blank += 1
                self.audit.tally("fields", "ocr").add(True, False)
                self.audit.scan_tally(level, "fields").add(True, False)
            located[page] = kept
            left: list[int] = []
            for index in strings.get(page, []):
                if folded(self.doc.strings[index]["text"]):
                    left.append(index)
                    continue
                stats.strings_blank += 1
                self.audit.tally("strings", "ocr").add(True)
                self.audit.scan_tally(level, "strings").add(True)
            strings[page] = left

    def judge_page(
        self, page: int, judged: PixelPage, fields: list[Located], texts: list[int]
    ) -> tuple[list[Located], list[int]]:
        """Judge one scanned page's boxes and strings by pixels; what is left for OCR."""
        stats = self.audit.pixels
        assert stats is not None
        level = self.levels[page]
        left: list[Located] = []
        # Each value's boxes on the page and their verdicts: a string that is a value's
        # line (`path`) is judged in its value's box.
        boxes: dict[str, list[tuple[list[float], str]]] = defaultdict(list)
        for item in fields:
            index, bbox, piece, _ = item
            if piece[1] > 1:
                # A piece of a split value: found by pixels when every piece is intact
                # (`split_by_pixels`), else joined from OCR's readings.
                left.append(item)
                if judged.judge_box(bbox).verdict == INTACT_VERDICT:
                    self.intact_pieces[index].add(piece[0])
                continue
            verdict = judged.judge_box(bbox)
            boxes[self.doc.fields[index]["path"]].append((bbox, verdict.verdict))
            stats.boxes[verdict.verdict] += 1
            if verdict.verdict == UNDECIDED_VERDICT:
                left.append(item)
                continue
            found = verdict.verdict == INTACT_VERDICT
            self.audit.scan_tally(level, "fields").add(found)
            if found:
                self.audit.tally("fields", "pixel").add(True)
                continue
            self.field_result(
                index,
                False,
                "pixel",
                page=page,
                where=f"page {page} {'quad' if len(bbox) == 8 else 'bbox'} {bbox}",
                detail=f"scan level {level}: the box is not the value as drawn (worst glyph "
                f"cell's correlation with the clean page {verdict.score:.2f})",
            )
        unread: list[int] = []
        for index in texts:
            # A string not intact where it is drawn is OCR's, as a full audit reads it (a
            # string has no finding of its own on a scanned page: the level's recall judges).
            entry = self.doc.strings[index]
            judged_boxes = boxes.get(entry.get("path") or "")
            if judged_boxes:
                # Drawn in its value's box (a value on two lines draws a string a line).
                said = (
                    INTACT_VERDICT
                    if any(v == INTACT_VERDICT for _, v in judged_boxes)
                    else UNDECIDED_VERDICT
                )
                quad: list[float] | None = judged_boxes[0][0]
            else:
                said, quad = judged.judge_string(entry["text"])
                if said == UNDECIDED_VERDICT and not judged.string_quads(entry["text"]):
                    self.overprinted.add((page, index))  # only where it was printed over
                if quad is not None and judged.spreads(quad):
                    # Drawn across the page (a watermark): judged and read along its line,
                    # not in an upright box that holds most of the page (no line: the page
                    # is read whole).
                    quad = judged.string_line(entry["text"])
                    if quad is not None:
                        self.spread.add((page, index))
                        said = judged.judge_line(quad).verdict
                        if said == DAMAGED_VERDICT:
                            said = UNDECIDED_VERDICT  # a string's damage is OCR's to show
                places = judged.string_quads(entry["text"]) if judged.cover is not None else []
                if said == UNDECIDED_VERDICT and places and all(map(judged.covered, places)):
                    # Drawn where the fax header's cells cover it at every place: not read,
                    # as a value so covered is illegible (`PixelPage.covered`).
                    said = COVERED
            stats.strings[said] += 1
            if said == COVERED:
                continue
            if said == INTACT_VERDICT:
                self.audit.tally("strings", "pixel").add(True)
                self.audit.scan_tally(level, "strings").add(True)
                continue
            if quad is not None:
                self.string_boxes[(page, index)] = quad
            unread.append(index)
        return left, unread

    def check_illegible(self, pdf: PdfText, engine: Tesseract) -> None:
        """The other side of docs/patterns.md rule 3b: every box the generator judged illegible is
        read by the audit's best OCR (the page evened out, deskewed and unruled, then the box
        on its own in every reading) and must not yield its value, else the generator claimed
        abstention where a reader can answer (`ILLEGIBLE_READABLE`)."""
        pages = sorted(p for p in self.illegible if 1 <= p <= pdf.pages)
        if not pages:
            return
        # Each page turned as its every box says (`turns`), not as its illegible boxes alone
        # say: a page holding one short illegible value would not be turned back at all, and
        # a value upside down is unreadable to OCR whatever was done to it.
        angles = {
            page: self.turns.get(page, page_turn(self.illegible[page]))
            for page in pages
            if page in self.levels
        }
        if self.packet is not None:
            # Pixel mode: each box read on its own (as `reread` reads it), no page read whole:
            # the page's reading would add the words whose centres fall in the box, and a blot
            # leaves none there a box's own reading does not see.
            boxes_read = read_boxes(
                pdf.document(),
                {page: [bbox for _, bbox, *_ in self.illegible[page]] for page in pages},
                engine,
                self.doc.file,
                angles=angles,
            )
            for page in pages:
                self.illegible_read(page, self.illegible[page], boxes_read[page])
            return
        for page, scan in read_pages(pdf.document(), pages, engine, self.doc.file, angles=angles):
            boxes = self.illegible[page]
            rereads = scan.reread([bbox for _, bbox, *_ in boxes])
            self.illegible_read(
                page,
                boxes,
                [
                    (scan.in_box(bbox), *again)
                    for (_, bbox, *_), again in zip(boxes, rereads, strict=True)
                ],
            )

    def illegible_read(
        self, page: int, boxes: list[Located], readings: list[tuple[str, ...]]
    ) -> None:
        """Each illegible box's readings must not yield its value (`ILLEGIBLE_READABLE`)."""
        for (index, bbox, *_), read in zip(boxes, readings, strict=True):
            entry = self.doc.fields[index]
            expected = str(entry["rendered_as"])
            recovered = next((r for r in read if same_text(r, expected)), None)
            if recovered is None:
                self.audit.illegible["boxes"] += 1
                if entry.get("illegible") is True:
                    self.audit.illegible["values"] += 1
                continue
            self.audit.findings.append(
                Finding(
                    ILLEGIBLE_READABLE,
                    self.doc.doc_id,
                    self.fields_file,
                    entry["path"],
                    "ocr",
                    page,
                    f"page {page} {'quad' if len(bbox) == 8 else 'bbox'} {bbox}",
                    expected,
                    squash(recovered),
                    "the generator judged this box illegible, and OCR reads the value in it",
                )
            )

    def calibrated(self) -> None:
        """The calibration sample's agreement: each sampled box's pixel verdict beside what
        the page's OCR (whole page, then the box alone, as `--ocr-mode full` reads) found."""
        stats = self.audit.pixels
        if stats is None:
            return
        for page, verdicts in sorted(self.calibration.items()):
            for index, verdict in verdicts:
                read = self.ocr_found.get((page, index))
                if read is None:
                    continue
                level = stats.levels.setdefault(self.levels[page], Agreement())
                for agreement in (stats.agreement, level):
                    if verdict == UNDECIDED_VERDICT:
                        agreement.undecided += 1
                    elif verdict == INTACT_VERDICT:
                        if read:
                            agreement.intact_read += 1
                        else:
                            agreement.intact_unread += 1
                    elif read:
                        agreement.damaged_read += 1
                    else:
                        agreement.damaged_unread += 1

    def check_unaccounted(self, pdf: PdfText) -> None:
        """Every word of every page's text layer belongs to a value, a string or a hidden
        misreading of that page (`unaccounted`)."""
        drawn, hidden = accounted(self.doc)
        lost = orphans(self.doc)
        garbled, layered = pages_of(self.doc, GARBLED), pages_of(self.doc, OCR_LAYERS)
        for page in range(1, pdf.pages + 1):
            if page in garbled:
                continue
            left = unaccounted(
                pdf.text(page),
                drawn.get(page, Counter()),
                hidden.get(page, set()),
                ocr_layer=page in layered,
            )
            if left:
                named = lost.get(page)
                self.audit.findings.append(
                    Finding(
                        UNACCOUNTED,
                        self.doc.doc_id,
                        self.doc.file.name,
                        "",
                        "pdf",
                        page,
                        f"page {page}",
                        "",
                        describe(left),
                        f"{sum(left.values())} piece(s) of the text layer belong to no truth "
                        "value, declared label or hidden text"
                        + (
                            f" (the universe shows {', '.join(named)}, which no truth holds)"
                            if named
                            else ""
                        ),
                    )
                )

    def check_attacks(self, pdf: PdfText, located: dict[int, list[Located]]) -> None:
        """Every attack the manifest claims is in the file: the text layer does not yield a
        value it claims unreadable at that value's box, holds every hidden string of the
        page, and meets a page's last string before its first when it claims so."""
        claims = self.attacks
        hidden: dict[int, list[int]] = defaultdict(list)
        for index, entry in enumerate(self.doc.hidden):
            page = entry.get("page")
            if type(page) is int and page in claims.pages:
                hidden[page].append(index)
        pages = sorted(set(claims.unreadable) | set(claims.out_of_order) | set(hidden))
        for page in pages:
            if not 1 <= page <= pdf.pages:
                self.problem(
                    ATTACK_ABSENT,
                    "",
                    f"an attack claims page {page}; the document has {pdf.pages} page(s)",
                    self.doc.truth_file("manifest").name,
                )
                continue
            wanted = set(claims.unreadable.get(page, []))
            # The claim covers the value's locations on that page its text layer cannot
            # read (a value drawn twice may be attacked in one place only).
            boxes = [
                (index, self._upright(location))
                for index, entry in enumerate(self.doc.fields)
                if entry["path"] in wanted
                for location in entry.get("locations") or []
                if isinstance(location, dict)
                and location.get("page") == page
                and location.get("text_layer") is False
            ]
            with pdf.page(page, sizes=page in self.doc.overlay_pages()) as layer:
                read = layer.bounded_many([box for _, box in boxes], display=False)
                text = reads(layer.text)
            for (index, box), got in zip(boxes, read, strict=True):
                entry = self.doc.fields[index]
                if reads(got) == reads(entry["rendered_as"]):
                    self.attack_absent(
                        entry["path"],
                        page,
                        f"page {page} bbox {box}",
                        entry["rendered_as"],
                        got,
                        "the text layer yields the value a text-layer attack claims it does not",
                    )
                else:
                    self.audit.attacks["unreadable"] += 1
            # Text extraction spaces words its own way (kerned runs have no spaces at all).
            compact = "".join(text.split())
            for index in hidden.get(page, []):
                shown = self.doc.hidden[index]["text"]
                if "".join(reads(shown).split()) in compact:
                    self.audit.attacks["hidden_in_layer"] += 1
                else:
                    self.attack_absent(
                        f"hidden[{index}]",
                        page,
                        f"page {page}",
                        shown,
                        "",
                        "hidden text a text-layer attack put in the text layer is not there",
                        self.strings_file,
                    )
            order = claims.out_of_order.get(page)
            if order:
                first, last = (text.find(reads(s)) for s in (order[0], order[-1]))
                if 0 <= last < first:
                    self.audit.attacks["out_of_order"] += 1
                else:
                    self.attack_absent(
                        "",
                        page,
                        f"page {page}",
                        f"{order[-1]!r} before {order[0]!r}",
                        "",
                        "the text layer reads the page in order",
                        self.doc.truth_file("manifest").name,
                    )

    @staticmethod
    def _upright(location: dict[str, Any]) -> list[float]:
        bbox = location.get("bbox")
        if type(bbox) is not list or len(bbox) != 4 or set(map(type, bbox)) - _NUMBER_TYPES:
            return [0.0, 0.0, 0.0, 0.0]
        return [float(v) for v in bbox]

    def attack_absent(
        self, path: str, page: int, where: str, expected: str, got: str, detail: str, file: str = ""
    ) -> None:
        self.audit.findings.append(
            Finding(
                ATTACK_ABSENT,
                self.doc.doc_id,
                file or self.fields_file,
                path,
                "pdf",
                page,
                where,
                expected,
                squash(got),
                detail,
            )
        )

    def unchecked(self, fields: list[Located], texts: list[int]) -> None:
        """Neither found nor missing: counted, and the audit fails unless OCR reads them."""
        self.audit.not_checked["fields"] += len(fields)
        self.audit.not_checked["strings"] += len(texts)
        self.audit.unchecked_fields.update(index for index, *_ in fields)
        self.audit.unchecked_strings.update(texts)

    def text_layer_page(
        self,
        pdf: PdfText,
        page: int,
        fields: list[Located],
        texts: list[int],
        reader: str = "pdf",
    ) -> None:
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
                self.field_result(
                    index,
                    False,
                    reader,
                    page=page,
                    where=f"page {page} bbox {bbox}",
                    got=squash(got),
                )
        tally = self.audit.tally("fields", reader)
        tally.checked += whole - misses  # the misses counted themselves
        tally.found += whole - misses
        strings, misses = self.doc.strings, 0
        unmirrored = page_text.translate(_MIRRORED)
        for index in texts:
            text = strings[index]["text"]
            # A string found as written is found squashed too (the page text has no runs);
            # beside right-to-left text pdfium's bidi pass mirrors a bracket ("(" reads ")").
            if (
                text not in page_text
                and reads(text) not in page_text
                and reads(text).translate(_MIRRORED) not in unmirrored
            ):
                misses += 1
                self.string_result(index, False, reader, page)
        tally = self.audit.tally("strings", reader)
        tally.checked += len(texts) - misses
        tally.found += len(texts) - misses

    def join_pieces(self) -> None:
        """A value split across pages reads as its pieces joined in order.

        A piece on a page only OCR can read makes the whole value OCR's: compared as OCR
        compares, and on a scanned page judged by the level's recall. Without OCR such a
        value is not checked (its unread pieces were counted)."""
        for index, pieces in sorted(self.pieces.items()):
            if index in self.audit.unchecked_fields:
                continue
            entry = self.doc.fields[index]
            count = max(_piece(loc) or (1, 1) for loc in entry["locations"])[1]
            got = " ".join(pieces.get(i, "") for i in range(1, count + 1))
            where = f"{count} pieces"
            if index not in self.ocr_pieces:
                found = len(pieces) == count and reads(got) == reads(entry["rendered_as"])
                self.field_result(
                    index,
                    found,
                    "pdf",
                    where=where,
                    got=squash(got),
                    detail="" if found else "a value split across pages",
                )
                continue
            found = len(pieces) == count and same_text(got, entry["rendered_as"])
            level = self.ocr_pieces[index]
            if level is None:
                self.field_result(index, found, "ocr", where=where, got=got)
                continue
            self.audit.tally("fields", "ocr").add(found)
            self.audit.scan_tally(level, "fields").add(found)
            if not found:
                self.audit.ocr_misses.append(
                    Finding(
                        MISSING,
                        self.doc.doc_id,
                        self.fields_file,
                        entry["path"],
                        "ocr",
                        None,
                        where,
                        entry["rendered_as"],
                        got,
                        f"scan level {level}",
                    )
                )

    def ocr_page(self, scan: OcrPage, page: int, fields: list[Located], texts: list[int]) -> None:
        level = (
            self.levels.get(page)
            or self.inked.get(page)
            or (NATIVE if page in self.attacks.pages else None)
        )
        if page in self.attacks.pages and page not in self.image_only:
            misreadings: Counter[str] = Counter()
            for index, bbox, piece, _ in fields:
                entry = self.doc.fields[index]
                read = scan.in_box(bbox)
                if (
                    piece[1] == 1
                    and entry.get("kind") != "checkbox"
                    and not same_text(read, entry["rendered_as"])
                ):
                    misreadings[folded(read)] += 1
            for index, entry in enumerate(self.doc.hidden):
                if entry.get("page") != page or not folded(entry["text"]):
                    continue  # (a Hebrew name: nothing English OCR could read, or not read)
                if misread_everywhere(scan, entry["text"], misreadings):
                    # OCR misread a shown value as the layer's own misreading of it; the
                    # shown value's miss counts against the page's recall.
                    self.audit.attacks["hidden_misread_by_ocr"] += 1
                elif scan.shows(entry["text"]) and scan.count(entry["text"]) > shown_elsewhere(
                    entry["text"],
                    [s["text"] for s in self.doc.strings if s.get("page") == page],
                ):
                    self.audit.findings.append(
                        Finding(
                            HIDDEN_VISIBLE,
                            self.doc.doc_id,
                            self.strings_file,
                            f"hidden[{index}]",
                            "ocr",
                            page,
                            f"page {page}",
                            entry["text"],
                            "",
                            "OCR reads hidden text on the page image",
                        )
                    )
                elif scan.shows(entry["text"]):
                    # Read, but no more often than the page shows it in its own right.
                    self.audit.attacks["hidden_also_shown"] += 1
                else:
                    self.audit.attacks["hidden_not_seen"] += 1
        results: dict[int, tuple[bool, bool, str]] = {}
        for index, bbox, piece, _ in fields:
            entry = self.doc.fields[index]
            if piece[1] > 1:
                # One piece of a value split across pages: joined with the others, read by
                # OCR or the text layer, in join_pieces.
                self.pieces[index][piece[0]] = scan.in_box(bbox)
                self.ocr_pieces[index] = level
            elif entry.get("kind") == "checkbox":
                found, got = scan.find_mark(bbox, entry["rendered_as"])
                results[index] = (found, False, got)
            else:
                results[index] = scan.find(bbox, entry["rendered_as"])
        # What the page's OCR did not read in its box is read again from the box alone.
        again = [
            (index, bbox)
            for index, bbox, piece, _ in fields
            if index in results
            and self.doc.fields[index].get("kind") != "checkbox"
            and (not results[index][0] or results[index][1])
        ]
        for (index, _), readings in zip(
            again, scan.reread([bbox for _, bbox in again]), strict=True
        ):
            for read in readings:
                if same_text(read, self.doc.fields[index]["rendered_as"]):
                    results[index] = (True, False, read)
                    break
        for index, bbox, _, _ in fields:
            if index not in results:
                continue
            entry = self.doc.fields[index]
            found, by_page, got = results[index]
            self.ocr_found[(page, index)] = found
            where = f"page {page} {'quad' if len(bbox) == 8 else 'bbox'} {bbox}"
            if level is None:
                self.field_result(
                    index, found, "ocr", page=page, where=where, got=got, by_page=by_page
                )
                continue
            # A scanned or inked page is judged by its level's recall (OCR_RECALL_MIN).
            self.audit.tally("fields", "ocr").add(found, by_page)
            self.audit.scan_tally(level, "fields").add(found, by_page)
            if not found:
                self.audit.ocr_misses.append(
                    Finding(
                        MISSING,
                        self.doc.doc_id,
                        self.fields_file,
                        entry["path"],
                        "ocr",
                        page,
                        where,
                        entry["rendered_as"],
                        got,
                        f"scan level {level}",
                    )
                )
        for index in texts:
            found = scan.has_string(self.doc.strings[index]["text"])
            if level is None:
                self.string_result(index, found, "ocr", page)
                continue
            self.audit.tally("strings", "ocr").add(found)
            self.audit.scan_tally(level, "strings").add(found)
            if not found:
                self.audit.ocr_misses.append(
                    Finding(
                        STRING_MISSING,
                        self.doc.doc_id,
                        self.strings_file,
                        f"strings[{index}]",
                        "ocr",
                        page,
                        f"page {page}",
                        self.doc.strings[index]["text"],
                        "",
                        f"scan level {level}",
                    )
                )

    # --- XLSX ----------------------------------------------------------------------------------

    def _cell_locations(
        self,
        keys: tuple[str, str],
        kind: type,
        shape: str,
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
            for index, sheet, ref in self._cell_locations(("sheet", "cell"), str, "{sheet, cell}"):
                got, why = book.cell(sheet, ref)
                self.field_result(
                    index,
                    got == self.doc.fields[index]["rendered_as"],
                    "xlsx",
                    where=f"{sheet}!{ref}",
                    got=got or "",
                    detail=why,
                )
            for page, indices in sorted(self.strings_by_page().items()):
                texts = book.sheet_texts(page)
                for index in indices:
                    visible = texts is not None and squash(self.doc.strings[index]["text"]) in texts
                    self.string_result(
                        index,
                        visible,
                        "xlsx",
                        page,
                        "" if texts is not None else f"sheet {page} is hidden or absent",
                    )
            located = {
                (sheet, ref)
                for _, sheet, ref in self._cell_locations(("sheet", "cell"), str, "{sheet, cell}")
            }
            declared = declared_cells(self.doc)
            for page, ws in enumerate(book.sheets, start=1):
                left = [
                    (ref, text)
                    for ref, text in book.visible_cells(page)
                    if (ws.title, ref) not in located and text not in declared.get(page, set())
                ]
                self.cells_unaccounted("xlsx", page, f"sheet {ws.title!r}", left)
        finally:
            book.close()

    def cells_unaccounted(
        self, reader: str, page: int, where: str, left: list[tuple[Any, str]]
    ) -> None:
        """A finding naming the visible cells of a sheet (or CSV file) that are no located
        value and no declared string (`unaccounted`)."""
        if not left:
            return
        named = orphans(self.doc).get(page)
        self.audit.findings.append(
            Finding(
                UNACCOUNTED,
                self.doc.doc_id,
                self.doc.file.name,
                "",
                reader,
                page,
                where,
                "",
                describe(Counter(text for _, text in left)),
                f"{len(left)} visible cell(s) belong to no truth value, declared label or hidden "
                "text"
                + (
                    f" (the universe shows {', '.join(named)}, which no truth holds)"
                    if named
                    else ""
                ),
            )
        )

    # --- CSV -----------------------------------------------------------------------------------

    def csv(self) -> None:
        cells = CsvCells(self.doc.file)
        self.check_files(1)
        for index, row, column in self._cell_locations(("row", "column"), int, "{row, column}"):
            got, why = cells.cell(row, column)
            self.field_result(
                index,
                got == self.doc.fields[index]["rendered_as"],
                "csv",
                where=f"row {row}, column {column}",
                got=got or "",
                detail=why,
            )
        texts = cells.texts()
        for page, indices in sorted(self.strings_by_page().items()):
            for index in indices:
                found = page == 1 and squash(self.doc.strings[index]["text"]) in texts
                self.string_result(
                    index, found, "csv", page, "" if page == 1 else "a CSV file has one page"
                )
        located = {
            (row, column)
            for _, row, column in self._cell_locations(("row", "column"), int, "{row, column}")
        }
        declared = declared_cells(self.doc).get(1, set())
        left = [
            (at, text)
            for at, text in cells.visible_cells()
            if at not in located and text not in declared
        ]
        self.cells_unaccounted("csv", 1, "the file", left)


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


def audit_document(
    doc: Document,
    *,
    engine: Tesseract | None = None,
    on_page: PageHook | None = None,
    packet: dict[str, Any] | None = None,
    calibrate: set[int] | None = None,
) -> DocumentAudit:
    """Read back every located value and visible string of `doc`; `engine` enables OCR;
    `packet` (its packet_truth.json, with `engine`) judges scanned pages by pixels first;
    `calibrate`, the scanned pages of `doc` read by OCR as well to calibrate that rule (None:
    the pages `pixels.sampled` draws)."""
    auditor = _Auditor(doc, packet, calibrate)
    auditor.audit.findings.extend(check_truth(doc))
    auditor.check_values()
    if doc.format == "pdf":
        auditor.pdf(engine, on_page)
    elif doc.format == "xlsx":
        auditor.xlsx()
    else:
        auditor.csv()
    return auditor.audit
