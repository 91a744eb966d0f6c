"""The pixel-first half of `audit --ocr`: scanned pages judged against their clean selves.

A scanned page's manifest records how it was scanned (its level, dpi and the exact 3x3
transform, `generator.render.scan.scan_page`). The clean page is the page's native self
(`audit.native`: the document built again from the packet's seed, and used only when its truth
files are the packet's) drawn under the recorded transform (`scan.clean_page`). Every located
box on the scanned page is judged against the same box of the clean page by
`packetbench.reading.legibility.pixel_verdict`; so is every visible string, in the boxes its
native page's text layer draws it in (`audit.drawn`), moved by the same transform.

Calibration: a seeded sample of scanned pages (`SAMPLE`: about one page in that many, chosen
by a hash of the packet, the document and the page, and never fewer than MIN_CALIBRATION
pages of a packet, `calibration_pages`) is read by OCR exactly as `--ocr-mode full` reads it
(so its findings are a full audit's), and each of its boxes' pixel verdicts is set beside
what OCR found there. The agreement is reported with its 95 % interval, and an
audit whose sample shows the rule calling more than `MAX_DISAGREEMENT` of the boxes otherwise
than OCR does (`Agreement.refutes`: the whole audit's sample, or any one packet's) is not
verified.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from packetbench.audit.drawn import DrawnText, drawn_text
from packetbench.audit.native import rebuilt
from packetbench.reading.legibility import (
    DAMAGED_VERDICT,
    INTACT_VERDICT,
    UNDECIDED_VERDICT,
    PixelVerdict,
    cut,
    cut_verdict,
    levelled,
    line_frame,
    occlusion,
    pixel_verdict,
)
from packetbench.reading.tesseract import MARGIN as OCR_MARGIN
from packetbench.truth.documents import Document

Pixels = np.ndarray[Any, Any]

# One scanned page in SAMPLE is also read by OCR to calibrate the rule (seeded by the
# packet, document and page: the same packet always samples the same pages, and a corpus
# samples every kind of page; a hash of document and page alone never drew a page of a
# two-page form in any packet).
SAMPLE = 128
# The most the rule and OCR may disagree on sampled boxes before the audit is not verified.
MAX_DISAGREEMENT = 0.05
MARGIN = 1.0  # points around a value's quad that belong to its box (a glyph's soft edge)
# A string whose upright box covers more than this share of its page is drawn across it (a
# watermark): it is judged and read along its line (`PixelPage.string_line`), where the
# upright box would hold most of the page's content and let it vouch for the string.
SPREAD = 0.15
# A string drawn at a slant of at least this many degrees from its page's lines (a stamp set
# across a form at 30 or 45 degrees) is judged and read along its line, as one drawn across the
# page is: its upright box holds mostly the form under it, which no reading of the box takes
# for the string (a sparse-text reading of such a box was the costliest OCR call of an audit).
SLANT = 10.0


# Every packet with scanned pages judged by pixels has at least this many of them in its
# calibration sample (all of them when it has fewer): with one page in SAMPLE alone, most
# packets drew none (N5-006601: 107 scanned pages judged, none read), and a rule wrong on
# them could not have been caught.
MIN_CALIBRATION = 2


def _draw_key(packet_id: str, doc_id: str, page: int, seed: int) -> int:
    digest = hashlib.sha256(f"{seed}:{packet_id}:{doc_id}:{page}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def sampled(packet_id: str, doc_id: str, page: int, seed: int = 0) -> bool:
    """Whether page `page` of `doc_id` in packet `packet_id` is in the calibration sample by
    its hash alone (one page in SAMPLE; `calibration_pages` adds the packet's minimum)."""
    return _draw_key(packet_id, doc_id, page, seed) % SAMPLE == 0


def calibration_pages(
    packet_id: str, candidates: list[tuple[str, int]], seed: int = 0
) -> set[tuple[str, int]]:
    """The scanned pages (doc_id, page) of one packet read by OCR to calibrate the pixel rule:
    every candidate its hash samples (`sampled`), and, until there are MIN_CALIBRATION, the
    candidates first in the order of the same hash (a seeded draw, the same for the same
    packet). `candidates` are the packet's pages the rule would judge."""
    chosen = {c for c in candidates if sampled(packet_id, c[0], c[1], seed)}
    for candidate in sorted(set(candidates), key=lambda c: _draw_key(packet_id, c[0], c[1], seed)):
        if len(chosen) >= MIN_CALIBRATION:
            break
        chosen.add(candidate)
    return chosen


@dataclass
class Agreement:
    """Sampled boxes the rule decided, and how many OCR read the same way."""

    intact_read: int = 0  # intact, and OCR read the value in its box
    intact_unread: int = 0
    damaged_read: int = 0
    damaged_unread: int = 0
    undecided: int = 0  # sampled boxes the rule left to OCR (not part of the agreement)

    @property
    def boxes(self) -> int:
        return self.intact_read + self.intact_unread + self.damaged_read + self.damaged_unread

    @property
    def agreed(self) -> int:
        return self.intact_read + self.damaged_unread

    def __add__(self, other: Agreement) -> Agreement:
        return Agreement(
            self.intact_read + other.intact_read,
            self.intact_unread + other.intact_unread,
            self.damaged_read + other.damaged_read,
            self.damaged_unread + other.damaged_unread,
            self.undecided + other.undecided,
        )

    def interval(self) -> tuple[float, float]:
        """The agreement's 95 % Wilson interval (0, 1 when nothing was sampled)."""
        return wilson(self.agreed, self.boxes)

    def too_low(self) -> bool:
        """The disagreement's point estimate is above MAX_DISAGREEMENT."""
        return bool(self.boxes) and (self.boxes - self.agreed) > MAX_DISAGREEMENT * self.boxes

    def refutes(self) -> bool:
        """Even the lower end of the disagreement's 95 % interval is above MAX_DISAGREEMENT:
        the sample shows the rule wrong (a rule that misjudges its boxes disagrees on a fifth
        of them or more, which 40 boxes show), while OCR's own misses of boxes drawn intact
        (a superscript marker, a lone letter read twice: 2-5 % of a page's boxes) do not.
        On a corpus's thousands of boxes the bound is the point estimate."""
        if not self.boxes:
            return False
        low, _ = wilson(self.boxes - self.agreed, self.boxes)
        return low > MAX_DISAGREEMENT

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "boxes": self.boxes,
            "agreed": self.agreed,
            "rate": round(self.agreed / self.boxes, 4) if self.boxes else None,
            "interval_95": [round(low, 4), round(high, 4)],
            "intact_read": self.intact_read,
            "intact_unread": self.intact_unread,
            "damaged_read": self.damaged_read,
            "damaged_unread": self.damaged_unread,
            "undecided_sampled": self.undecided,
            "max_disagreement": MAX_DISAGREEMENT,
        }


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    share = hits / n
    centre = share + z * z / (2 * n)
    spread = z * float(np.sqrt(share * (1 - share) / n + z * z / (4 * n * n)))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


