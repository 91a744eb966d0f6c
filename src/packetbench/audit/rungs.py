"""The rungs a PDF value is legible from (`legible_from_dpi`), audited against the rule that
decides them (`packetbench.reading.resolution`).

Every located value on a PDF page records the lowest delivered resolution at which it is still
legible. The rule's size half needs nothing but the location itself (its type's height on its
page, `glyph_pt`, and the page's scan level from the manifest), so every location is held to it
here: on a page drawn natively the rung is exactly the size half's, on a scanned page it is at
least that (the pixel half can only raise it; `sources.scanned` checks it exactly where the
pixel rule judges the page). A value not legible in the file is legible at no rung. A packet
made before rungs were recorded (no location holds one) is not held to them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from packetbench.audit.result import RESOLUTION, Finding
from packetbench.reading import resolution
from packetbench.reading.boxes import read_crops
from packetbench.reading.strategies import Crops, cut_boxes, second_boxes
from packetbench.reading.tesseract import DPI
from packetbench.reading.text import same_text
from packetbench.truth.documents import Document


def recorded(doc: Document) -> bool:
    """Whether the document's field truth records rungs at all."""
    return any(
        isinstance(location, dict) and "legible_from_dpi" in location
        for entry in doc.fields
        for location in entry.get("locations") or []
    )


def _level(name: str | None) -> Any:
    from packetbench.generator.render import scan_levels

    return scan_levels.LEVELS.get(name or "")


def bound(location: dict[str, Any], level: Any) -> int:
    """The rung the size half of the rule gives a location legible in the file, from what its
    truth records (`glyph_pt`; no glyph: a mark, legible from the lowest rung) and its page's
    scan level (None: drawn natively)."""
    glyph = location.get("glyph_pt")
    if level is None:
        return resolution.legible_from(glyph if _number(glyph) else None)
    return resolution.legible_from(
        glyph if _number(glyph) else None,
        file_dpi=level.dpi,
        blur=level.blur,
        motion=level.motion,
    )


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def check_rungs(doc: Document) -> list[Finding]:
    """Findings on `doc`'s recorded rungs (`RESOLUTION`): one per location whose rung the rule
    cannot give."""
    if doc.format != "pdf" or not recorded(doc):
        return []
    levels = doc.scan_levels()
    file = doc.truth_file("field_truth").name
    found: list[Finding] = []
    for entry in doc.fields:
        for location in entry.get("locations") or []:
            if not isinstance(location, dict) or "page" not in location:
                continue
            page = location["page"]
            level = _level(levels.get(page)) if page in levels else None
            rung = location.get("legible_from_dpi", "absent")
            why = _problem(location, level, rung)
            if why:
                found.append(
                    Finding(
                        RESOLUTION,
                        doc.doc_id,
                        file,
                        str(entry.get("path")),
                        "rule",
                        page if type(page) is int else None,
                        f"page {page}",
                        "" if rung == "absent" else str(rung),
                        "",
                        why,
                    )
                )
    return found


def _problem(location: dict[str, Any], level: Any, rung: Any) -> str:
    """Why a location's recorded rung is not the rule's ("" when it is)."""
    if location.get("legible") is False:
        return "" if rung is None else "not legible in the file, but legible from a rung"
    if type(rung) is not int:
        return "legible in the file, but no rung it is legible from"
    if level is None and location.get("quad") is None:
        expected = bound(location, None)
        if rung != expected:
            return f"drawn natively: its type makes it legible from {expected} dpi"
        return ""
    if level is None:
        return ""  # a scan level this version does not know: nothing to hold it to
    allowed = resolution.rungs(level.dpi)
    if rung not in allowed:
        return f"scanned at {level.dpi} dpi: not one of its rungs {list(allowed)}"
    least = bound(location, level)
    if rung < least:
        return f"its type stands under {resolution.MIN_GLYPH:g} pixels below {least} dpi"
    return ""


# A document's boxes the pixels decide rungs for (`pixel_boxes`), by page: (entry, location).
PageBoxes = dict[Any, list[tuple[dict[str, Any], dict[str, Any]]]]


def pixel_boxes(doc: Document) -> PageBoxes:
    """Every location of `doc` legible in the file with a quad, by page, in field order: what
    `check_by_pixels` judges on each page (sorted once a document, not once a page: a scanned
    document's pages each walked every location of the document)."""
    out: PageBoxes = {}
    for entry in doc.fields:
        for location in entry.get("locations") or []:
            if (
                isinstance(location, dict)
                and location.get("legible") is not False
                and isinstance(location.get("quad"), list)
                and len(location["quad"]) == 8
            ):
                out.setdefault(location.get("page"), []).append((entry, location))
    return out


