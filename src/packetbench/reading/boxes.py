"""Chosen boxes of a page read again, one crop each: `BoxReader` cuts them out of the image
tesseract read and sets them side by side on sheets (`read_crops`), read in every way of
`tesseract.READINGS` and sharpened where none found the value; the second engine
(`reading.ppocr`) reads what tesseract read nowhere."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from packetbench.reading import ppocr
from packetbench.reading.imaging import (
    SHARPEN_SCALE,
    deskewed,
    flattened,
    ink_lines,
    levelled,
    lines_cut,
    render_page,
    sharpened,
    turned_corners,
    upright,
)
from packetbench.reading.tesseract import BLOCK, READINGS, Tesseract, Word
from packetbench.reading.text import same_text


class BoxReader:
    """OCR of chosen boxes of a page, cut out of the image tesseract read (evened out,
    deskewed, rules removed) and read together in one call.

    Tesseract's page segmentation drops some lone short words, a single letter in a cell
    most of all, which a person reads at a glance. The audit's question is whether the
    value is legible inside its box, so a value the page's OCR did not find there is read
    again from exactly its box (plus MARGIN): the boxes are set side by side on a blank sheet,
    well apart, and read in each of READINGS; a word belongs to the box whose band holds
    its middle, and a box is read when one reading equals its value. Nothing outside the
    boxes is read, so this cannot find a value elsewhere."""

    GAP = 80  # blank pixels around each box: apart, tesseract takes each for a word
    WIDTH = 6000  # pixels: a wider row of boxes is read in more calls

    def __init__(
        self, engine: Tesseract, image: np.ndarray[Any, Any], angle: float, dpi: int, source: str
    ) -> None:
        self.engine, self.image, self.angle = engine, image, angle
        self.dpi, self.source = dpi, source

    def _upright(
        self, corners: list[tuple[float, float]], grow: float
    ) -> tuple[int, int, int, int]:
        """The pixel rectangle of the prepared (deskewed) image holding the corners."""
        height, width = self.image.shape
        return upright(corners, grow, self.angle, width, height)

    def crops(
        self, regions: list[list[tuple[float, float]]], grow: float
    ) -> list[np.ndarray[Any, Any]]:
        """Each region cut out of the prepared image (along its own line when the deskew
        left it slanted: `levelled`), the rules crossing it removed."""
        height, width = self.image.shape
        cut = []
        for corners in regions:
            left, top, right, bottom = self._upright(corners, grow)
            moved = turned_corners(corners, self.angle, width, height)
            inside = [(x - left, y - top) for x, y in moved]
            cut.append(lines_cut(levelled(self.image[top:bottom, left:right], inside, grow)))
        return cut

    def read(
        self, regions: list[list[tuple[float, float]]], grow: float, sharpen: bool = False
    ) -> list[tuple[str, ...]]:
        """Per region, what each way of reading (READINGS) reads in it (`sharpen`: in the
        region sharpened)."""
        crops = self.crops(regions, grow)
        return read_crops(self.engine, crops, self.dpi, self.source, sharpen=sharpen)

    def second(
        self,
        regions: list[list[tuple[float, float]]],
        grow: float,
        wanted: Sequence[str] | None = None,
    ) -> list[tuple[str, ...]]:
        """What the second engine (`reading.ppocr`) reads in each region on its own (`wanted`:
        what each should read, see `PpOcr.read_box`)."""
        crops = self.crops(regions, grow)
        return ppocr.engine().read_boxes(crops, self.dpi, self.source, enough(wanted))

    @classmethod
    def rows(cls, crops: Sequence[np.ndarray[Any, Any]]) -> list[list[int]]:
        """The crops in rows of at most WIDTH pixels, each row one sheet."""
        rows: list[list[int]] = [[]]
        width = cls.GAP
        for index, crop in enumerate(crops):
            if rows[-1] and width + crop.shape[1] > cls.WIDTH:
                rows.append([])
                width = cls.GAP
            rows[-1].append(index)
            width += crop.shape[1] + cls.GAP
        return [row for row in rows if row]

    @classmethod
    def sheet(
        cls, crops: Sequence[np.ndarray[Any, Any]], row: list[int]
    ) -> tuple[np.ndarray[Any, Any], list[tuple[int, int, int]]]:
        """Boxes `row` side by side, centred on one line of a blank sheet, and each one's
        (index, left, right) on it."""
        tallest = max(crops[i].shape[0] for i in row)
        width = sum(crops[i].shape[1] + cls.GAP for i in row) + cls.GAP
        sheet = np.full((tallest + 2 * cls.GAP, width), 255, dtype=np.uint8)
        bands = []
        x = cls.GAP
        for index in row:
            crop = crops[index]
            top = cls.GAP + (tallest - crop.shape[0]) // 2
            sheet[top : top + crop.shape[0], x : x + crop.shape[1]] = crop
            bands.append((index, x, x + crop.shape[1]))
            x += crop.shape[1] + cls.GAP
        return sheet, bands


def read_crops(
    engine: Tesseract,
    crops: Sequence[np.ndarray[Any, Any]],
    dpi: int,
    source: str,
    batched: bool = False,
    sharpen: bool = False,
) -> list[tuple[str, ...]]:
    """Per crop, what each way of reading (READINGS) reads in it: the crops set side by side
    on sheets (`BoxReader.sheet`), each sheet read by one tesseract call per reading, or, when
    `batched`, every sheet by one tesseract process per reading (`Tesseract.words_many`).
    `sharpen`: each crop read sharpened (`sharpened`) instead. Every crop is read every way
    on the same sheets, whatever an earlier way read in it: what tesseract reads in a crop
    depends on the crops beside it on its sheet."""
    if sharpen:
        crops = [sharpened(crop) for crop in crops]
        dpi *= SHARPEN_SCALE
    read: list[list[str]] = [[] for _ in crops]
    sheets = [BoxReader.sheet(crops, row) for row in BoxReader.rows(crops)]
    for psm in READINGS:
        if psm == BLOCK:
            continue
        if batched:
            pages = engine.words_many([sheet for sheet, _ in sheets], dpi, source, psm=psm)
        else:
            pages = [engine.words(sheet, dpi, source, psm=psm) for sheet, _ in sheets]
        for (_, bands), found in zip(sheets, pages, strict=True):
            for index, left, right in bands:
                inside = [w for w in found if left <= (w.left + w.right) / 2 <= right]
                read[index].append(" ".join(w.text for w in in_lines(inside)))
    # A box of several lines is read alone as a block, on a blank margin as a sheet sets it.
    wrapped = [i for i, crop in enumerate(crops) if ink_lines(crop) > 1]
    blocks = [BoxReader.sheet(crops, [i])[0] for i in wrapped]
    if batched:
        found_blocks = engine.words_many(blocks, dpi, source, psm=BLOCK)
    else:
        found_blocks = [engine.words(block, dpi, source, psm=BLOCK) for block in blocks]
    block_text = {
        i: " ".join(w.text for w in in_lines(words))
        for i, words in zip(wrapped, found_blocks, strict=True)
    }
    for index, texts in enumerate(read):
        texts.append(block_text.get(index, ""))
    return [tuple(texts) for texts in read]


def in_lines(words: Sequence[Word]) -> list[Word]:
    """`words` in reading order: line by line from the top (a word whose middle lies within a
    line's height joins it), each line left to right. A value wrapped on two lines in its box
    reads as drawn ("Enterprise Fleet" then "Management, Inc."), not with its lines' words
    interleaved, as ordering by their left edges alone reads it."""
    lines: list[tuple[float, float, list[Word]]] = []
    for word in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        middle = (word.top + word.bottom) / 2
        if lines and lines[-1][0] <= middle <= lines[-1][1]:
            top, bottom, members = lines[-1]
            members.append(word)
            lines[-1] = (min(top, word.top), max(bottom, word.bottom), members)
        else:
            lines.append((word.top, word.bottom, [word]))
    return [w for _, _, members in lines for w in sorted(members, key=lambda w: w.left)]


def _evened(
    pdf: Any, number: int, dpi: int, angle: float | None
) -> tuple[np.ndarray[Any, Any], float, float]:
    """Page `number` rendered as `read_pages` renders it for tesseract (a scan, `angle` not
    None: evened out and deskewed), its rules not yet removed, with its crop box's left and
    top."""
    image, left, top = render_page(pdf, number, dpi)
    image = np.ascontiguousarray(image.reshape(image.shape[:2]))
    if angle is None:
        return image, left, top
    flat = flattened(image)
    return (deskewed(flat, angle) if angle else flat), left, top


# Pixels around a box whose rules are removed with it (`unruled` is local: a rule is found
# within RULE of a pixel, 75 pixels at 300 dpi, then grown by one), so a box's crop is
# unruled exactly as on the whole page at a fraction of the cost.
REACH = 100


def _reads(wanted: str, reading: str) -> bool:
    return same_text(reading, wanted)


def enough(wanted: Sequence[str] | None) -> list[Callable[[str], bool]] | None:
    """For the second engine, a test per box of whether a reading reads what it should."""
    return None if wanted is None else [partial(_reads, text) for text in wanted]
