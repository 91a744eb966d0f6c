"""Is a value legible at the resolution a model is sent? The legibility rule at a delivered
resolution.

A model never sees a page at the file's own resolution. `extract --input images` renders each
page at 150 dpi (or `--dpi`); a provider sent the PDF itself rasterises each page at a size of
its own, about 90 to 110 dpi for a letter page. A far phone photo stored at 260 dpi keeps
8-point type legible in the file, and the same type is a smear of a few pixels at 96 dpi. So
every located value on a PDF page carries, besides its file verdict (`legible`), the lowest
rung of a fixed ladder of resolutions at which it is still legible (`legible_from_dpi`), and
the scorer expects abstention from a run whose pages reached the model below it
(docs/resolution.md).

The rule at a rung `dpi` (`legible_from` finds the lowest rung it holds at): the value is
legible in the file, and on the page as a provider delivers it (the page image resized to `dpi`
with an area filter, `delivered`):

- its type stands at least `MIN_GLYPH` pixels tall: one line of its type (`glyph_pt`, the line's
  height in points on its page, so a photographed or reduced page counts what its glyphs
  measure there) times `dpi` / 72;
- the page's blur at that size (`packetbench.reading.legibility.smear`, carried to `dpi`, plus the
  resampling's own half pixel) is within `legibility.MAX_SMEAR` of that height, as at the
  file's resolution;
- on a scanned page, the pixel rule (`legibility.pixel_verdict`) on the box cut from both the clean
  and the scanned page so resized does not find it damaged.

A rung at or above the file's own resolution is the file's verdict: resizing up adds nothing.
A page drawn natively has no pixels of its own: its clean side is the page, so only the size and
blur half applies (and its file is drawn at any resolution: the ladder's top rung is the top).
A checkbox's tick is a mark, not type: it counts from the lowest rung where the file counts it.

`MIN_GLYPH` was set by reading, as a person, crops of values rendered as delivered (the
person check, `benchmarks/person_check.py --dpi`); the figures are in docs/measurements.md.
Below it OCR engines still read some values (a bright reader guesses short numbers from
blurs): such a value is scored as a guess apart, never as a hallucination, so a model that
reads one right is not penalised.

This module imports neither half of the package: the generator records the verdicts, the
audit recomputes them, the scorer reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from packetbench.reading import legibility

Pixels = np.ndarray[Any, Any]
# A location's legibility as its field truth records it: its file verdict (`legible`) and the
# lowest rung it is legible from (`legible_from_dpi`; None where it is not legible at all).
Verdict = tuple[bool, int | None]

# Delivered resolutions a page is judged at, dots per inch: 72 (a thumbnail, OpenAI's `low`
# detail is below it), 90 (OpenAI's `high` detail and Gemini's page tile, 768 pixels across
# a letter page's short side), 96 (a screen), 110 (Claude's resize of a letter page), 150
# (`extract --input images`), 200, 300 (the audit's OCR).
LADDER = (72, 90, 96, 110, 150, 200, 300)
# Least height (pixels) one line of type must stand on the delivered page to count as legible.
MIN_GLYPH = 7.0
# An area filter spreads a stroke's edge over about half an output pixel.
RESAMPLE_SPREAD = 0.5


def rungs(file_dpi: int | None) -> tuple[int, ...]:
    """The rungs a page is judged at, lowest first: every rung of LADDER below the file's own
    resolution, then that resolution (a page drawn natively, `file_dpi` None: the ladder)."""
    if file_dpi is None:
        return LADDER
    return (*(r for r in LADDER if r < file_dpi), file_dpi)


def glyph_pixels(glyph_pt: float, dpi: float) -> float:
    """How many pixels one line of type `glyph_pt` points tall stands at `dpi`."""
    return glyph_pt * dpi / 72.0


def size_readable(
    glyph_pt: float, dpi: float, file_dpi: int | None = None, blur: float = 0.0, motion: int = 0
) -> bool:
    """The size half of the rule at `dpi`: the line stands MIN_GLYPH pixels or more, and the
    page's blur (`blur`, `motion`: a scan level's, in pixels at `file_dpi`), carried to `dpi`
    with the resampling's own spread, is within `legibility.MAX_SMEAR` of that height."""
    tall = glyph_pixels(glyph_pt, dpi)
    if tall < MIN_GLYPH:
        return False
    smear = legibility.smear(blur, motion)
    if file_dpi is not None and dpi < file_dpi:
        smear = smear * dpi / file_dpi + RESAMPLE_SPREAD
    return smear <= legibility.MAX_SMEAR * tall


def delivered(image: Pixels, file_dpi: int, dpi: int) -> Pixels:
    """A page image drawn at `file_dpi` as a provider delivers it at `dpi`: resized with an area
    filter (each output pixel the mean of the pixels it covers), to the size a page of the same
    dimensions rendered at `dpi` has. Gray uint8 in and out; `image` itself when `dpi` is not
    below `file_dpi`."""
    if dpi >= file_dpi:
        return image
    from PIL import Image

    height, width = image.shape[:2]
    size = (max(1, round(width * dpi / file_dpi)), max(1, round(height * dpi / file_dpi)))
    picture = Image.fromarray(np.ascontiguousarray(image))
    return np.asarray(picture.resize(size, Image.Resampling.BOX), dtype=np.uint8)


