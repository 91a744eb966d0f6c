"""How pages are read: whole (`read_pages`: rendered at the OCR resolution, turned upright,
words placed back on the page image), box by box without reading the page (`read_boxes`,
`cut_boxes`), by bands of lines around boxes (`read_bands`), line by line (`read_lines`), and
by the second engine (`second_boxes`)."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from packetbench.reading import boxcrops, ppocr
from packetbench.reading.boxes import REACH, BoxReader, enough, read_crops
from packetbench.reading.imaging import (
    big_type,
    deskewed,
    flattened,
    levelled,
    lines_cut,
    render_page,
    turned_back,
    turned_corners,
    unruled,
    upright,
)
from packetbench.reading.page import OcrPage
from packetbench.reading.tesseract import DPI, MARGIN, Tesseract, Word


def read_boxes(
    pdf: Any,
    regions: Mapping[int, Sequence[Sequence[float]]],
    engine: Tesseract,
    source: Path,
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
    sharpen: bool = False,
    dropout: bool = False,
    cache: Crops | None = None,
) -> dict[int, list[tuple[str, ...]]]:
    """What OCR reads in each box of `regions` (page -> bboxes or quads, PDF points) on its
    own, as `OcrPage.reread` reads it, without reading any page whole: each box is cut out of
    its page prepared as for whole-page OCR (`cut_boxes`), and the boxes of every page read
    together, one tesseract process per way of reading (READINGS); `sharpen`: sharpened;
    `dropout`: a page drawn, not scanned, read in its red channel (`cut_boxes`); `cache`: the
    crops cut before (`cut_boxes`)."""
    crops = cut_boxes(pdf, regions, dpi, angles, dropout, cache)
    out: dict[int, list[tuple[str, ...]]] = {number: [] for number in regions}
    if not crops:
        return out
    owners = [number for number in sorted(regions) for _ in regions[number]]
    readings = read_crops(engine, crops, dpi, str(source), True, sharpen)
    for number, read in zip(owners, readings, strict=True):
        out[number].append(read)
    return out


def second_boxes(
    pdf: Any,
    regions: Mapping[int, Sequence[Sequence[float]]],
    source: Path,
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
    cache: Crops | None = None,
    wanted: Mapping[int, Sequence[str]] | None = None,
) -> dict[int, list[tuple[str, ...]]]:
    """What the second engine (`reading.ppocr`) reads in each box of `regions` on its own, each
    cut out as `read_boxes` cuts it (`cut_boxes`; `cache`: the crops cut before; `wanted`:
    what each box should read, its lines not looked for when its line reads that). The
    engine loads only when there is one."""
    if not any(regions.values()):
        return {number: [] for number in sorted(regions)}
    crops = cut_boxes(pdf, regions, dpi, angles, cache=cache)
    texts = None
    if wanted is not None:
        texts = [text for number in sorted(regions) for text in wanted[number]]
        if len(texts) != len(crops):
            raise ValueError("second_boxes: wanted must name one text per box")
    read = iter(ppocr.engine().read_boxes(crops, dpi, str(source), enough(texts)))
    return {number: [next(read) for _ in regions[number]] for number in sorted(regions)}


def _frame(page: Any, scale: float) -> tuple[OcrPage, int, int]:
    """An open page's mapping from PDF points to pixels at `scale` (an `OcrPage` without
    words, from its crop box), and its size in pixels."""

    left, _bottom, _right, top = page.get_cropbox()
    width, height = boxcrops.page_size(page, scale)
    return OcrPage([], scale, float(left), float(top)), width, height


def cut_boxes(
    pdf: Any,
    regions: Mapping[int, Sequence[Sequence[float]]],
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
    dropout: bool = False,
    cache: Crops | None = None,
) -> list[np.ndarray[Any, Any]]:
    """Each box of `regions` (page -> bboxes or quads, PDF points), pages in order, cut out of
    its page prepared as for whole-page OCR (a scan, its page in `angles`: evened out and
    turned back) with the rules around it removed, as `OcrPage.reread` cuts it: the
    preparation computed around each box only (`boxcrops`). `dropout`: a page drawn, not
    scanned, in its red channel (`boxcrops.render_rect`). `cache`: crops of this `pdf` cut
    before (`Crops`), taken from it and kept in it."""

    angles = angles or {}
    crops: list[np.ndarray[Any, Any]] = []
    scale = dpi / 72
    for number in sorted(regions):
        if not regions[number]:
            continue
        angle = angles.get(number)
        keys = [
            (number, tuple(float(v) for v in region), angle, dropout, dpi)
            for region in regions[number]
        ]
        if cache is not None and all(key in cache for key in keys):
            crops.extend(cache[key] for key in keys)
            continue
        page = pdf[number - 1]
        try:
            mapper, width, height = _frame(page, scale)
            for key, region in zip(keys, regions[number], strict=True):
                if cache is not None and key in cache:
                    crops.append(cache[key])
                    continue
                corners = mapper.corners(region)
                x0, y0, x1, y1 = upright(corners, MARGIN * scale, angle or 0.0, width, height)
                if x1 <= x0 or y1 <= y0:  # beside the page: nothing to read
                    crops.append(np.full((max(y1 - y0, 0), max(x1 - x0, 0)), 255, np.uint8))
                    continue
                wx, wy = max(x0 - REACH, 0), max(y0 - REACH, 0)
                window = boxcrops.evened(
                    page,
                    scale,
                    angle,
                    (wx, wy, min(x1 + REACH, width), min(y1 + REACH, height)),
                    dropout,
                )
                inside = [
                    (x - x0, y - y0)
                    for x, y in turned_corners(corners, angle or 0.0, width, height)
                ]
                box = unruled(window, dpi)[y0 - wy : y1 - wy, x0 - wx : x1 - wx]
                crops.append(lines_cut(levelled(box, inside, MARGIN * scale)))
                if cache is not None:
                    crops[-1].setflags(write=False)  # shared: no reader may change it
                    cache[key] = crops[-1]
        finally:
            page.close()
    return crops


# Boxes of one document cut out by `cut_boxes`, by (page, region, angle, dropout, dpi): a box
# the plain readings leave unread is read again sharpened, then by the second engine, and
# an illegible box all three ways, each reading of the same crop.
Crops = dict[tuple[int, tuple[float, ...], float | None, bool, int], np.ndarray[Any, Any]]

# A band read in place of a whole page (`read_bands`) reaches this many box heights above and
# below its box, and never less than BAND_MIN points: the value's line and its neighbours,
# across the whole width of the page.
BAND_LINES = 1.5

BAND_MIN = 14.0


def read_bands(
    pdf: Any,
    regions: Mapping[int, Sequence[Sequence[float]]],
    engine: Tesseract,
    source: Path,
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
    lines: Mapping[int, Sequence[Sequence[float]]] | None = None,
) -> dict[int, OcrPage]:
    """Per page of `regions` (page -> bboxes or quads, PDF points), an `OcrPage` of the words
    tesseract reads (as `read_pages` reads a page: PSM, evened out, deskewed, unruled) in
    bands of the page around the regions: each region's rows grown by BAND_LINES of its
    height above and below, across the page's full width. A value the box reading missed is
    looked for there, not on the whole page: reading a band costs a fraction of a page (every
    band of every page is read by one tesseract process), and a value is where it is drawn.
    With `lines` (page -> quads along a line, `read_lines`), the words read along each line
    join its page's. The words are placed back on the page image, so `OcrPage.in_box`,
    `find` and `has_string` work as on a page read whole (the page carries no image: no
    ink, no rereading)."""

    angles = angles or {}
    lines = lines or {}
    scale = dpi / 72
    strips: list[np.ndarray[Any, Any]] = []
    owners: list[tuple[int, int]] = []  # (page, top row of the strip in the upright image)
    pages: dict[int, tuple[float, float, int, int]] = {}  # page -> left, top, width, height
    for number in sorted(set(regions) | set(lines)):
        if not regions.get(number) and not lines.get(number):
            continue
        page = pdf[number - 1]
        try:
            mapper, width, height = _frame(page, scale)
            pages[number] = (mapper.left, mapper.top, width, height)
            angle = angles.get(number)
            spans: list[list[int]] = []
            for region in regions.get(number, []):
                _, y0, _, y1 = upright(mapper.corners(region), 0.0, angle or 0.0, width, height)
                reach = math.ceil(max(BAND_LINES * (y1 - y0), BAND_MIN * scale))
                spans.append([max(y0 - reach, 0), min(y1 + reach, height)])
            merged: list[list[int]] = []
            for span in sorted(spans):
                if merged and span[0] <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], span[1])
                elif span[1] > span[0]:
                    merged.append(span)
            for y0, y1 in merged:
                wy0, wy1 = max(y0 - REACH, 0), min(y1 + REACH, height)
                window = boxcrops.evened(page, scale, angle, (0, wy0, width, wy1))
                strips.append(np.ascontiguousarray(unruled(window, dpi)[y0 - wy0 : y1 - wy0]))
                owners.append((number, y0))
        finally:
            page.close()
    found: dict[int, list[Word]] = {number: [] for number in pages}
    for (number, y0), words in zip(
        owners, engine.words_many(strips, dpi, str(source)), strict=True
    ):
        found[number].extend(
            Word(w.text, w.left, w.top + y0, w.right, w.bottom + y0) for w in words
        )
    along = read_lines(pdf, {n: q for n, q in lines.items() if q}, engine, source, dpi)
    out: dict[int, OcrPage] = {}
    for number, (left, top, width, height) in pages.items():
        words = turned_back(found[number], angles.get(number) or 0.0, width, height)
        out[number] = OcrPage(words + along.get(number, []), scale, left, top)
    return out


def read_lines(
    pdf: Any,
    lines: Mapping[int, Sequence[Sequence[float]]],
    engine: Tesseract,
    source: Path,
    dpi: int = DPI,
) -> dict[int, list[Word]]:
    """Per page of `lines` (page -> quads along a line of text, PDF points: the first two
    corners along its lower edge, `DrawnText.line`), the words tesseract reads in each line
    cut out of the page image and turned level, however the line runs: a watermark drawn
    corner to corner, which neither the page's deskew nor a band of the page sets level.
    The words are placed back on the page image (centres turned back, boxes their size).
    Every strip of every page is read by one tesseract process."""
    from PIL import Image

    scale = dpi / 72
    strips: list[np.ndarray[Any, Any]] = []
    owners: list[tuple[int, float, float, float, float, float, float]] = []
    for number in sorted(lines):
        page = pdf[number - 1]
        try:
            mapper, width, height = _frame(page, scale)
            for quad in lines[number]:
                corners = mapper.corners(quad)
                (x0, y0), (x1, y1), _, (x3, y3) = corners
                angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
                length, thick = math.hypot(x1 - x0, y1 - y0), math.hypot(x3 - x0, y3 - y0)
                grow = max(0.15 * thick, MARGIN * scale)
                xs, ys = [x for x, _ in corners], [y for _, y in corners]
                rect = (
                    max(0, math.floor(min(xs) - grow)),
                    max(0, math.floor(min(ys) - grow)),
                    min(width, math.ceil(max(xs) + grow)),
                    min(height, math.ceil(max(ys) + grow)),
                )
                if rect[2] - rect[0] < 2 or rect[3] - rect[1] < 2:
                    continue
                picture = Image.fromarray(boxcrops.render_rect(page, scale, rect))
                turned = picture.rotate(
                    angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255
                )
                # Where the line's centre landed: turned with the picture about its centre.
                cx, cy = sum(xs) / 4 - rect[0], sum(ys) / 4 - rect[1]
                dx, dy = cx - picture.width / 2, cy - picture.height / 2
                radians = math.radians(angle)
                cos, sin = math.cos(radians), math.sin(radians)
                tx = turned.width / 2 + dx * cos + dy * sin
                ty = turned.height / 2 - dx * sin + dy * cos
                half_w, half_h = length / 2 + grow, thick / 2 + grow
                strip = turned.crop(
                    (
                        round(tx - half_w),
                        round(ty - half_h),
                        round(tx + half_w),
                        round(ty + half_h),
                    )
                )
                strip, factor = big_type(strip)
                strips.append(np.ascontiguousarray(np.asarray(strip, dtype=np.uint8)))
                owners.append(
                    (
                        number,
                        angle,
                        sum(xs) / 4,
                        sum(ys) / 4,
                        factor,
                        strip.width / 2,
                        strip.height / 2,
                    )
                )
        finally:
            page.close()
    found: dict[int, list[Word]] = {number: [] for number in lines}
    for (number, angle, px, py, factor, sx, sy), words in zip(
        owners, engine.words_many(strips, dpi, str(source), psm="7"), strict=True
    ):
        radians = math.radians(angle)
        cos, sin = math.cos(radians), math.sin(radians)
        for word in words:
            # The word's centre, from the level strip back onto the page image.
            dx = ((word.left + word.right) / 2 - sx) / factor
            dy = ((word.top + word.bottom) / 2 - sy) / factor
            x, y = px + dx * cos - dy * sin, py + dx * sin + dy * cos
            half_w = (word.right - word.left) / 2 / factor
            half_h = (word.bottom - word.top) / 2 / factor
            found[number].append(Word(word.text, x - half_w, y - half_h, x + half_w, y + half_h))
    return found


def read_pages(
    pdf: Any,
    numbers: Sequence[int],
    engine: Tesseract,
    source: Path,
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
) -> Iterator[tuple[int, OcrPage]]:
    """(page number, OCR) for pages `numbers` (1-based) of an open pypdfium2 document.

    A page with an angle in `angles` (a scan, turned by that many degrees) has its paper
    evened out and is deskewed before tesseract reads it, and the words are placed back where
    the page shows them.
    pdfium renders in this thread, a batch of one page per core at a time; tesseract reads
    the batch in parallel processes.
    """
    workers = max(1, os.cpu_count() or 1)
    angles = angles or {}

    def read(item: tuple[int, np.ndarray[Any, Any], float, float]) -> tuple[list[Word], BoxReader]:
        number, image = item[0], item[1]
        where = f"{source} page {number}"
        if number not in angles:
            prepared = unruled(image, dpi)
            return engine.words(prepared, dpi, where), BoxReader(engine, prepared, 0.0, dpi, where)
        angle = angles[number]
        flat = flattened(image)
        prepared = unruled(deskewed(flat, angle) if angle else flat, dpi)
        found = engine.words(prepared, dpi, where)
        return (
            turned_back(found, angle, image.shape[1], image.shape[0]),
            BoxReader(engine, prepared, angle, dpi, where),
        )

    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        for start in range(0, len(numbers), workers):
            batch = [
                (number, *render_page(pdf, number, dpi))
                for number in numbers[start : start + workers]
            ]
            words = pool.map(read, batch)
            for (number, image, left, top), (found, reader) in zip(batch, words, strict=True):
                yield (
                    number,
                    OcrPage(found, dpi / 72, left, top, image.reshape(image.shape[:2]), reader),
                )
    except BaseException:
        # Stopped (an interrupt, a failure, a reader that stopped reading): the pages in
        # flight are not waited for, and no tesseract reads on, or starts, after this.
        engine.halt()
        pool.shutdown(wait=True, cancel_futures=True)
        engine.resume()
        raise
    finally:
        pool.shutdown(wait=True)
