"""A PDF document: its located values parsed, and each page given to its source, the text layer
(`TextLayerAuditor`) or, where the manifest says the text layer cannot be trusted or the truth
says only the image shows a value, the scanned-page source (`ScannedPageAuditor`, with OCR);
then what spans pages (values split across pages, hidden text on attacked pages) and what no
source could check without OCR."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from packetbench.audit.result import MISSING, NOT_CHECKED, Finding
from packetbench.audit.sources.base import NUMBER_TYPES, DocumentState, Pages, reads, squash
from packetbench.audit.sources.scanned import ScannedPageAuditor
from packetbench.audit.sources.textlayer import TextLayerAuditor
from packetbench.reading.located import Located, page_turn
from packetbench.reading.located import piece_of as _piece
from packetbench.reading.pdftext import PdfText
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text

# Called once per PDF page read through its text layer (benchmarks and progress use it).
PageHook = Callable[[], None]


class PdfPages:
    """Chooses each page's source and checks what spans the document's pages."""

    def __init__(self, state: DocumentState) -> None:
        self.state = state
        self.doc = state.doc
        self.audit = state.audit

    def check(self, engine: Tesseract | None, on_page: PageHook | None) -> None:
        with PdfText(self.doc.file) as pdf:
            self.state.check_files(pdf.pages)
            text = TextLayerAuditor(self.state, pdf)
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
                        or set(map(type, bbox)) - NUMBER_TYPES
                    ):
                        raise self.state.bad_location(
                            index, location, "{page, bbox: [x0, y0, x1, y1]}"
                        )
                    piece = _piece(location)
                    if piece is None:
                        raise self.state.bad_location(index, location, "a fragment [i, n] location")
                    text_layer = location.get("text_layer", True) is not False
                    quad = location.get("quad")
                    if quad is not None:  # a scanned page: the box's exact corners
                        if (
                            type(quad) is not list
                            or len(quad) != 8
                            or set(map(type, quad)) - NUMBER_TYPES
                        ):
                            raise self.state.bad_location(index, location, "a quad of 8 numbers")
                        bbox = quad
                    if location.get("legible") is False:
                        self.state.illegible[page].append((index, bbox, piece, text_layer))
                        continue
                    located[page].append((index, bbox, piece, text_layer))
            strings = self.state.strings_by_page()
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
                        self.state.field_result(
                            index,
                            False,
                            "pdf",
                            page=page,
                            where=f"page {page} bbox {bbox}",
                            detail=f"the document has {pdf.pages} page(s)",
                        )
                    for index in texts:
                        self.state.string_result(
                            index, False, "pdf", page, f"the document has {pdf.pages} page(s)"
                        )
                elif page in ocr_pages and engine is None:
                    self.state.unchecked(fields, texts)
                elif page in ocr_pages:
                    scans.append(page)
                else:
                    # The text layer reads what it carries; the rest needs the page image.
                    on_layer = [f for f in fields if f[3]]
                    layer_texts = [
                        i for i in texts if self.doc.strings[i].get("text_layer") is not False
                    ]
                    text.check(Pages([page], {page: on_layer}, {page: layer_texts}))
                    if page in pixels_only:
                        pixel_fields = [f for f in fields if not f[3]]
                        pixel_texts = [i for i in texts if i not in set(layer_texts)]
                        if engine is None:
                            self.state.unchecked(pixel_fields, pixel_texts)
                        else:
                            scans.append(page)
                            located[page] = pixel_fields
                            strings[page] = pixel_texts
                    if on_page is not None:
                        on_page()
            text.check_attacks(pdf, located)
            text.check_unaccounted(pdf)
            # Hidden text on an attacked page must not be on its image: only OCR can say.
            hidden_pages = sorted(
                {
                    entry["page"]
                    for entry in self.doc.hidden
                    if entry.get("page") in self.state.attacks.pages
                }
            )
            if engine is None:
                self.audit.attacks["hidden_not_checked"] += sum(
                    1 for entry in self.doc.hidden if entry.get("page") in self.state.attacks.pages
                )
            else:
                scans = sorted(set(scans) | {p for p in hidden_pages if 1 <= p <= pdf.pages})
            # How far each scanned page is turned, from all its boxes: the pixel rule may
            # leave a page few or none for OCR to read, and that page is turned all the same.
            self.state.turns = {
                page: page_turn(located.get(page, []) + self.state.illegible.get(page, []))
                for page in scans
                if page in self.state.levels
            }
            scanned = None
            if scans and engine is not None:
                scanned = ScannedPageAuditor(self.state, pdf, engine, text)
                scanned.check(Pages(scans, located, strings))
            self.join_pieces()
            if engine is not None:
                scanned = scanned or ScannedPageAuditor(self.state, pdf, engine, text)
                scanned.check_illegible(pdf, engine)
        hidden = self.audit.attacks["hidden_not_checked"]
        if sum(self.audit.not_checked.values()) or hidden:
            pages = sorted(
                p
                for p in ocr_pages | pixels_only | self.state.attacks.pages
                if p in located or p in strings or p in self.state.attacks.pages
            )
            self.state.problem(
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

    def join_pieces(self) -> None:
        """A value split across pages reads as its pieces joined in order.

        A piece on a page only OCR can read makes the whole value OCR's: compared as OCR
        compares, and on a scanned page judged by the level's recall. Without OCR such a
        value is not checked (its unread pieces were counted)."""
        for index, pieces in sorted(self.state.pieces.items()):
            if index in self.audit.unchecked_fields:
                continue
            entry = self.doc.fields[index]
            count = max(_piece(loc) or (1, 1) for loc in entry["locations"])[1]
            got = " ".join(pieces.get(i, "") for i in range(1, count + 1))
            where = f"{count} pieces"
            if index not in self.state.ocr_pieces:
                found = len(pieces) == count and reads(got) == reads(entry["rendered_as"])
                self.state.field_result(
                    index,
                    found,
                    "pdf",
                    where=where,
                    got=squash(got),
                    detail="" if found else "a value split across pages",
                )
                continue
            found = len(pieces) == count and same_text(got, entry["rendered_as"])
            level = self.state.ocr_pieces[index]
            if level is None:
                self.state.field_result(index, found, "ocr", where=where, got=got)
                continue
            self.audit.tally("fields", "ocr").add(found)
            self.audit.scan_tally(level, "fields").add(found)
            if not found:
                self.audit.ocr_misses.append(
                    Finding(
                        MISSING,
                        self.doc.doc_id,
                        self.state.fields_file,
                        entry["path"],
                        "ocr",
                        None,
                        where,
                        entry["rendered_as"],
                        got,
                        f"scan level {level}",
                    )
                )
