"""Is a drawn value still there on a scanned page? One rule, shared by the generator and the audit.

docs/patterns.md rule 3b: ink a careful person cannot read is not an answer. The generator knows
exactly what it drew and where a scan moved it, so a box on a scanned page is judged against
the same box drawn clean: the native page drawn by pdfium under the scan's exact transform, at
the scan's resolution, through the level's *global optics* (focus blur, motion blur, toner
spread: what a person still sees as the same glyphs, blurred) and its tone curve, with none of
its light, noise, dust, streaks, local damage or JPEG
(`generator.render.scan_degrade.optical_clean`, which `scan_page` uses when the generator judges
its pages and `scan.clean_page` when the audit rebuilds them). `pixel_verdict` compares the
two, glyph row by glyph row and, along each row, cell by cell (a cell is about two glyphs wide), by
normalised cross-correlation (NCC: Pearson's r of the pixels, blind to the scan's contrast and
paper):

- `intact`: every cell with ink correlates at least `INTACT` with its clean self: the value is
  there as drawn, and a reader who can read the clean value reads it.
- `damaged`: some cell correlates under `DAMAGED`: that part of the value is not there as drawn
  (painted over, blotted out, gone).
- `undecided`: in between; OCR settles it.

A cell that is flat on the scan (painted over, or blank) correlates 0. A box whose clean side
has no ink is `undecided`: there is nothing to compare.

The rule (`legible`): a box is legible when the level's optics are readable at its size AND
less than `MAX_OCCLUDED` of its ink lies under something opaque printed over the page (a fax
header's cells: `occlusion`, from the mask of what was printed, which the generator knows
exactly) AND its verdict is not `damaged`. The optics check is parametric, from what was done
to the box: the level's effective blur (`smear`: Gaussian radius plus half the motion length,
pixels) against the box's glyph height in pixels (its height in points x dpi / 72, measured on
the scanned quad so a reduced or turned page counts what its glyphs measure); beyond
`MAX_SMEAR` the value is illegible whatever the NCC. Undecided stays legible (truth keeps it;
the audit's OCR must read it): the damage past reading (`generator.render.damage.blot`) is made
so that a box is clearly destroyed (an opaque mottle: NCC near 0), not tuned against the
thresholds.

The numbers are fixed, not fitted per run, so a verdict is deterministic. INTACT = 0.60 lies
well under the worst cell of an undamaged box at any level, DAMAGED = 0.25 well above a box
painted over with paper, and MAX_SMEAR = 0.3 (a third of the glyph height covers the
x-height's counters and strokes alike) well past the smear of any level in use, so the
check guards a level that would reach it, not a preset (see
docs/measurements.md#the-legibility-rules-thresholds).
`benchmarks/legibility.py` prints the rule's agreement with OCR per level. `audit --ocr` reads
a seeded sample of scanned pages by OCR as well and refuses to pass when rule and OCR disagree
too often (`audit.pixels`), and reads every illegible box to show it unreadable.

This module imports neither half of the package: the generator (legibility of what it
damages) and the benchmark (the audit) call the same function.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

Pixels = np.ndarray[Any, Any]

INTACT_VERDICT = "intact"
DAMAGED_VERDICT = "damaged"
UNDECIDED_VERDICT = "undecided"

# Thresholds on the worst cell's NCC (see the module docstring for how they were chosen).
INTACT = 0.60
DAMAGED = 0.25
# The parametric check: a level whose effective blur (`smear`) exceeds this share of a box's
# glyph height in pixels has blurred the box to mush, whatever the NCC says.
MAX_SMEAR = 0.3
# The occlusion check: a box with this share of its ink under something opaque printed over
# the page (a fax header's cells) is past reading, whatever the NCC says. A cover cut straight
# across a glyph row leaves the rest of the row exactly as drawn, so the NCC falls only as the
# square root of what is left (a row cut through 60 % of its ink still correlated 0.5 with its
# clean self: undecided). Set with a margin toward legible: from half covered, OCR reads none
# of 3 characters or more (see docs/measurements.md#the-legibility-rules-margin); the generator
# lifts a fax header clear of every value (`faxheader.clear_lift`), so no value drawn is
# covered at all.
MAX_OCCLUDED = 0.5
# A value shorter than this (characters) is never declared illegible (`may_be_illegible`; a
# blot chooses values of this length or more): on one or two characters a blot or a blur
# leaves a stroke that OCR, and a reader, takes for "1", "I" or "l" and is right as often as
# not, so the rule's margin holds from this length on (see
# docs/measurements.md#the-legibility-rules-margin).
MIN_ILLEGIBLE_LENGTH = 3


def may_be_illegible(text: str) -> bool:
    """Whether the rule may declare a value drawn as `text` illegible: one shorter than
    MIN_ILLEGIBLE_LENGTH never is (a checkbox's "X" under a blurred patch is a mark a person
    sees, and its worst cell still falls under DAMAGED beside the sharp clean side); the
    generator calls it legible and the audit leaves its damage to OCR."""
    return len(text.strip()) >= MIN_ILLEGIBLE_LENGTH


# A cell is this many times its row's height wide (about two glyphs).
CELL = 2.0
# A pixel of the clean side is ink when it is darker than the paper by this share of the
# clean side's full contrast (paper to darkest ink).
INK_SHARE = 0.35
# A cell takes part when at least this many of its clean pixels are ink (a cell holding the
# tip of one glyph says little, and noise alone decides its NCC).
MIN_INK = 6
# Least height (pixels) of a run of inked rows to be a glyph row: a thinner run is a table rule
# caught in the box's margin (a fax breaks it into dots, which says nothing about the value)
# or the tip of a glyph. The smallest glyph rows drawn are 6 pixels and more (4.5-point boxes
# at 150 dpi); rules are 1-3.
MIN_ROW = 4
# Least contrast (gray levels, paper to darkest ink) for the clean side to hold any ink.
MIN_CONTRAST = 40


@dataclass(frozen=True)
class PixelVerdict:
    verdict: str  # INTACT_VERDICT, DAMAGED_VERDICT or UNDECIDED_VERDICT
    score: float  # the worst cell's NCC (1.0 when no cell has ink)
    cells: int  # cells with ink compared


def _ncc(a: Pixels, b: Pixels) -> float:
    """Pearson's r of two equal-shaped pixel blocks; 0 when either is flat."""
    x = a.astype(np.float64).ravel()
    y = b.astype(np.float64).ravel()
    # x.sum() / x.size is x.mean() bit for bit (numpy's mean is that sum over that count),
    # without the mean's own overhead: this runs once per cell of every box judged.
    x -= x.sum() / x.size
    y -= y.sum() / y.size
    den = math.sqrt(float((x * x).sum()) * float((y * y).sum()))
    return float((x * y).sum()) / den if den > 1e-9 else 0.0