def check_by_pixels(
    doc: Document,
    page: int,
    clean: Any,
    scanned: Any,
    page_height: float,
    level: Any,
    boxes: PageBoxes | None = None,
) -> tuple[int, list[Finding]]:
    """The rungs of scanned `page`'s values legible in the file, decided again on its pixels
    exactly as the generator decided them (`resolution.legible_from` on the clean and the
    scanned page, drawn at the level's resolution, `level`): how many were checked, and a
    finding for each that differs from its record. `boxes`: `pixel_boxes(doc)`, when the
    caller keeps it for the document's pages."""
    from packetbench.reading import legibility

    if not recorded(doc):
        return 0, []
    ladder = resolution.Ladder(clean, scanned, level.dpi)
    file = doc.truth_file("field_truth").name
    checked = 0
    found: list[Finding] = []
    for entry, location in (pixel_boxes(doc) if boxes is None else boxes).get(page, []):
        text = str(entry.get("rendered_as"))
        glyph = location.get("glyph_pt")
        judged = legibility.may_be_illegible(text)
        expected = resolution.legible_from(
            glyph if _number(glyph) else None,
            file_dpi=level.dpi,
            blur=level.blur,
            motion=level.motion,
            ladder=ladder if judged else None,
            quad=[float(v) for v in location["quad"]],
            page_height=page_height,
        )
        checked += 1
        rung = location.get("legible_from_dpi")
        if rung != expected:
            found.append(
                Finding(
                    RESOLUTION,
                    doc.doc_id,
                    file,
                    str(entry.get("path")),
                    "pixel",
                    page,
                    f"page {page}",
                    str(expected),
                    str(rung),
                    f"the rule on the page's pixels makes it legible from {expected} dpi",
                )
            )
    return checked, found


# The delivered resolutions the calibration sample is read at by OCR: a provider's own
# rasterisation of a letter page (OpenAI's and Gemini's about 90 dpi, Claude's about 110) and
# `extract --input images` (150).
READ_AT = (90, 110, 150)
# Boxes of each calibration page read at each of READ_AT (drawn at random, seeded by packet,
# document and page): a handful a page, which a corpus's sample pools into thousands.
READ_BOXES = 8


class _Bitmap:
    def __init__(self, pixels: Any) -> None:
        self.pixels = pixels

    def to_numpy(self) -> Any:
        return self.pixels


class DeliveredPage:
    """A page of an open PDF as a reader sees it when it was sent at `dpi`: drawn at the file's
    own resolution, resized to `dpi` with the rule's area filter (`resolution.delivered`), and
    enlarged again to whatever scale it is rendered at (a reader zooms; nothing comes back).
    It renders as a pypdfium2 page renders (`render(scale, grayscale, crop)`), so the audit's
    box readers read it unchanged."""

    def __init__(
        self, page: Any, file_dpi: int, dpi: int, drawn: dict[int, Any] | None = None
    ) -> None:
        self.page, self.file_dpi, self.dpi = page, file_dpi, dpi
        self._drawn: tuple[float, Any] | None = None
        # The page drawn by its file's resolution: shared by the same page delivered at
        # several rungs (`DeliveredPdf`'s `drawn`), where the drawing is the same.
        self._file = drawn if drawn is not None else {}

    def get_cropbox(self) -> Any:
        return self.page.get_cropbox()

    def get_width(self) -> float:
        return float(self.page.get_width())

    def get_height(self) -> float:
        return float(self.page.get_height())

    def get_size(self) -> Any:
        return self.page.get_size()

    def close(self) -> None:
        pass  # the page belongs to its document: `DeliveredPdf` closes it

    def _at(self, scale: float) -> Any:
        import math

        from PIL import Image

        if self._drawn is None or self._drawn[0] != scale:
            key = self.file_dpi
            image = self._file.get(key)
            if image is None:
                image = self.page.render(scale=self.file_dpi / 72, grayscale=True).to_numpy()
                image = self._file[key] = image.reshape(image.shape[:2])
            sent = resolution.delivered(image, self.file_dpi, self.dpi)
            size = (math.ceil(self.get_width() * scale), math.ceil(self.get_height() * scale))
            enlarged = Image.fromarray(sent).resize(size, Image.Resampling.BICUBIC)
            self._drawn = (scale, np.asarray(enlarged, dtype=np.uint8))
        return self._drawn[1]

    def render(
        self, scale: float, grayscale: bool = True, crop: tuple[float, ...] = (0, 0, 0, 0)
    ) -> _Bitmap:
        import math

        pixels = self._at(scale)
        height, width = pixels.shape
        left, bottom, right, top = crop
        x0 = math.ceil(left * scale) if left else 0
        y0 = math.ceil(top * scale) if top else 0
        x1 = width - (math.ceil(right * scale) if right else 0)
        y1 = height - (math.ceil(bottom * scale) if bottom else 0)
        return _Bitmap(np.ascontiguousarray(pixels[y0:y1, x0:x1]))