class Ladder:
    """One scanned page's clean and scanned images, as delivered at any rung below its own
    resolution, a box at a time: each box is cut from the two pages resized to the rung over
    just the rectangle around it (`delivered_box`), which gives the pixels the whole page
    resized would hold there (an area filter is local) at a small part of the cost."""

    def __init__(self, clean: Pixels, scanned: Pixels, file_dpi: int) -> None:
        from PIL import Image

        self.file_dpi = file_dpi
        self.clean, self.scanned = clean, scanned
        self._images = (
            Image.fromarray(np.ascontiguousarray(clean)),
            Image.fromarray(np.ascontiguousarray(scanned)),
        )

    def size_at(self, dpi: int) -> tuple[int, int]:
        """(width, height) in pixels of the page delivered at `dpi` (`delivered`'s size)."""
        height, width = self.clean.shape[:2]
        return (
            max(1, round(width * dpi / self.file_dpi)),
            max(1, round(height * dpi / self.file_dpi)),
        )

    def delivered_box(
        self, dpi: int, quad: list[float], page_height: float
    ) -> tuple[Pixels, Pixels, list[float], float] | None:
        """The rectangle of the page delivered at `dpi` around `quad` (PDF points, as
        `legibility.cut` takes it, with room for its margin and its levelling), from the clean
        and the scanned page, with the quad and the page height moved to that rectangle's own
        points; None when the box lies outside the page."""
        import math

        from PIL import Image

        width, height = self.size_at(dpi)
        scale = dpi / 72
        xs = [x * scale for x in quad[0::2]]
        ys = [(page_height - y) * scale for y in quad[1::2]]
        reach = (legibility.BOX_MARGIN * 1.5) * scale + 4
        left = max(0, math.floor(min(xs) - reach))
        top = max(0, math.floor(min(ys) - reach))
        right = min(width, math.ceil(max(xs) + reach))
        bottom = min(height, math.ceil(max(ys) + reach))
        if right - left < 2 or bottom - top < 2:
            return None
        source_height, source_width = self.clean.shape[:2]
        sx, sy = source_width / width, source_height / height
        box = (left * sx, top * sy, right * sx, bottom * sy)
        size = (right - left, bottom - top)
        clean, scanned = (
            np.asarray(image.resize(size, Image.Resampling.BOX, box=box), dtype=np.uint8)
            for image in self._images
        )
        # The rectangle's own points: x from its left edge, y from its bottom edge.
        moved = [
            value - (left / scale if i % 2 == 0 else page_height - bottom / scale)
            for i, value in enumerate(quad)
        ]
        return clean, scanned, moved, size[1] / scale


def pixels_intact(ladder: Ladder, quad: list[float], page_height: float, dpi: int) -> bool:
    """The pixel half of the rule at `dpi`: the box cut from the clean and the scanned page as
    delivered (`Ladder.delivered_box`, then `legibility.cut`) is not judged damaged. A box
    outside the image is not."""
    if dpi >= ladder.file_dpi:
        clean, scanned, moved, height = ladder.clean, ladder.scanned, quad, page_height
        dpi = ladder.file_dpi
    else:
        found = ladder.delivered_box(dpi, quad, page_height)
        if found is None:
            return False
        clean, scanned, moved, height = found
    box = legibility.cut(clean, scanned, moved, dpi, height)
    if box is None:
        return False
    return legibility.cut_verdict(box).verdict != legibility.DAMAGED_VERDICT


def legible_from(
    glyph_pt: float | None,
    *,
    file_dpi: int | None = None,
    blur: float = 0.0,
    motion: int = 0,
    ladder: Ladder | None = None,
    quad: list[float] | None = None,
    page_height: float = 0.0,
) -> int:
    """The lowest rung at which a value legible in the file is legible (`legible_at`): the
    rungs are tried from the lowest the size half allows upward, each judged by pixels when
    the page has them (`ladder`, with the box's `quad` on a page `page_height` points tall),
    the file's own rung taking the file's verdict. `glyph_pt` None: a mark, not type (a
    checkbox's tick), legible from the lowest rung."""
    steps = rungs(file_dpi)
    for dpi in steps:
        if dpi == file_dpi:
            return dpi
        if glyph_pt is not None and not size_readable(glyph_pt, dpi, file_dpi, blur, motion):
            continue
        if ladder is None or quad is None or pixels_intact(ladder, quad, page_height, dpi):
            return dpi
    return steps[-1]


def legible_at(location: Mapping[str, Any], dpi: int | None, text: bool = False) -> bool:
    """Whether a located value is legible to a reader sent its page at `dpi` (None: the file
    as it is), from its location as the field truth records it. `text`: the page's text layer
    is sent as text too (`extract --input native` to a provider that extracts it, `--input
    text`), so a value the text layer carries is read from it whatever the resolution. A
    location without `legible_from_dpi` (a workbook cell, a packet made before it was
    recorded) is judged by its file verdict."""
    if location.get("legible") is False:
        return False
    if dpi is None or "page" not in location:
        return True
    if text and location.get("text_layer") is True:
        return True
    if "legible_from_dpi" not in location:
        return True
    rung = location["legible_from_dpi"]
    return isinstance(rung, int) and rung <= dpi