# What became of a page's visible strings: found intact by pixels, drawn where the native
# text layer says but not intact there (OCR reads them), not found in that layer (OCR too).
NOT_FOUND = "not_found"
# ...or drawn where something printed over the scan (a fax header's cells) covers
# STRING_COVERED or more of its ink at every place: not read, and no miss of OCR's.
COVERED = "covered"
# Below the value rule's `legibility.MAX_OCCLUDED` (a value is lifted clear of the header; a
# string is not): the audit asks OCR for no string a quarter cut, which it may not read whole.
STRING_COVERED = 0.25


@dataclass
class PixelStats:
    """What the pixel rule did in one document (the audit's JSON `pixels`)."""

    boxes: dict[str, int] = field(
        default_factory=lambda: {INTACT_VERDICT: 0, DAMAGED_VERDICT: 0, UNDECIDED_VERDICT: 0}
    )
    strings: dict[str, int] = field(
        default_factory=lambda: {
            INTACT_VERDICT: 0,
            UNDECIDED_VERDICT: 0,
            NOT_FOUND: 0,
            COVERED: 0,
        }
    )
    pages: int = 0  # scanned pages judged by pixels
    pages_sampled: int = 0  # ...read by OCR instead, to calibrate the rule
    pages_ocr: int = 0  # ...that still needed whole-page OCR
    pages_band: int = 0  # ...whose leftovers OCR read in bands of the page (not whole)
    lines_read: int = 0  # strings drawn across a page (a watermark) read along their line
    # Native pages of an attack made on the emitted file that render as the file did before
    # it: read from that file's text layer, no OCR (`document.by_unattacked`).
    pages_unattacked: int = 0
    boxes_read: int = 0  # undecided boxes read by OCR box by box (no whole page)
    boxes_read_found: int = 0  # ...whose value that reading found
    strings_read: int = 0  # strings not intact, read by OCR box by box
    strings_read_found: int = 0  # ...that reading found
    boxes_blank: int = 0  # undecided boxes whose value has no letter or digit: found unread
    strings_blank: int = 0  # strings not intact with no letter or digit: found unread
    unavailable: str = ""  # why the clean side could not be had ("" when it could)
    agreement: Agreement = field(default_factory=Agreement)
    # The same calibration sample, scan level by scan level.
    levels: dict[str, Agreement] = field(default_factory=dict)
    # Boxes whose recorded rung (`legible_from_dpi`) the rule was run again for on the
    # page's pixels (`rungs.check_by_pixels`).
    rungs_checked: int = 0
    # Boxes of the calibration sample read by OCR on the page as delivered at each of
    # `rungs.READ_AT` (dpi -> the rule's verdict at that rung beside the reading: "intact"
    # legible there, "damaged" below it). Reported, not a gate: OCR reads small type less
    # surely than a person, and reads some values below a rung (`rungs.read_at_rungs`).
    resolutions: dict[int, Agreement] = field(default_factory=dict)

    def __add__(self, other: PixelStats) -> PixelStats:
        return PixelStats(
            {k: self.boxes[k] + other.boxes[k] for k in self.boxes},
            {k: self.strings[k] + other.strings[k] for k in self.strings},
            self.pages + other.pages,
            self.pages_sampled + other.pages_sampled,
            self.pages_ocr + other.pages_ocr,
            self.pages_band + other.pages_band,
            self.lines_read + other.lines_read,
            self.pages_unattacked + other.pages_unattacked,
            self.boxes_read + other.boxes_read,
            self.boxes_read_found + other.boxes_read_found,
            self.strings_read + other.strings_read,
            self.strings_read_found + other.strings_read_found,
            self.boxes_blank + other.boxes_blank,
            self.strings_blank + other.strings_blank,
            self.unavailable or other.unavailable,
            self.agreement + other.agreement,
            {
                level: self.levels.get(level, Agreement()) + other.levels.get(level, Agreement())
                for level in sorted({*self.levels, *other.levels})
            },
            self.rungs_checked + other.rungs_checked,
            {
                dpi: self.resolutions.get(dpi, Agreement())
                + other.resolutions.get(dpi, Agreement())
                for dpi in sorted({*self.resolutions, *other.resolutions})
            },
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "boxes": dict(self.boxes),
            "strings": dict(self.strings),
            "pages": self.pages,
            "pages_sampled": self.pages_sampled,
            "pages_ocr": self.pages_ocr,
            "pages_band": self.pages_band,
            "lines_read": self.lines_read,
            "pages_unattacked": self.pages_unattacked,
            "boxes_read": self.boxes_read,
            "boxes_read_found": self.boxes_read_found,
            "strings_read": self.strings_read,
            "strings_read_found": self.strings_read_found,
            "boxes_blank": self.boxes_blank,
            "strings_blank": self.strings_blank,
            "unavailable": self.unavailable,
            "agreement": self.agreement.to_json(),
            "agreement_levels": {k: v.to_json() for k, v in sorted(self.levels.items())},
            "rungs_checked": self.rungs_checked,
            "agreement_resolutions": {
                str(k): v.to_json() for k, v in sorted(self.resolutions.items())
            },
        }


