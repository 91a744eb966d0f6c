"""Scanned pages read by OCR (`reading`): what the pixel rule left undecided, box by box
(`read_undecided`), in bands of lines (`read_bands`) or the page whole (`ocr_page`), each
value, string and hidden text settled against what OCR read; and the other side of rule 3b,
no box the generator judged illegible yields its value to OCR (`check_illegible`)."""

from __future__ import annotations

from collections import Counter

from packetbench.audit.matching import confusable_shown, misread_everywhere, shown_elsewhere
from packetbench.audit.result import (
    HIDDEN_VISIBLE,
    ILLEGIBLE_READABLE,
    MISSING,
    NATIVE,
    STRING_MISSING,
    Finding,
)
from packetbench.audit.sources.base import squash
from packetbench.audit.sources.scan_state import ScanState
from packetbench.reading.located import Located, page_turn
from packetbench.reading.page import OcrPage
from packetbench.reading.pdftext import PdfText
from packetbench.reading.strategies import read_bands, read_boxes, read_pages, second_boxes
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import folded, same_text


class ScanOcr(ScanState):
    """The OCR half of `ScannedPageAuditor`."""

    def read_bands(
        self,
        pdf: PdfText,
        pages: list[int],
        located: dict[int, list[Located]],
        strings: dict[int, list[int]],
        engine: Tesseract,
    ) -> set[int]:
        """What box reading left on pages judged by pixels (`pages`), looked for by OCR in
        bands of the page around where it is drawn (`reading.strategies.read_bands`) rather than on
        the page read whole: the pieces of split values, and the values and strings their boxes
        did not yield, and strings drawn across the page (a watermark) along their line
        (`reading.strategies.read_lines`). A page keeps whole-page OCR when it holds a checkbox left
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

    def read_undecided(
        self,
        pdf: PdfText,
        pages: list[int],
        located: dict[int, list[Located]],
        strings: dict[int, list[int]],
        engine: Tesseract,
    ) -> None:
        """What the rule left on pages judged by pixels (`pages`), read by OCR box by box
        (`reading.strategies.read_boxes`: the page prepared as for whole-page OCR, then each box on
        its own, as `--ocr-mode full` reads a box again; every box of the document in one tesseract
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
        # What no reading found is read again sharpened (`reading.imaging.sharpened`).
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
        # What tesseract read nowhere, the second engine reads (`reading.ppocr`).
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
        (`reading.text.folded`), such a text folds to nothing, and every reading finds it (a
        whole-page reading as much as a box's), so a reading would decide nothing."""
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
        # sharpened (`reading.imaging.sharpened`), then, on a page drawn, not scanned, under a red
        # stamp (`overlay.void_stamp`), in the page's red channel, where the stamp is as light as
        # the paper and a reader looks through it (a title under a CANCELLED stamp is unread in
        # gray).
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
        # Last, the second engine reads what tesseract read nowhere (`reading.ppocr`); only
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