def _bands(rows: Pixels) -> list[tuple[int, int]]:
    """Runs of consecutive True rows: (first, end)."""
    bands: list[tuple[int, int]] = []
    start = None
    for i, on in enumerate(rows.tolist()):
        if on and start is None:
            start = i
        elif not on and start is not None:
            bands.append((start, i))
            start = None
    if start is not None:
        bands.append((start, len(rows)))
    return bands


def _edges(left: int, right: int, count: int) -> list[int]:
    """`count` + 1 cell edges spread evenly from `left` to `right`, rounded half to even:
    `np.linspace(left, right, count + 1).round()` computed the same way (each edge
    left + i * step, the last exactly `right`), without numpy's overhead for a few numbers."""
    step = (right - left) / count
    return [round(left + i * step) for i in range(count)] + [right]


def quarter_turns(quad: list[float]) -> int:
    """How many quarter turns counter-clockwise (0-3) a box's text runs at, from its corners
    (lower-left, lower-right, ...: its lower edge's direction, to the nearest quarter): a page
    fed sideways turns its glyph rows into columns."""
    angle = math.degrees(math.atan2(quad[3] - quad[1], quad[2] - quad[0]))
    return round(angle / 90.0) % 4


def pixel_verdict(clean: Pixels, scanned: Pixels, turn: int = 0) -> PixelVerdict:
    """The verdict on one box: `clean` and `scanned` are the same region (gray, uint8, equal
    shape) of the clean page and of the scanned page; `turn`, the quarter turns its text runs
    at (`quarter_turns`): both are turned back first (exactly, a quarter turn moves pixels
    without resampling them), so its glyph rows are rows."""
    if clean.shape != scanned.shape:
        raise ValueError(f"clean {clean.shape} and scanned {scanned.shape} differ in shape")
    if turn % 4:
        clean, scanned = np.rot90(clean, -turn), np.rot90(scanned, -turn)
    if clean.size == 0:
        return PixelVerdict(UNDECIDED_VERDICT, 1.0, 0)
    paper, darkest = int(clean.max()), int(clean.min())
    if paper - darkest < MIN_CONTRAST:
        return PixelVerdict(UNDECIDED_VERDICT, 1.0, 0)
    ink = clean < paper - INK_SHARE * (paper - darkest)
    worst, cells = 1.0, 0
    for top, bottom in _bands(np.asarray(ink.any(axis=1))):
        if bottom - top < MIN_ROW:
            continue  # a rule crossing the box's margin, or a glyph's tip: not a glyph row
        # The row with a pixel of margin above and below: a glyph's edge softens outwards.
        top, bottom = max(top - 1, 0), min(bottom + 1, clean.shape[0])
        width = max(round((bottom - top) * CELL), 8)
        # Ink pixels before each column of the row (a cell's ink is a difference of two).
        columns = ink[top:bottom].sum(axis=0)
        before = [0, *itertools.accumulate(columns.tolist())]
        inked = np.flatnonzero(columns)  # the row holds ink: never empty
        left, right = int(inked[0]), int(inked[-1]) + 1
        for a, b in itertools.pairwise(_edges(left, right, max(1, round((right - left) / width)))):
            a, b = max(a - 1, 0), min(b + 1, clean.shape[1])
            if before[b] - before[a] < MIN_INK:
                continue
            cells += 1
            worst = min(worst, _ncc(clean[top:bottom, a:b], scanned[top:bottom, a:b]))
    if not cells:
        return PixelVerdict(UNDECIDED_VERDICT, 1.0, 0)
    if worst >= INTACT:
        verdict = INTACT_VERDICT
    elif worst < DAMAGED:
        verdict = DAMAGED_VERDICT
    else:
        verdict = UNDECIDED_VERDICT
    return PixelVerdict(verdict, round(worst, 4), cells)


