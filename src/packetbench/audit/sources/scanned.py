"""Scanned PDF pages (and pages whose text layer cannot be trusted) as a source: judged by
pixels first (`pixels`: each box against the page drawn clean, rebuilt from the packet's
seed), with a seeded sample of pages read by OCR as well to calibrate that rule; what the rule
leaves is read by OCR (`scan_ocr`), box by box, in bands, or the page whole. Also the other
side of rule 3b: no box the generator judged illegible yields its value to OCR."""

from __future__ import annotations

from collections import defaultdict
from typing import ClassVar

from packetbench.audit import rungs
from packetbench.audit.native import unattacked
from packetbench.audit.pixels import (
    COVERED,
    Agreement,
    PixelPage,
    PixelStats,
    image_alone,
    pixel_pages,
    same_pixels,
)
from packetbench.audit.sources.base import Pages
from packetbench.audit.sources.scan_ocr import ScanOcr
from packetbench.reading.legibility import DAMAGED_VERDICT, INTACT_VERDICT, UNDECIDED_VERDICT
from packetbench.reading.located import Located
from packetbench.reading.located import piece_of as _piece
from packetbench.reading.pdftext import PdfText
from packetbench.reading.strategies import read_pages
from packetbench.reading.tesseract import DPI, Tesseract


class ScannedPageAuditor(ScanOcr):
    """Reads the PDF pages only an image reader can (scans, ink, attacked text layers): by
    pixels when the packet's truth is given (`state.packet`), by OCR (`engine`) for the rest."""

    reader: ClassVar[str] = "ocr"

    def check(self, pages: Pages) -> None:
        """Settle what pixels can (`by_unattacked`, `by_pixels`), then OCR each page left
        whole; `pages.located` and `pages.strings` keep what the pixel rule left to OCR."""
        pdf, engine = self.pdf, self.engine
        scans, located, strings = pages.numbers, pages.located, pages.strings
        if scans and self.state.packet is not None:
            scans = self.by_unattacked(scans, located, strings)
        if scans and self.state.packet is not None:
            scans = self.by_pixels(pdf, scans, located, strings, engine)
        if scans:
            angles = {page: self.state.turns[page] for page in scans if page in self.state.turns}
            for page, scan in read_pages(
                pdf.document(), scans, engine, self.doc.file, angles=angles
            ):
                self.ocr_page(scan, page, located.get(page, []), strings.get(page, []))
            self.calibrated()

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
        pages -= set(self.state.levels) | set(self.state.inked)
        if not pages:
            return scans
        stats = self.audit.pixels = self.audit.pixels or PixelStats()
        data, why = unattacked(self.doc, self.state.packet or {})
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
                self.text.read_page(
                    before, page, located.get(page, []), strings.get(page, []), "pixel"
                )
                self.audit.attacks["hidden_not_drawn"] += sum(
                    1 for entry in self.doc.hidden if entry.get("page") == page
                )
                located[page], strings[page] = [], []
                settled.add(page)
        stats.pages_unattacked += len(settled)
        return [p for p in scans if p not in settled]

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
        wanted = [p for p in scans if p in self.state.levels]
        if not wanted:
            return scans
        pages, stats.unavailable = pixel_pages(self.doc, self.state.packet or {}, pdf.document())
        remaining = []
        for page in scans:
            judged = pages.get(page) if page in wanted else None
            if (
                judged is not None
                and page in self.state.attacks.pages
                and not self.calibrating(page)
                and not self.hidden_by_pixels(page, judged)
            ):
                wanted.remove(page)  # its hidden text is OCR's to show absent: read whole
                judged = None
            if judged is None:
                remaining.append(page)
                continue
            self.rungs_by_pixels(pdf, page, judged, engine, stats)
            if self.calibrating(page):
                # The calibration sample: read by OCR as a full audit reads it (its findings
                # are a full audit's), and each box's pixel verdict set beside that reading.
                stats.pages_sampled += 1
                stamped = self.stamped(page)
                self.calibration[page] = [
                    (index, self.taken(judged.box_verdict(bbox).verdict, index))
                    for index, bbox, piece, _ in located.get(page, [])
                    if piece[1] == 1
                    and self.doc.fields[index].get("kind") != "checkbox"
                    and self.doc.fields[index]["path"] not in stamped
                ]
                remaining.append(page)
                continue
            stats.pages += 1
            fields, texts = self.settle_by_pixels(
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

    def rungs_by_pixels(
        self, pdf: PdfText, page: int, judged: PixelPage, engine: Tesseract, stats: PixelStats
    ) -> None:
        """The page's recorded rungs decided again on its pixels (`rungs.check_by_pixels`);
        on a calibration page, a few of its values read by OCR as delivered at each rung
        (`rungs.read_at_rungs`), reported beside the rule's verdicts there."""
        from packetbench.generator.render import scan_levels

        level = scan_levels.LEVELS[self.state.levels[page]]
        if self.pixel_boxes is None:
            self.pixel_boxes = rungs.pixel_boxes(self.doc)
        checked, problems = rungs.check_by_pixels(
            self.doc, page, judged.clean, judged.scanned, judged.height, level, self.pixel_boxes
        )
        stats.rungs_checked += checked
        self.audit.findings.extend(problems)
        if not self.calibrating(page):
            return
        read = rungs.read_at_rungs(
            self.doc,
            pdf.document(),
            page,
            judged.dpi,
            self.state.turns.get(page, 0.0),
            engine,
            f"{self.state.packet_id}:{self.doc.doc_id}:{page}",
        )
        for dpi, counts in read.items():
            stats.resolutions[dpi] = stats.resolutions.get(dpi, Agreement()) + Agreement(*counts)

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
            level = self.state.levels[min(pages)]
            self.audit.scan_tally(level, "fields").add(True)
            self.audit.tally("fields", "pixel").add(True)

    def settle_by_pixels(
        self, page: int, judged: PixelPage, fields: list[Located], texts: list[int]
    ) -> tuple[list[Located], list[int]]:
        """Judge one scanned page's boxes and strings by pixels; what is left for OCR."""
        stats = self.audit.pixels
        assert stats is not None
        level = self.state.levels[page]
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
                if judged.box_verdict(bbox).verdict == INTACT_VERDICT:
                    self.intact_pieces[index].add(piece[0])
                continue
            verdict = judged.box_verdict(bbox)
            said = self.taken(verdict.verdict, index)
            boxes[self.doc.fields[index]["path"]].append((bbox, said))
            stats.boxes[said] += 1
            if said == UNDECIDED_VERDICT:
                left.append(item)
                continue
            found = said == INTACT_VERDICT
            self.audit.scan_tally(level, "fields").add(found)
            if found:
                self.audit.tally("fields", "pixel").add(True)
                continue
            self.state.field_result(
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
                said, quad = judged.string_verdict(entry["text"])
                if said == UNDECIDED_VERDICT and not judged.string_quads(entry["text"]):
                    self.overprinted.add((page, index))  # only where it was printed over
                if quad is not None and (
                    judged.spreads(quad)
                    or (said == UNDECIDED_VERDICT and judged.slanted(entry["text"]))
                ):
                    # Drawn across the page (a watermark) or at a slant (a stamp across a
                    # form): judged and read along its line, not in an upright box that holds
                    # most of the page or of the form under it (no line: the page is read
                    # whole).
                    quad = judged.string_line(entry["text"])
                    if quad is not None:
                        self.spread.add((page, index))
                        said = judged.line_verdict(quad).verdict
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
                level = stats.levels.setdefault(self.state.levels[page], Agreement())
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
