"""Scanned PDF pages (and pages whose text layer cannot be trusted) as a source: judged by
pixels first (`pixels`: each box against the page drawn clean, rebuilt from the packet's
seed), with a seeded sample of pages read by OCR as well to calibrate that rule; what the rule
leaves is read by OCR (`ocr`), box by box, in bands, or the page whole. Also the other side of
rule 3b: no box the generator judged illegible yields its value to OCR."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import ClassVar

from packetbench.audit import rungs
from packetbench.audit.matching import confusable_shown, misread_everywhere, shown_elsewhere
from packetbench.audit.native import unattacked
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
    HIDDEN_VISIBLE,
    ILLEGIBLE_READABLE,
    MISSING,
    NATIVE,
    STRING_MISSING,
    Finding,
)
from packetbench.audit.sources.base import DocumentState, Pages, SourceAuditor, squash
from packetbench.audit.sources.textlayer import TextLayerAuditor
from packetbench.legibility import (
    DAMAGED_VERDICT,
    INTACT_VERDICT,
    UNDECIDED_VERDICT,
    may_be_illegible,
)
from packetbench.reading.located import Located, page_turn
from packetbench.reading.located import piece_of as _piece
from packetbench.reading.page import OcrPage
from packetbench.reading.pdftext import PdfText
from packetbench.reading.strategies import Crops, read_bands, read_boxes, read_pages, second_boxes
from packetbench.reading.tesseract import DPI, Tesseract
from packetbench.reading.text import folded, same_text


class ScannedPageAuditor(SourceAuditor):
    """Reads the PDF pages only an image reader can (scans, ink, attacked text layers): by
    pixels when the packet's truth is given (`state.packet`), by OCR (`engine`) for the rest."""

    reader: ClassVar[str] = "ocr"

    def __init__(
        self, state: DocumentState, pdf: PdfText, engine: Tesseract, text: TextLayerAuditor
    ) -> None:
        super().__init__(state)
        self.pdf = pdf
        self.engine = engine
        self.text = text  # reads a page whose attack drew nothing (`by_unattacked`)
        # The pixel rule's calibration sample: page -> (field, verdict); what OCR found.
        self.calibration: dict[int, list[tuple[int, str]]] = {}
        self.ocr_found: dict[tuple[int, int], bool] = {}
        # Pieces of split values the pixel rule found intact: field index -> piece numbers.
        self.intact_pieces: dict[int, set[int]] = defaultdict(set)
        # Strings the pixel rule left to OCR: (page, string index) -> the quad to read it in.
        self.string_boxes: dict[tuple[int, int], list[float]] = {}
        # Attacked pages shown to draw nothing but their image: hidden text settled by pixels.
        self.image_only: set[int] = set()
        # Strings drawn across their page (`PixelPage.spreads`): string_boxes holds the
        # rectangle along their line, and OCR reads them there (`ocr.read_lines`).
        self.spread: set[tuple[int, int]] = set()
        # Strings printed over a scanned page after its scan (a fax header: `Rebuilt.printed`).
        self.overprinted: set[tuple[int, int]] = set()
        # Boxes cut out of the document's pages for OCR, each once (`ocr.cut_boxes`).
        self.crops: Crops = {}

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
                    (index, self.taken(judged.judge_box(bbox).verdict, index))
                    for index, bbox, piece, _ in located.get(page, [])
                    if piece[1] == 1
                    and self.doc.fields[index].get("kind") != "checkbox"
                    and self.doc.fields[index]["path"] not in stamped
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

    def rungs_by_pixels(
        self, pdf: PdfText, page: int, judged: PixelPage, engine: Tesseract, stats: PixelStats
    ) -> None:
        """The page's recorded rungs decided again on its pixels (`rungs.check_by_pixels`);
        on a calibration page, a few of its values read by OCR as delivered at each rung
        (`rungs.read_at_rungs`), reported beside the rule's verdicts there."""
        from packetbench.generator.render import scan

        level = scan.LEVELS[self.state.levels[page]]
        checked, problems = rungs.check_by_pixels(
            self.doc, page, judged.clean, judged.scanned, judged.height, level
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

    def taken(self, said: str, index: int) -> str:
        """The pixel rule's verdict on value `index`'s box as the audit takes it: a damaged
        value too short for the rule's margin is undecided, OCR's to read (`may_be_illegible`);
        the calibration sample takes it so too, so it measures the verdicts the audit uses."""
        if said == DAMAGED_VERDICT and not may_be_illegible(
            str(self.doc.fields[index]["rendered_as"])
        ):
            return UNDECIDED_VERDICT
        return said

    def stamped(self, page: int) -> set[str]:
        """Values a stamp is printed across on `page` (`overlay.void_stamp`'s targets). The
        stamp is on the clean page too, so the pixel rule finds such a value as drawn, stamp
        and all, and a reader reads it through the stamp; OCR does not always (fresh N3 seed
        820016: 14 of the 25 under a SUPERSEDED stamp unread), which says nothing of the rule, so
        they stay out of its calibration sample."""
        out: set[str] = set()
        for pattern in self.doc.manifest.get("patterns_applied") or []:
            if not isinstance(pattern, dict) or pattern.get("id") != "overlay.void_stamp":
                continue
            affected = pattern.get("pages_affected")
            targets = pattern.get("targets")
            if isinstance(affected, list) and page in affected and isinstance(targets, list):
                out.update(t for t in targets if isinstance(t, str))
        return out

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
        if self.state.calibrate is not None:
            return page in self.state.calibrate
        return sampled(self.state.packet_id, self.doc.doc_id, page)

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
            angles={page: self.state.turns.get(page, 0.0) for page in regions},
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
            level = self.state.levels[min(pages)]
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
            angles={page: self.state.turns.get(page, 0.0) for page in regions},
            cache=self.crops,
        )
        read_printed = read_boxes(
            pdf.document(),
            printed,
            engine,
            self.doc.file,
            angles=dict.fromkeys(printed, 0.0),
            cache=self.crops,
        )
        # What no reading found is read again sharpened (`ocr.sharpened`).
        expected = {
            page: [str(self.doc.fields[index]["rendered_as"]) for index, *_ in boxes[page]]
            + [
                str(self.doc.strings[i]["text"])
                for i in texts[page]
                if (page, i) not in self.overprinted
            ]
            for page in regions
        }
        unread = {
            page: [
                i
                for i, (got, want) in enumerate(zip(read[page], expected[page], strict=True))
                if not any(same_text(r, want) for r in got)
            ]
            for page in regions
        }
        again = read_boxes(
            pdf.document(),
            {page: [regions[page][i] for i in unread[page]] for page in regions if unread[page]},
            engine,
            self.doc.file,
            angles={page: self.state.turns.get(page, 0.0) for page in regions},
            sharpen=True,
            cache=self.crops,
        )
        for page, sharp in again.items():
            for i, got in zip(unread[page], sharp, strict=True):
                read[page][i] = read[page][i] + got
        # What tesseract read nowhere, the second engine reads (`audit.ppocr`).
        unread = {
            page: [
                i
                for i in unread[page]
                if not any(same_text(r, expected[page][i]) for r in read[page][i])
            ]
            for page in regions
        }
        second = second_boxes(
            pdf.document(),
            {page: [regions[page][i] for i in unread[page]] for page in regions if unread[page]},
            self.doc.file,
            angles={page: self.state.turns.get(page, 0.0) for page in regions},
            cache=self.crops,
            wanted={page: [expected[page][i] for i in unread[page]] for page in regions},
        )
        for page, got_second in second.items():
            for i, got in zip(unread[page], got_second, strict=True):
                read[page][i] = read[page][i] + got
        for page in sorted(set(regions) | set(printed)):
            level = self.state.levels[page]
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
            level = self.state.levels[page]
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
                if judged.judge_box(bbox).verdict == INTACT_VERDICT:
                    self.intact_pieces[index].add(piece[0])
                continue
            verdict = judged.judge_box(bbox)
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
                said, quad = judged.judge_string(entry["text"])
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
        on its own in every reading, sharpened, and by the second engine) and must not yield
        its value, else the generator claimed
        abstention where a reader can answer (`ILLEGIBLE_READABLE`)."""
        pages = sorted(p for p in self.state.illegible if 1 <= p <= pdf.pages)
        if not pages:
            return
        # Each page turned as its every box says (`turns`), not as its illegible boxes alone
        # say: a page holding one short illegible value would not be turned back at all, and
        # a value upside down is unreadable to OCR whatever was done to it.
        angles = {
            page: self.state.turns.get(page, page_turn(self.state.illegible[page]))
            for page in pages
            if page in self.state.levels
        }
        if self.state.packet is not None:
            # Pixel mode: each box read on its own (as `reread` reads it), no page read whole:
            # the page's reading would add the words whose centres fall in the box, and a blot
            # leaves none there a box's own reading does not see.
            regions = {page: [bbox for _, bbox, *_ in self.state.illegible[page]] for page in pages}
            document, file, crops = pdf.document(), self.doc.file, self.crops
            boxes_read = read_boxes(document, regions, engine, file, angles=angles, cache=crops)
            sharp = read_boxes(
                document, regions, engine, file, angles=angles, sharpen=True, cache=crops
            )
            second = second_boxes(document, regions, file, angles=angles, cache=crops)
            for page in pages:
                every = [
                    (*a, *b, *c)
                    for a, b, c in zip(boxes_read[page], sharp[page], second[page], strict=True)
                ]
                self.illegible_read(page, self.state.illegible[page], every)
            return
        for page, scan in read_pages(pdf.document(), pages, engine, self.doc.file, angles=angles):
            boxes = self.state.illegible[page]
            regions_read = [bbox for _, bbox, *_ in boxes]
            rereads = scan.reread(regions_read)
            sharpened = scan.reread(regions_read, sharpen=True)
            self.illegible_read(
                page,
                boxes,
                [
                    (scan.in_box(bbox), *again, *sharp, *second)
                    for (_, bbox, *_), again, sharp, second in zip(
                        boxes, rereads, sharpened, scan.second(regions_read), strict=True
                    )
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
                    self.state.fields_file,
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

    def page_strings(self, page: int) -> list[str]:
        """The visible strings scanned `page` shows."""
        return [s["text"] for s in self.doc.strings if s.get("page") == page]

    def ocr_page(self, scan: OcrPage, page: int, fields: list[Located], texts: list[int]) -> None:
        level = (
            self.state.levels.get(page)
            or self.state.inked.get(page)
            or (NATIVE if page in self.state.attacks.pages else None)
        )
        if page in self.state.attacks.pages and page not in self.image_only:
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
                elif scan.shows(entry["text"]) and scan.count(entry["text"]) > (
                    shown_elsewhere(entry["text"], shown := self.page_strings(page))
                    + confusable_shown(entry["text"], shown)
                ):
                    self.audit.findings.append(
                        Finding(
                            HIDDEN_VISIBLE,
                            self.doc.doc_id,
                            self.state.strings_file,
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
                self.state.pieces[index][piece[0]] = scan.in_box(bbox)
                self.state.ocr_pieces[index] = level
            elif entry.get("kind") == "checkbox":
                found, got = scan.find_mark(bbox, entry["rendered_as"])
                results[index] = (found, False, got)
            else:
                results[index] = scan.find(bbox, entry["rendered_as"])

        # What the page's OCR did not read in its box is read again from the box alone, then
        # sharpened (`ocr.sharpened`), then, on a page drawn, not scanned, under a red stamp
        # (`overlay.void_stamp`), in the page's red channel, where the stamp is as light as
        # the paper and a reader looks through it (fresh N3 seed 830008: four attachment
        # titles under a CANCELLED stamp, unread in gray).
        def unread() -> list[tuple[int, list[float]]]:
            return [
                (index, bbox)
                for index, bbox, *_ in fields
                if index in results
                and self.doc.fields[index].get("kind") != "checkbox"
                and (not results[index][0] or results[index][1])
            ]

        def settle(boxes: list[tuple[int, list[float]]], readings: list[tuple[str, ...]]) -> None:
            for (index, _), read in zip(boxes, readings, strict=True):
                got = next(
                    (r for r in read if same_text(r, self.doc.fields[index]["rendered_as"])), None
                )
                if got is not None:
                    results[index] = (True, False, got)

        def wanted(boxes: list[tuple[int, list[float]]]) -> list[str]:
            return [str(self.doc.fields[index]["rendered_as"]) for index, _ in boxes]

        again = unread()
        settle(again, scan.reread([bbox for _, bbox in again]))
        again = unread()
        settle(again, scan.reread([bbox for _, bbox in again], sharpen=True))
        again = unread()
        if again and level == NATIVE and self.stamped(page):
            regions = {page: [bbox for _, bbox in again]}
            engine, file = self.engine, self.doc.file
            settle(
                again, read_boxes(self.pdf.document(), regions, engine, file, dropout=True)[page]
            )
        # Last, the second engine reads what tesseract read nowhere (`audit.ppocr`); only
        # whether it reads a box's value matters, so its detector does not look for lines
        # in a box its reading as one line reads (`ppocr.PpOcr.read_box`).
        again = unread()
        settle(again, scan.second([bbox for _, bbox in again], wanted(again)))
        for index, bbox, _, _ in fields:
            if index not in results:
                continue
            entry = self.doc.fields[index]
            found, by_page, got = results[index]
            self.ocr_found[(page, index)] = found
            where = f"page {page} {'quad' if len(bbox) == 8 else 'bbox'} {bbox}"
            if level is None:
                self.state.field_result(
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
                        self.state.fields_file,
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
                self.state.string_result(index, found, "ocr", page)
                continue
            self.audit.tally("strings", "ocr").add(found)
            self.audit.scan_tally(level, "strings").add(found)
            if not found:
                self.audit.ocr_misses.append(
                    Finding(
                        STRING_MISSING,
                        self.doc.doc_id,
                        self.state.strings_file,
                        f"strings[{index}]",
                        "ocr",
                        page,
                        f"page {page}",
                        self.doc.strings[index]["text"],
                        "",
                        f"scan level {level}",
                    )
                )