def smear(blur: float, motion: int) -> float:
    """A level's effective blur in pixels: its Gaussian radius plus half its motion length (a
    stroke's edge spreads that far either way)."""
    return float(blur) + (motion / 2.0 if motion > 1 else 0.0)


def optics_readable(blur: float, motion: int, glyph_pixels: float) -> bool:
    """The parametric half of the rule: the level's effective blur (`smear`) is within
    `MAX_SMEAR` of the box's glyph height in pixels (its height in points x dpi / 72)."""
    if glyph_pixels <= 0:
        return False
    return smear(blur, motion) <= MAX_SMEAR * glyph_pixels


def occlusion(clean: Pixels, covered: Pixels) -> float:
    """The occlusion check's measure: the share of the box's ink (on the clean side,
    as `pixel_verdict` finds it) that lies under something opaque printed over the page;
    `covered` is the box's mask of such pixels (True: covered). 0 when the clean side has no ink."""
    if clean.shape != covered.shape:
        raise ValueError(f"clean {clean.shape} and covered {covered.shape} differ in shape")
    if clean.size == 0:
        return 0.0
    paper, darkest = int(clean.max()), int(clean.min())
    if paper - darkest < MIN_CONTRAST:
        return 0.0
    ink = clean < paper - INK_SHARE * (paper - darkest)
    total = int(ink.sum())
    return float((ink & covered).sum()) / total if total else 0.0


