"""The sending fax machine's transmission header (scan.fax): one line at the top of every page
of a faxed document, printed over what the sender's page had there.

A fax machine prints its header (the time sent, the sender's name and number, the number
dialled, the page and the page count) into the top rows of the image it transmits, in
character cells of its own: where the sender's page has content near its top edge, the cells
replace it. Each field of the line is a white cell the height of the line holding the field's
text; the gaps between fields keep the page's own ink. A value under a cell is gone, one in a
gap or below the band is untouched, and the legibility rule (`packetbench.reading.legibility`)
judges both from the pixels like any other local damage: the clean side never has the header.

The header is drawn once per document (`draw`, from a seed of the document's own) and its page
marker counts the document's pages (`P.002/007`). Its text is not a truth value: it is visible
text of the page (the rendered universe lists it), drawn in pixels only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from packetbench.generator.render.fonts import FOLDER

Matrix = np.ndarray[Any, Any]
Box = tuple[int, int, int, int]  # left, top, right, bottom, pixels

FONT = "DejaVuSans.ttf"  # shipped with the package (generator/fonts), so its bytes are pinned
SIZE = 8.0  # points: the header's type, as tall as a fax machine's own characters
MARGIN = 14.0  # points from the page's left and right edges to the outer fields
PAD = 1.5  # points of white cell around a field's text

_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
# A sender's name as a fax machine's owner programs it (capitals, a few words); fictional.
_FIRST = ("LAKESHORE", "SUMMIT", "NORTHGATE", "PRAIRIE", "HARBOR", "KEYSTONE", "RIDGELINE")
_SECOND = ("RISK", "INSURANCE", "COMMERCIAL", "UNDERWRITING", "BENEFITS")
_THIRD = ("PARTNERS", "BROKERAGE", "AGENCY", "GROUP", "SERVICES")
# Area codes for the 555-01xx numbers reserved for fiction.
_AREAS = ("312", "214", "404", "617", "602", "713", "206", "303", "816", "414")


@dataclass(frozen=True)
class FaxHeader:
    """One document's header line: what the sending machine prints on each of its pages."""

    sent: str  # "NOV-25-2026 14:03"
    sender: str  # "LAKESHORE RISK PARTNERS"
    number: str  # the sender's number, "312 555 0187"
    dialled: str  # the number it called, "8005550142"
    pages: int  # the document's page count: every page says P.n/pages
    top: float  # points from the page's top edge to the line's top
    middle: float  # points from the page's left edge to the FROM field

    def fields(self, page: int) -> tuple[str, str, str]:
        """The line's three fields on 1-based `page`: time sent, sender, and the number dialled
        with the page marker."""
        return (
            self.sent,
            f"FROM: {self.sender}  {self.number}",
            f"TO: {self.dialled}   P.{page:03d}/{self.pages:03d}",
        )

    def record(self) -> dict[str, Any]:
        """What the manifest says of the header (`scan.fax`'s details)."""
        return {
            "sent": self.sent,
            "sender": self.sender,
            "number": self.number,
            "dialled": self.dialled,
            "pages": self.pages,
            "top": self.top,
            "middle": self.middle,
        }


def draw(seed: int, pages: int) -> FaxHeader:
    """A document's header, from `seed` (the document's own): the same seed, the same header.
    The line sits 4 to 22 points below the page's top edge: mostly in the top margin, and on
    a form whose first line of values starts that high, over them."""
    rng = random.Random(seed)
    month, day = rng.randrange(12), rng.randint(1, 28)
    hour, minute = rng.randint(7, 18), rng.randrange(60)
    sent = f"{_MONTHS[month]}-{day:02d}-{rng.choice((2025, 2026))} {hour:02d}:{minute:02d}"
    sender = " ".join((rng.choice(_FIRST), rng.choice(_SECOND), rng.choice(_THIRD)))
    number = f"{rng.choice(_AREAS)} 555 01{rng.randrange(100):02d}"
    dialled = f"{rng.choice(('800', '877', '888'))}55501{rng.randrange(100):02d}"
    top = round(rng.uniform(4.0, 22.0), 2)
    middle = round(rng.uniform(130.0, 170.0), 2)
    return FaxHeader(sent, sender, number, dialled, pages, top, middle)


@lru_cache(maxsize=8)
def _font(pixels: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FOLDER / FONT), pixels)


def _width(font: ImageFont.FreeTypeFont, text: str, pad: int) -> int:
    """A field's cell width in pixels: its text and `pad` pixels either side."""
    return round(font.getlength(text)) + 2 * pad


