"""A Group 3 fax as the receiving end stores it (`Level.rows`): the sending machine scans the
page at 204 dots per inch across and 98 lines per inch down (standard) or 196 (fine), turns
it into black and white (a dithered halftone where the page is gray), sends it over a line that
garbles or drops some rows, and the receiver stores each line it got at 204 dpi by repeating
it down the page (as a fax server's PDF or a receiving machine's printout shows it: the page
keeps its size, a standard fax's rows twice as tall as they are wide) through a thermal head
whose print fades across the page.

The page is drawn at 204 dpi both ways (`Level.dpi`), so every located value's box stays where
the scan put it; the lines sent are the means of the rows each covers (`lines`), the same on
the legibility rule's clean side (`optical_clean`: fewer lines down is the fax's optics, what a
person sees as the same glyphs, coarser) as on the page sent (`transmit`).

Standard or fine is decided per page by its smallest type (`resolution`): a page whose type
is all `FINE_BELOW` points or more goes standard, any other fine, as a fax machine's manual
says for small print. At 98 lines per inch a line of 5-point type stands on 7 lines: on seed
8900101's driver schedule (5.1-point type) a standard fax showed 05/19/1958 as 05/10/1958 and
09/29/1989 as 09/29/1969 at 150 dpi, where fine kept every digit; its ACORD forms (labels at
5.5 points, values at 7-8) read digit for digit at standard
(docs/measurements.md#fax-at-group-3-resolution). So a packet's forms go standard and its
schedules (type at 4.5-5.1 points) fine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter

from packetbench.core import images
from packetbench.generator.render.scan_levels import Level

Matrix = np.ndarray[Any, Any]

STANDARD = 98  # lines per inch down a standard-resolution fax
FINE = 196  # lines per inch down a fine-resolution fax
FINE_BELOW = 5.5  # points: a page with smaller type is sent fine (see the module docstring)
# Dots in a row a black dot must sit in the middle of to fade (`transmit`): longer than any
# stroke of the forms' type (an arm of 9-point type is under ten dots at 204 dpi), shorter than
# a rule or a bold heading's fill.
SOLID_RUN = 11


def smallest_type(page: Any) -> float:
    """The smallest type on an open pypdfium2 page, in points (the font size pdfium reports
    for each character that is not a space; 0 when the page has no text)."""
    text = page.get_textpage()
    try:
        raw = text.raw
        count = pdfium.raw.FPDFText_CountChars(raw)
        sizes = [
            pdfium.raw.FPDFText_GetFontSize(raw, i)
            for i in range(count)
            if pdfium.raw.FPDFText_GetUnicode(raw, i) > 32
        ]
    finally:
        text.close()
    positive = [size for size in sizes if size > 0]
    return round(min(positive), 2) if positive else 0.0


def resolution(page: Any, level: Level) -> int:
    """The lines per inch down the page that `level` sends `page` at: 0 (its `dpi`) for a level
    that is not a Group 3 fax (`Level.rows` 0), else standard, or fine when the page's smallest
    type is under FINE_BELOW points."""
    if not level.rows:
        return 0
    small = smallest_type(page)
    return FINE if 0 < small < FINE_BELOW else level.rows


def lines(pixels: Matrix, dpi: int, rows: int) -> Matrix:
    """The lines a fax sends of `pixels` (gray, a row per pixel row at `dpi`): each the mean
    of the strip of the page it covers (a box filter down the page; uint8, one row per line)."""
    height, width = pixels.shape
    count = max(1, round(height * rows / dpi))
    image = Image.fromarray(pixels).resize((width, count), Image.Resampling.BOX)
    return images.pixels(image)


def shown(sent: Matrix, height: int) -> Matrix:
    """The lines `sent` stored `height` pixel rows tall: each line repeated over the pixel
    rows it covers."""
    image = Image.fromarray(sent).resize((sent.shape[1], height), Image.Resampling.NEAREST)
    return images.pixels(image)


def optics(pixels: Matrix, dpi: int, rows: int) -> Matrix:
    """The clean side's fax: the page's rows as the lines sent, stored back at `dpi` (gray; the
    tone curve thresholds it)."""
    if not rows or rows >= dpi:
        return pixels
    return shown(lines(pixels, dpi, rows), pixels.shape[0])


# An 8 x 8 Bayer matrix: the ordered dither of a fax's halftone mode (gray as a regular pattern
# of dots, the pattern a person recognises as a faxed shade).
_BAYER = np.array([[0, 2], [3, 1]], dtype=np.int32)
for _ in range(2):
    _BAYER = np.block([[4 * _BAYER, 4 * _BAYER + 2], [4 * _BAYER + 3, 4 * _BAYER + 1]])
# The text threshold: a stroke's pixels (where the page changes within a pixel or two) darker
# than TEXT are black. Above the middle gray: a 4.5-point stroke, 1.3 pixels wide at 204 dpi,
# is mostly soft edge, and dithering it broke a 6 into a 5 and an 8 into a 3 at 150 dpi (a
# schedule's cost cells, seed 8900101); a machine's text-and-photo mode thresholds type and
# dithers only the shading. A flat area (within FLAT gray levels of its 3 x 3 mean) is
# dithered, paper lighter than the top threshold LIGHT staying white: a table's light shading
# (gray 217-237) a few dots in a hundred, as a fax's halftone leaves it, where LIGHT 244 put
# enough dots behind a loss run's policy number (7-point type on a shaded cell, at standard
# resolution) to hide its digits.
TEXT, FLAT, LIGHT = 160, 10, 232


def _threshold(shape: tuple[int, int], ox: int, oy: int) -> Matrix:
    steps = (_BAYER.astype(np.float32) + 0.5) / 64.0
    cell = np.round(LIGHT * steps).astype(np.uint8)
    reps = (-(-(shape[0] + 8) // 8), -(-(shape[1] + 8) // 8))
    return np.tile(cell, reps)[oy : oy + shape[0], ox : ox + shape[1]]


def _bilevel(sent: Matrix, ox: int, oy: int) -> Matrix:
    """Black (True) where the fax prints a dot: a stroke by the text threshold, a flat gray by
    the ordered dither."""
    mean = images.pixels(Image.fromarray(sent).filter(ImageFilter.BoxBlur(1)))
    flat = np.abs(sent.astype(np.int16) - mean) <= FLAT
    dots: Matrix = np.where(flat, sent < _threshold(sent.shape, ox, oy), sent < TEXT)
    return dots


def transmit(
    pixels: Matrix,
    level: Level,
    rng: np.random.Generator,
    rows: int,
    spared: list[tuple[int, int]] | None = None,
) -> Matrix:
    """The page (gray, a row per pixel row at `level.dpi`, its noise and dust already on it) as
    the receiver stores it: the lines sent (`lines`), bilevel (`_bilevel`: type by a threshold,
    shading by an ordered dither), the line's faults (`Level.dropouts` bursts: a few lines
    garbled to noise, or lost and repeated from the line before, as a receiver's error
    concealment does), the thermal head's fade (`Level.fade`: solid ink mottled, more towards
    one side of the page), then each line repeated down its pixel rows. Returns 0/255
    pixels.

    A line fault never falls on the lines that carry a value (`spared`: pixel rows, top and
    bottom, of the page's value boxes): a burst across a value's glyph row takes away the top or
    the bottom of every glyph in it, which no person reads, and the pixel rule, comparing each
    cell of the row whole, would still call it legible. The bursts fall between values: over
    labels, rules and blank paper."""
    height, width = pixels.shape
    sent = lines(pixels, level.dpi, rows) if rows < level.dpi else pixels.copy()
    count = sent.shape[0]
    ox, oy = (int(v) for v in rng.integers(0, 8, 2))
    black = _bilevel(sent, ox, oy)
    carried = np.zeros(count + 1, dtype=bool)  # lines holding a value's rows
    for top, bottom in spared or ():
        carried[max(0, top * count // height) : min(count, -(-bottom * count // height)) + 1] = True
    # `free[i]`: lines i and the two after it hold no value, so a burst of up to 3 may start there
    after = np.append(carried, False)
    free = ~(carried[:-1] | after[1:-1] | after[2:])
    starts = np.flatnonzero(free[1 : max(1, count - 4)]) + 1
    for _ in range(level.dropouts):
        span = int(rng.integers(1, 4))
        if not starts.size:
            break
        first = int(starts[int(rng.integers(0, starts.size))])
        if rng.random() < 0.5:
            # Garbled: the run-length code lost its sync, the lines come out as streaks of noise.
            black[first : first + span] = rng.random((span, width)) < 0.12
        else:
            # Lost: the receiver repeats the last good line.
            black[first : first + span] = black[first - 1]
    if level.fade:
        # The print fades from one side of the page to the other: a black dot inside a run of
        # SOLID_RUN or more along its line (solid ink: a bold heading, a rule, a dark fill) is
        # dropped with a chance rising from 0 to `fade` across the page, so solids print
        # mottled and pale. Type is kept whole: a stroke of 4.5-point type is two or three dots
        # wide, and dropping dots in it turned a 6 into a 5 (seed 8900101's schedule); runs of
        # five faded the arms of a 6.4-point F past a person's reading (the person check on
        # seeds 9300101-9300105).
        side = int(rng.integers(0, 2))
        ramp = np.linspace(0.0, level.fade, width, dtype=np.float32)
        ramp = ramp if side == 0 else ramp[::-1]
        inside = black.copy()
        reach = SOLID_RUN // 2
        for step in range(1, reach + 1):
            inside[:, step:] &= black[:, :-step]
            inside[:, :-step] &= black[:, step:]
        inside[:, :reach] = inside[:, -reach:] = False
        black &= ~(inside & (rng.random((count, width), dtype=np.float32) < ramp[None, :]))
    out = np.where(black, np.uint8(0), np.uint8(255))
    return shown(out, height) if rows < level.dpi else out