def _shrunk(quad: list[float], by: float) -> list[float]:
    """An upright quad (lower-left, lower-right, upper-right, upper-left) moved `by` points
    inwards on every side."""
    x0, y0, x1, _, _, y1, _, _ = quad
    x0, x1, y0, y1 = x0 + by, x1 - by, y0 + by, y1 - by
    return [x0, y0, x1, y0, x1, y1, x0, y1]


def scan_details(doc: Document) -> dict[int, dict[str, Any]]:
    """Scanned page -> how it was scanned ({level, dpi, matrix, ...}) from the manifest; only
    pages whose record is complete."""
    out: dict[int, dict[str, Any]] = {}
    for page, how, _pattern in doc.scanned_pages():
        matrix = how.get("matrix")
        if (
            isinstance(how.get("level"), str)
            and type(how.get("dpi")) is int
            and isinstance(matrix, list)
            and len(matrix) == 9
            and all(type(v) in (int, float) and np.isfinite(v) for v in matrix)
        ):
            out[page] = how
    return out


def scanned_image(pdf: Any, number: int, size: tuple[int, int], dpi: int) -> Pixels:
    """The image of scanned page `number` (1-based) as gray pixels of `size` (rows, columns):
    the page's one image as stored when it has that size, else the page drawn by pdfium at
    the scan's dpi (a page changed since: its pixels, as a reader sees them)."""
    import pypdfium2 as pdfium

    page = pdf[number - 1]
    try:
        images = [o for o in page.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
        if len(images) == 1:
            bitmap = images[0].get_bitmap(render=False)
            pixels = bitmap.to_numpy()
            if pixels.ndim == 3:
                pixels = pixels[..., 0] if pixels.shape[2] == 1 else pixels.mean(axis=2)
            if pixels.shape == size:
                return np.ascontiguousarray(pixels.astype(np.uint8))
        drawn = page.render(scale=dpi / 72, grayscale=True).to_numpy()
    finally:
        page.close()
    drawn = drawn.reshape(drawn.shape[:2])
    out = np.full(size, 255, dtype=np.uint8)
    rows, cols = min(size[0], drawn.shape[0]), min(size[1], drawn.shape[1])
    out[:rows, :cols] = drawn[:rows, :cols]
    return out


def same_pixels(first: Any, second: Any, number: int, dpi: int) -> bool:
    """Whether page `number` (1-based) of two open pypdfium2 documents renders the same gray
    pixels at `dpi`."""
    drawn = []
    for pdf in (first, second):
        page = pdf[number - 1]
        try:
            drawn.append(page.render(scale=dpi / 72, grayscale=True).to_numpy())
        finally:
            page.close()
    return drawn[0].shape == drawn[1].shape and bool(np.array_equal(drawn[0], drawn[1]))


def image_alone(path: Path, number: int, dpi: int) -> bool:
    """Whether page `number` (1-based) of the PDF at `path` draws exactly what its one image
    draws: the page rendered at `dpi` as it is and again with every other object removed (an
    OCR layer's invisible text, a white or hidden string, anything else) are the same
    pixels. Then nothing but the image is visible, and a hidden string the text layer holds
    is not on the page image unless the image shows it (what the pixel rule judges). The
    page is loaded from its own handle, so the objects removed stay in no other reader."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    try:
        page = pdf[number - 1]
        try:
            count = pdfium.raw.FPDFPage_CountObjects(page.raw)
            kinds = [
                pdfium.raw.FPDFPageObj_GetType(pdfium.raw.FPDFPage_GetObject(page.raw, i))
                for i in range(count)
            ]
            if kinds.count(pdfium.raw.FPDF_PAGEOBJ_IMAGE) != 1:
                return False
            as_is = page.render(scale=dpi / 72, grayscale=True).to_numpy()
            for i in reversed(range(count)):
                if kinds[i] == pdfium.raw.FPDF_PAGEOBJ_IMAGE:
                    continue
                other = pdfium.raw.FPDFPage_GetObject(page.raw, i)
                if not pdfium.raw.FPDFPage_RemoveObject(page.raw, other):
                    return False
                pdfium.raw.FPDFPageObj_Destroy(other)
            bare = page.render(scale=dpi / 72, grayscale=True).to_numpy()
        finally:
            page.close()
    finally:
        pdf.close()
    return as_is.shape == bare.shape and bool(np.array_equal(as_is, bare))


@dataclass
class PixelPage:
    """One scanned page, clean and as scanned, at the scan's dpi."""

    clean: Pixels
    scanned: Pixels
    dpi: int
    height: float  # the page's height, points
    matrix: list[float]  # the scan's transform, native points -> scanned points (row by row)
    drawn: DrawnText | None = None  # the native page's text layer (where strings are drawn)
    # Strings drawn as ink with no text layer, and their native boxes (`Rebuilt.inked`).
    inked: list[tuple[str, list[float]]] = field(default_factory=list)
    # Strings printed over the scanned page after its scan (a fax's header) and their quads on
    # it (`Rebuilt.printed`): the clean page never has them, so OCR reads them there.
    printed: list[tuple[str, list[float]]] = field(default_factory=list)
    # Verdicts by quad, and places by string, once worked out: a string drawn in a value's
    # box is judged in the same quad as the value (an eighth of an N5 packet's boxes), and
    # a string's places are asked for up to three times.
    _verdicts: dict[tuple[float, ...], PixelVerdict] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _places: dict[str, list[list[float]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def box_verdict(self, quad: list[float]) -> PixelVerdict:
        """The verdict on one value's box, cut exactly as the generator cut it when it judged
        the box (`legibility.cut`: only the pixels inside its quad, grown by MARGIN points, a
        box turned off a quarter turn levelled along its line), so a form's rule or a
        neighbour's text beside the value can neither vouch for it nor spoil it."""
        key = tuple(float(v) for v in quad)
        verdict = self._verdicts.get(key)
        if verdict is None:
            box = cut(self.clean, self.scanned, quad, self.dpi, self.height, None, MARGIN)
            verdict = PixelVerdict(UNDECIDED_VERDICT, 1.0, 0) if box is None else cut_verdict(box)
            self._verdicts[key] = verdict
        return verdict

    def line_verdict(self, quad: list[float]) -> PixelVerdict:
        """The verdict on a string drawn across the page (a watermark), in the rectangle
        along its line (`string_line`: corners lower-left, lower-right, upper-right,
        upper-left, grown by MARGIN points): the rectangle is turned level, the clean and
        the scanned page alike (`legibility.line_frame`), and judged as a box whose rows are
        its glyph rows. The upright rectangle around a diagonal line holds most of the page,
        which costs as much to compare as the rest of the page's boxes together."""
        frame = line_frame(quad, self.dpi, self.height, MARGIN)
        if frame is None:
            return PixelVerdict(UNDECIDED_VERDICT, 1.0, 0)
        size, data = frame
        strips = [levelled(side, size, data, 255, False) for side in (self.clean, self.scanned)]
        return pixel_verdict(strips[0], strips[1], 0)

    @cached_property
    def cover(self) -> Pixels | None:
        """The pixels of the scanned page that something printed over it after its scan covers
        (a fax header's cells, `printed`: exactly where the machine printed them), None when
        nothing was."""
        if not self.printed:
            return None
        scale = self.dpi / 72
        mask = np.zeros(self.clean.shape, dtype=bool)
        for _, quad in self.printed:
            xs, ys = quad[0::2], quad[1::2]
            mask[
                max(round((self.height - max(ys)) * scale), 0) : round(
                    (self.height - min(ys)) * scale
                ),
                max(round(min(xs) * scale), 0) : round(max(xs) * scale),
            ] = True
        return mask

    def covered(self, quad: list[float]) -> bool:
        """Whether STRING_COVERED or more of the ink drawn in `quad` lies under what was
        printed over the page (`cover`), as `legibility.occlusion` measures it."""
        if self.cover is None:
            return False
        box = cut(self.clean, self.scanned, quad, self.dpi, self.height, self.cover, MARGIN)
        if box is None or box.covered is None:
            return False
        return occlusion(box.clean, box.covered) >= STRING_COVERED

    def string_quads(self, text: str) -> list[list[float]]:
        """Where the native page draws `text` (`DrawnText.find`), moved onto the scanned
        page: a quad per place."""
        from packetbench.generator.render.scan_draw import Transform

        places = self._places.get(text)
        if places is None:
            boxes = self.drawn.find(text) if self.drawn is not None else []
            boxes += [box for drawn, box in self.inked if drawn == text]
            transform = Transform(np.array(self.matrix, dtype=np.float64).reshape(3, 3))
            places = self._places[text] = [transform.quad(box) for box in boxes]
        return [list(quad) for quad in places]

    def spreads(self, quad: list[float]) -> bool:
        """Whether `quad`'s upright box covers more than SPREAD of the page."""
        xs, ys = quad[0::2], quad[1::2]
        rows, cols = self.clean.shape[:2]
        area = rows * cols * (72 / self.dpi) ** 2
        return bool((max(xs) - min(xs)) * (max(ys) - min(ys)) > SPREAD * area)

    def slanted(self, text: str) -> bool:
        """Whether the first place the native page draws `text` runs at a slant (SLANT
        degrees or more from both the page's lines and its columns: text turned a quarter is
        upright in its box)."""
        line = self.drawn.line(text) if self.drawn is not None else None
        if line is None:
            return False
        angle = float(np.degrees(np.arctan2(line[3] - line[1], line[2] - line[0]))) % 90
        return SLANT <= angle <= 90 - SLANT

    def string_line(self, text: str) -> list[float] | None:
        """The rectangle along the line of the first place the native page draws `text`
        (`DrawnText.line`), moved onto the scanned page: a quad, None when it is not drawn."""
        from packetbench.generator.render.scan_draw import Transform

        line = self.drawn.line(text) if self.drawn is not None else None
        if line is None:
            return None
        transform = Transform(np.array(self.matrix, dtype=np.float64).reshape(3, 3))
        moved = transform.points(list(zip(line[0::2], line[1::2], strict=True)))
        return [float(v) for point in moved for v in point]

    def string_verdict(self, text: str) -> tuple[str, list[float] | None]:
        """A visible string's verdict: `intact` when one place the native page draws it is
        intact on the scan, `undecided` when it is drawn but no place is, `not_found` when
        the native text layer does not hold it; with the quad of its first place (where OCR
        reads it; None when it has none). A place that spreads over the page (`spreads`) is
        not judged here: the caller judges it along its line."""
        places = self.string_quads(text)
        if not places:
            printed = [quad for drawn, quad in self.printed if drawn == text]
            # Printed over the scan: no clean side to compare, read where it was printed,
            # inside its cell: the cell is white around the text, and the margin OCR reads
            # around a box (`reading.tesseract.MARGIN`) would take in the cut page ink beside it.
            return (
                (UNDECIDED_VERDICT, _shrunk(printed[0], OCR_MARGIN))
                if printed
                else (
                    NOT_FOUND,
                    None,
                )
            )
        for quad in places:
            # A place drawn across the page (a watermark) is judged along its line by the
            # caller (`string_line`): its upright box would hold most of the page.
            if not self.spreads(quad) and self.box_verdict(quad).verdict == INTACT_VERDICT:
                return INTACT_VERDICT, quad
        return UNDECIDED_VERDICT, places[0]


def calibration_candidates(doc: Document) -> list[int]:
    """The scanned pages of `doc` the pixel rule judges that hold a located value it would
    compare with OCR (not a checkbox): the pages a calibration sample is drawn from."""
    details = scan_details(doc)
    pages = {
        location.get("page")
        for entry in doc.fields
        if entry.get("kind") != "checkbox"
        for location in entry.get("locations") or []
        if isinstance(location, dict) and location.get("legible") is not False
    }
    return sorted(page for page in details if page in pages)


def pixel_pages(
    doc: Document, packet: dict[str, Any], pdf: Any
) -> tuple[dict[int, PixelPage], str]:
    """Every scanned page of `doc` that can be judged by pixels (page -> PixelPage), and why
    none can ("" when they can, or the document has no scanned page)."""
    from packetbench.generator.render import scan, scan_levels

    details = scan_details(doc)
    if not details:
        # Sheets of two pages (scan level two_up) record `matrices`, not one `matrix`.
        two_up = any("matrices" in how for _, how, _ in doc.scanned_pages())
        return {}, "two pages on one sheet (two_up): read by OCR" if two_up else ""
    again, why = rebuilt(doc, packet)
    if again is None or again.native is None:
        return {}, why
    pages: dict[int, PixelPage] = {}
    inked: dict[int, list[tuple[str, list[float]]]] = {}
    for number, text, box in again.inked:
        inked.setdefault(number, []).append((text, box))
    printed: dict[int, list[tuple[str, list[float]]]] = {}
    for number, text, quad in again.printed:
        printed.setdefault(number, []).append((text, quad))
    source = scan.open_pdf(again.native)
    try:
        for page, how in sorted(details.items()):
            level = scan_levels.LEVELS.get(how["level"])
            if level is None or level.dpi != how["dpi"] or not 1 <= page <= len(source):
                continue
            native_page = source[page - 1]
            height = float(native_page.get_size()[1])
            native_page.close()
            matrix = [float(v) for v in how["matrix"]]
            clean = scan.clean_page(source, page - 1, level, matrix)
            pages[page] = PixelPage(
                clean,
                scanned_image(pdf, page, clean.shape, level.dpi),
                level.dpi,
                height,
                matrix,
                drawn_text(source, page - 1),
                inked.get(page, []),
                printed.get(page, []),
            )
    finally:
        source.close()
    return pages, ""