class DeliveredPdf:
    """The pages of an open PDF as `DeliveredPage`s at `dpi`, each scanned page from its own
    resolution (`file_dpi`: page -> dpi). `drawn`: the pages drawn at their file's resolution
    (page index -> dpi -> pixels), kept by the caller for the same pages delivered at other
    rungs, which are drawn once."""

    def __init__(
        self,
        pdf: Any,
        file_dpi: dict[int, int],
        dpi: int,
        drawn: dict[int, dict[int, Any]] | None = None,
    ) -> None:
        self.pdf, self.file_dpi, self.dpi = pdf, file_dpi, dpi
        self._pages: dict[int, DeliveredPage] = {}
        self._drawn = drawn

    def __len__(self) -> int:
        return len(self.pdf)

    def __getitem__(self, index: int) -> DeliveredPage:
        found = self._pages.get(index)
        if found is None:
            self.close()  # one page at a time: a page image is large
            page = self.pdf[index]
            found = DeliveredPage(
                page,
                self.file_dpi.get(index + 1, 300),
                self.dpi,
                None if self._drawn is None else self._drawn.setdefault(index, {}),
            )
            self._pages[index] = found
        return found

    def close(self) -> None:
        for page in self._pages.values():
            page.page.close()
        self._pages.clear()


def read_at_rungs(
    doc: Document,
    pdf: Any,
    page: int,
    file_dpi: int,
    angle: float,
    engine: Any,
    seed: str,
) -> dict[int, tuple[int, int, int, int]]:
    """OCR of a few of calibration `page`'s located values (READ_BOXES, drawn with `seed`) on
    the page as delivered at each rung of READ_AT below the file's own resolution, each box
    cut out as the audit cuts it and read by tesseract's plain readings, then by PP-OCR where
    those miss (`benchmarks/resolution.py ocr` reads sharpened too, on thousands of boxes),
    the page turned back by `angle` as its box readings are. Per rung: (legible there and
    read, legible and unread, below it and read, below it and unread)."""
    import random

    boxes = [
        (str(entry["rendered_as"]), location)
        for entry in doc.fields
        if entry.get("kind") != "checkbox" and len(str(entry.get("rendered_as", "")).strip()) >= 3
        for location in entry.get("locations") or []
        if isinstance(location, dict)
        and location.get("page") == page
        and location.get("legible") is not False
        and location.get("fragment") is None
        and isinstance(location.get("quad"), list)
        and "legible_from_dpi" in location
    ]
    if not boxes:
        return {}
    chosen = random.Random(seed).sample(boxes, min(READ_BOXES, len(boxes)))
    regions = {page: [[float(v) for v in location["quad"]] for _, location in chosen]}
    out: dict[int, tuple[int, int, int, int]] = {}
    drawn: dict[int, dict[int, Any]] = {}  # the page drawn at file_dpi once, for every rung
    for dpi in READ_AT:
        if dpi >= file_dpi:
            continue
        sent = DeliveredPdf(pdf, {page: file_dpi}, dpi, drawn)
        try:
            angles = {page: angle}
            crops: Crops = {}
            cut = cut_boxes(sent, regions, angles=angles, cache=crops)
            # A handful of boxes: read by the library in this process, not by a tesseract
            # process per way of reading (`read_boxes`), which costs more to start than to read.
            plain = read_crops(engine, cut, DPI, str(doc.file))
            read = [
                any(same_text(r, text) for r in readings)
                for (text, _), readings in zip(chosen, plain, strict=True)
            ]
            # As the audit reads a box: PP-OCR only where tesseract did not read it, its
            # lines looked for only where its one-line reading misses.
            missed = [i for i, found in enumerate(read) if not found]
            if missed:
                second = second_boxes(
                    sent,
                    {page: [regions[page][i] for i in missed]},
                    doc.file,
                    angles=angles,
                    cache=crops,
                    wanted={page: [chosen[i][0] for i in missed]},
                )[page]
                for i, readings in zip(missed, second, strict=True):
                    read[i] = any(same_text(r, chosen[i][0]) for r in readings)
        finally:
            sent.close()
        counts = [0, 0, 0, 0]
        for (_, location), found in zip(chosen, read, strict=True):
            legible = resolution.legible_at(location, dpi)
            counts[(0 if legible else 2) + (0 if found else 1)] += 1
        out[dpi] = (counts[0], counts[1], counts[2], counts[3])
    return out