def layout(
    header: FaxHeader, page: int, width: float, dpi: int, lift: int = 0
) -> list[tuple[str, Box]]:
    """Each field of the line on 1-based `page` of a page `width` points wide drawn at `dpi`:
    its text and its white cell in pixels. The time sent at the left margin, the sender at
    `middle`, the number dialled and the page marker at the right margin; the line `lift`
    pixels above where the header puts it (`clear_lift`)."""
    scale = dpi / 72.0
    font = _font(round(SIZE * scale))
    pad = round(PAD * scale)
    ascent, descent = font.getmetrics()
    top = round(header.top * scale) - lift
    bottom = top + ascent + descent + 2 * pad
    sent, sender, dialled = header.fields(page)
    cols = round(width * scale)
    right = cols - round(MARGIN * scale)
    last = right - _width(font, dialled, pad)
    # The sender's field ends a margin before the number dialled (a narrow page moves it left).
    middle = min(
        round(header.middle * scale), last - round(MARGIN * scale) - _width(font, sender, pad)
    )
    starts = (round(MARGIN * scale), middle, last)
    placed = []
    for text, left in zip((sent, sender, dialled), starts, strict=True):
        placed.append((text, (left, top, left + _width(font, text, pad), bottom)))
    return placed


def _across(cell: Box, box: Box) -> bool:
    """Whether `cell`'s upper or lower edge runs across `box`'s glyphs: the cell reaches into
    the box from above or below and leaves the rest of its glyph rows (its side edges cut
    whole glyphs off a value, which leaves it plainly incomplete, not in doubt)."""
    left, top, right, bottom = cell
    x0, y0, x1, y1 = box
    if max(left, x0) >= min(right, x1):
        return False
    return y0 < top < y1 or y0 < bottom < y1


def clear_lift(header: FaxHeader, page: int, width: float, dpi: int, boxes: list[Box]) -> int:
    """How many pixels the line of 1-based `page` is lifted (lowered, when negative) so that
    no cell's upper or lower edge runs across a value's box (`boxes`, pixels): a value is under
    a cell's full height or clear of it, as a sheet lands in the machine a little higher or
    lower from page to page: the nearest such place, at most the line's height lower. A
    cell's edge across a value's glyphs leaves a value neither gone nor legible (with a tenth
    to a quarter of its ink cut off, OCR read 16 of 35 such values, benchmarks/
    legibility_margin.py), so the header never stops there. 0 when nothing is cut; lifted
    above the page's top at worst, where it cuts nothing."""
    first = layout(header, page, width, dpi)
    height = first[0][1][3] - first[0][1][1]
    most = round(header.top * dpi / 72.0) + height
    # The nearest clear place, up or down (a line lifted past the page's top cuts nothing).
    for step in range(2 * most + 1):
        lift = (step + 1) // 2 if step % 2 else -(step // 2)
        if lift < -height:
            continue
        cells = [cell for _, cell in layout(header, page, width, dpi, lift)]
        if not any(_across(cell, box) for cell in cells for box in boxes):
            return lift
    return most


def stamp(
    pixels: Matrix, dpi: int, header: FaxHeader, page: int, width: float, lift: int = 0
) -> list[Box]:
    """Print the header of 1-based `page` into `pixels` (gray, a row per pixel row, 255 =
    white, in place), `lift` pixels up (`clear_lift`): each field's cell white, its text
    black. Returns the cells."""
    scale = dpi / 72.0
    font = _font(round(SIZE * scale))
    pad = round(PAD * scale)
    rows, cols = pixels.shape
    cells = []
    for text, (left, top, right, bottom) in layout(header, page, width, dpi, lift):
        left, top = max(left, 0), max(top, 0)
        right, bottom = min(right, cols), min(bottom, rows)
        if right <= left or bottom <= top:
            continue
        cell = Image.new("L", (right - left, bottom - top), 255)
        ImageDraw.Draw(cell).text((pad, pad), text, fill=0, font=font)
        pixels[top:bottom, left:right] = np.asarray(cell, dtype=np.uint8)
        cells.append((left, top, right, bottom))
    return cells


def cells(
    header: FaxHeader, page: int, size: tuple[float, float], dpi: int, lift: int = 0
) -> list[tuple[int, str, list[float]]]:
    """Each field of the line on 1-based `page` (a page `size` points, scanned at `dpi`,
    the line lifted `lift` pixels) as (page, text, quad): its cell in points of the scanned
    page (lower-left, lower-right, upper-right, upper-left), where `stamp` prints it. The
    audit reads a field there."""
    width, height = size
    step = 72.0 / dpi
    out = []
    for text, (left, top, right, bottom) in layout(header, page, width, dpi, lift):
        x0, x1 = left * step, right * step
        y0, y1 = height - bottom * step, height - top * step
        out.append((page, text, [x0, y0, x1, y0, x1, y1, x0, y1]))
    return out