# Points around a value's quad that belong to its box (a glyph's soft edge).
BOX_MARGIN = 1.0
# A box whose line climbs or falls this many pixels or more from one end to the other (a
# crooked or reduced scan; a quarter turn aside) is cut along its own line and turned level
# (`cut`). Cut upright, its glyph rows would run across the rectangle's pixel rows and merge
# into one band as tall as the drift, whose cells hold a handful of glyphs each, so that
# damage to one glyph would barely move a cell. A box that drifts less (a short value, a
# straight scan) is cut upright: levelling it would resample it for nothing.
LEVEL_DRIFT = 2.0


@dataclass(frozen=True)
class Cut:
    """One box as the rule judges it: the same pixels of the clean and of the scanned page
    (and of the mask of what was printed over the scan), nothing outside the box's quad."""

    clean: Pixels
    scanned: Pixels
    covered: Pixels | None
    turn: int  # quarter turns its text still runs at (`pixel_verdict` turns them back)


def _median(pixels: Pixels) -> int:
    """`int(np.median(pixels))` of uint8 pixels, by counting them rather than sorting."""
    counts = np.bincount(pixels.ravel(), minlength=256).cumsum()
    total = int(counts[-1])
    low = int(np.searchsorted(counts, (total - 1) // 2, side="right"))
    high = int(np.searchsorted(counts, total // 2, side="right"))
    return int((low + high) / 2)


def residual_angle(quad: list[float]) -> float:
    """How far (degrees, signed) a box's text runs from its nearest quarter turn."""
    angle = math.degrees(math.atan2(quad[3] - quad[1], quad[2] - quad[0]))
    return angle - 90.0 * round(angle / 90.0)


def drift(quad: list[float], dpi: float) -> float:
    """How many pixels a box's line climbs or falls from one end to the other, a quarter turn
    aside (its lower edge's length times the sine of `residual_angle`)."""
    length = math.hypot(quad[2] - quad[0], quad[3] - quad[1]) * dpi / 72
    return length * abs(math.sin(math.radians(residual_angle(quad))))


def line_frame(
    quad: list[float], dpi: float, page_height: float, margin: float
) -> tuple[tuple[int, int], tuple[float, ...]] | None:
    """The level rectangle along a quad's line (corners lower-left, lower-right, upper-right,
    upper-left, PDF points), grown by `margin` points: its size in pixels and the affine map
    (Pillow's AFFINE data) from its pixels to the page image's; None when it is degenerate."""
    scale = dpi / 72
    corners = [
        (x * scale, (page_height - y) * scale) for x, y in zip(quad[0::2], quad[1::2], strict=True)
    ]
    (x0, y0), (x1, y1), _, (x3, y3) = corners
    length, tall = math.hypot(x1 - x0, y1 - y0), math.hypot(x3 - x0, y3 - y0)
    if length < 2 or tall < 2:
        return None
    grow = margin * scale
    ux, uy = (x1 - x0) / length, (y1 - y0) / length  # along the line
    vx, vy = (x0 - x3) / tall, (y0 - y3) / tall  # down the glyphs
    origin = (x3 - grow * ux - grow * vx, y3 - grow * uy - grow * vy)
    size = (round(length + 2 * grow), round(tall + 2 * grow))
    return size, (ux, vx, origin[0], uy, vy, origin[1])


def levelled(
    page: Pixels, size: tuple[int, int], data: tuple[float, ...], fill: int, nearest: bool
) -> Pixels:
    """The rectangle `size` of `page` that `data` maps out (`line_frame`), turned level: cut
    from the upright rectangle around it first, so only that part of the page is copied."""
    from PIL import Image

    ux, vx, ox, uy, vy, oy = data
    w, h = size
    xs = [ox, ox + ux * w, ox + vx * h, ox + ux * w + vx * h]
    ys = [oy, oy + uy * w, oy + vy * h, oy + uy * w + vy * h]
    left, top = max(math.floor(min(xs)) - 2, 0), max(math.floor(min(ys)) - 2, 0)
    right = min(math.ceil(max(xs)) + 2, page.shape[1])
    bottom = min(math.ceil(max(ys)) + 2, page.shape[0])
    if right - left < 1 or bottom - top < 1:
        return np.full((h, w), fill, dtype=page.dtype)
    part = np.ascontiguousarray(page[top:bottom, left:right])
    resample = Image.Resampling.NEAREST if nearest else Image.Resampling.BILINEAR
    moved = (ux, vx, ox - left, uy, vy, oy - top)
    image = Image.fromarray(part).transform(
        size, Image.Transform.AFFINE, moved, resample, fillcolor=fill
    )
    return np.asarray(image)


def cut(
    clean: Pixels,
    scanned: Pixels,
    quad: list[float],
    dpi: float,
    page_height: float,
    covered: Pixels | None = None,
    margin: float = BOX_MARGIN,
) -> Cut | None:
    """The box of `quad` (a value's corners in PDF points, [x, y, ...], or an upright
    [x0, y0, x1, y1]) cut out of the clean page, the scanned page and the mask of what was
    printed over it (gray uint8 images of one shape, drawn at `dpi`; `covered` bool or None),
    grown by `margin` points; None when it falls outside the image.

    The generator (judging what it drew) and the audit (judging it again) cut every box here,
    so both judge the very same pixels. Only the box's own quad takes part: around a turned
    box the upright rectangle is set to paper on both sides (a neighbour's glyphs, a table's
    rule or damage beside the value cannot vouch for it nor spoil it), and a box turned more
    that drifts LEVEL_DRIFT pixels or more off a quarter turn is cut along its line and turned
    level, both pages by one bilinear map."""
    from PIL import Image, ImageDraw

    frame = line_frame(quad, dpi, page_height, margin) if len(quad) == 8 else None
    if frame is not None and drift(quad, dpi) >= LEVEL_DRIFT:
        size, data = frame
        mask = (
            levelled(covered.astype(np.uint8), size, data, 0, True).astype(bool)
            if covered is not None
            else None
        )
        return Cut(
            levelled(clean, size, data, 255, False),
            levelled(scanned, size, data, 255, False),
            mask,
            0,
        )
    where = box_pixels(quad, dpi, page_height, clean.shape, margin)
    if where is None:
        return None
    left, top, right, bottom = where
    clean_box = clean[top:bottom, left:right]
    scanned_box = scanned[top:bottom, left:right]
    covered_box = covered[top:bottom, left:right] if covered is not None else None
    if len(quad) != 8:
        return Cut(clean_box, scanned_box, covered_box, 0)
    scale = dpi / 72
    xs, ys = quad[0::2], quad[1::2]
    cx, cy = sum(xs) / 4, sum(ys) / 4
    polygon = []
    for x, y in zip(xs, ys, strict=True):
        # Each corner moved `margin` * 1.414 points away from the centre.
        norm = max(math.hypot(x - cx, y - cy), 1e-9)
        grown_x = x + (x - cx) / norm * margin * 1.414
        grown_y = y + (y - cy) / norm * margin * 1.414
        polygon.append((grown_x * scale - left, (page_height - grown_y) * scale - top))
    drawn = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(drawn).polygon(polygon, fill=1)
    outside = np.frombuffer(drawn.tobytes(), dtype=np.uint8).reshape(clean_box.shape) == 0
    if outside.any():
        clean_box, scanned_box = clean_box.copy(), scanned_box.copy()
        clean_box[outside] = int(clean_box.max())
        scanned_box[outside] = _median(scanned_box)
        if covered_box is not None:
            covered_box = covered_box & ~outside
    return Cut(clean_box, scanned_box, covered_box, quarter_turns(quad))


def cut_verdict(box: Cut) -> PixelVerdict:
    """`pixel_verdict` on a box as `cut` cut it."""
    return pixel_verdict(box.clean, box.scanned, box.turn)


@dataclass(frozen=True)
class Legibility:
    legible: bool
    optics: bool  # the level's optics within MAX_SMEAR of the glyph height
    pixel: PixelVerdict
    occluded: float = 0.0  # the share of its ink under an opaque cover (`occlusion`)


def legible(
    clean: Pixels,
    scanned: Pixels,
    *,
    blur: float,
    motion: int,
    glyph_pixels: float,
    turn: int = 0,
    occluded: float = 0.0,
) -> Legibility:
    """The rule (docs/patterns.md rule 3b): a box is legible when the level's optics are within
    `MAX_SMEAR` of its glyph height, less than `MAX_OCCLUDED` of its ink is under an opaque
    cover (`occluded`, from `occlusion`), and `pixel_verdict` does not find it damaged. `clean`
    is the box on the level-aware clean side (`generator.render.scan_degrade.optical_clean`),
    `scanned` the same box of the scanned image, `turn` the quarter turns its text runs at
    (`pixel_verdict`)."""
    optics = optics_readable(blur, motion, glyph_pixels)
    pixel = pixel_verdict(clean, scanned, turn)
    readable = optics and occluded < MAX_OCCLUDED and pixel.verdict != DAMAGED_VERDICT
    return Legibility(readable, optics, pixel, round(occluded, 4))


def legible_cut(box: Cut | None, *, blur: float, motion: int, glyph_pixels: float) -> Legibility:
    """The rule on a box as `cut` cut it (None: outside the image, so not legible); its
    occlusion from the cut's mask of what was printed over the page."""
    if box is None:
        return Legibility(False, False, PixelVerdict(UNDECIDED_VERDICT, 1.0, 0))
    occluded = occlusion(box.clean, box.covered) if box.covered is not None else 0.0
    return legible(
        box.clean,
        box.scanned,
        blur=blur,
        motion=motion,
        glyph_pixels=glyph_pixels,
        turn=box.turn,
        occluded=occluded,
    )


def quad_height(quad: list[float]) -> float:
    """The height in points of a box given as its four corners (lower-left, lower-right,
    upper-right, upper-left, as `Transform.quad` writes them): the left edge's length, so a
    rotated or reduced box measures what its glyphs measure."""
    return float(np.hypot(quad[6] - quad[0], quad[7] - quad[1]))


def box_pixels(
    quad: list[float], dpi: float, page_height: float, shape: tuple[int, ...], margin: float = 1.0
) -> tuple[int, int, int, int] | None:
    """The pixel rectangle (left, top, right, bottom) holding `quad` (a box's corners in PDF
    points, [x, y, ...], or an upright [x0, y0, x1, y1]) on a page image of `shape` drawn at
    `dpi`, grown by `margin` points; None when it falls outside the image."""
    xs = quad[0::2]
    ys = quad[1::2]
    scale = dpi / 72.0
    left = int(np.floor((min(xs) - margin) * scale))
    right = int(np.ceil((max(xs) + margin) * scale))
    top = int(np.floor((page_height - max(ys) - margin) * scale))
    bottom = int(np.ceil((page_height - min(ys) + margin) * scale))
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, shape[1]), min(bottom, shape[0])
    if right - left < 2 or bottom - top < 2:
        return None
    return left, top, right, bottom
