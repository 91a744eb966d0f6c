"""Pages as a scanner, a fax machine or a phone camera would return them.

A scanned page is the finished native page drawn by pdfium at the scan's resolution straight
onto the moved page (an exact transform: rotation, scale, shift; a photo's perspective after
drawing) and then degraded (noise, dust, dark edges, shadow, uneven light, streaks,
binarization, JPEG artifacts). Softness is the resolution's: a lower resolution is a blurrier
scan once the viewer enlarges it.
The page becomes that one image: no text layer. Because the transform is known exactly, every
located value's box is carried to the scanned page (`Transform.box`, `Transform.quad`), and the
audit reads it there by OCR.

Every random choice comes from the document's seed (numpy's PCG64 for pixel noise, whose
stream is fixed for a pinned numpy), and pdfium, Pillow and numpy are pinned exactly, so a
scanned page is byte-identical across runs and processes.
"""

from __future__ import annotations

import ctypes
import io
import math
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageDraw

from packetbench.core import images
from packetbench.generator.render import damage, faxheader, projective

Matrix = np.ndarray[Any, Any]


# The capture modes: the ways a page reaches the underwriter as an image, the tier's vocabulary
# (docs/tiers.md). Every level belongs to exactly one (`Level.mode`); a page drawn natively is
# "native". The manifest names a scanned page's mode (`capture_mode`), and the difficulty card
# slices its readings by mode.
MODES: dict[str, str] = {
    "office_scan": "a flatbed or feeder scan, straight or nearly, with the scanner's own faults",
    "misfed": "fed crooked, skewed or turned by a document feeder",
    "fax": "a fax: bilevel at fax resolution, streaks, the sending machine's header",
    "photocopy": "a copy of a copy, reduced or two to a sheet, then scanned",
    "low_res_scan": "stored at 120-150 dpi with heavy JPEG",
    "phone_near": "a phone photo of the page filling the frame: tilt, uneven light",
    "phone_far": "a phone photo from further back: the page half the frame, tilted, turned",
    "distorted_paper": "the paper itself marked: folded, stained, punched",
}
NATIVE = "native"  # the capture mode of a page drawn natively (text layer kept)


@dataclass(frozen=True)
class Level:
    """How hard one kind of scan is: geometry ranges and degradation strengths."""

    name: str
    dpi: int
    mode: str  # the capture mode the level belongs to (a key of MODES)
    angle: float  # largest rotation, degrees (either direction)
    min_angle: float = 0.0  # smallest rotation (a skewed scan is never straight)
    scale: tuple[float, float] = (1.0, 1.0)
    shift: float = 0.0  # largest shift, points
    perspective: float = 0.0  # largest corner displacement, share of the page's size
    # A camera tilted toward one side of the page (a phone photo): that side's two corners
    # drawn together, each by a share of the side's length in this range (0, 0: none).
    keystone: tuple[float, float] = (0.0, 0.0)
    noise: float = 0.0  # standard deviation of pixel noise, gray levels
    edges: float = 0.0  # darkening of the page's borders (0-1)
    shadow: float = 0.0  # a dark band along one side (0-1)
    light: float = 0.0  # uneven light across the page (0-1)
    speckle: float = 0.0  # share of pixels turned into dust
    lines: int = 0  # streaks along the paper path
    binarize: bool = False  # fax: black and white only
    quality: int = 80  # JPEG quality (ignored for binarized pages, kept lossless)
    paper: int = 255  # gray of the paper
    background: int | None = None  # what shows around a moved page (None: the paper)
    whiten: float = 14.0  # the scanner's background removal: this close to the paper is paper
    ink: float = 1.0  # contrast of the ink (1: as printed)
    # The harder levels' damage (every default leaves a level as it was: no extra random draw).
    blur: float = 0.0  # Gaussian blur radius, pixels (out of focus)
    motion: int = 0  # length of a motion blur along the paper path (across the page), pixels
    thicken: int = 0  # toner spread: strokes grown by one pixel this many times (counters fill)
    turns: tuple[int, ...] = ()  # quarter turns a page may be fed at (degrees: 90, 180, 270)
    damage: tuple[str, ...] = ()  # local damage: keys of `damage.DAMAGE`, applied in order
    header: bool = False  # a fax: the sending machine's header line over the page's top
    # Pages printed on one sheet before the scan (2: two consecutive pages side by side,
    # `generator.render.twoup`); the scanned file then has one page per sheet.
    up: int = 1
    # Rows and columns of tiles a perspective is drawn in (`_tile_matrices`; None: `TILES`).
    tiles: tuple[int, int] | None = None
    # A phone's camera: the uneven light with the phone's shadow over a corner
    # (`damage.phone_shadow`) drawn as one smooth field (`_camera_light`).
    camera: bool = False


LEVELS: dict[str, Level] = {
    "clean": Level(
        "clean", 200, mode="office_scan", angle=0.3, shift=2.0, noise=3.0, quality=75, paper=250
    ),
    "moderate": Level(
        "moderate",
        170,
        mode="office_scan",
        angle=1.5,
        scale=(0.98, 1.0),
        shift=6.0,
        noise=7.0,
        edges=0.35,
        speckle=0.0004,
        quality=60,
        paper=244,
        ink=0.92,
    ),
    "skewed": Level(
        "skewed",
        180,
        mode="misfed",
        angle=4.0,
        min_angle=2.0,
        scale=(0.96, 0.99),
        shift=8.0,
        noise=6.0,
        edges=0.25,
        shadow=0.45,
        quality=60,
        paper=242,
    ),
    "fax": Level(
        "fax",
        200,
        mode="fax",
        angle=0.8,
        shift=4.0,
        noise=18.0,
        speckle=0.0008,
        lines=3,
        binarize=True,
        paper=255,
        header=True,
    ),
    "degraded": Level(
        "degraded",
        150,
        mode="low_res_scan",
        angle=2.0,
        scale=(0.97, 1.0),
        shift=6.0,
        noise=10.0,
        edges=0.35,
        speckle=0.0008,
        quality=25,
        paper=238,
        ink=0.85,
    ),
    "photo": Level(
        "photo",
        200,
        mode="phone_near",
        angle=2.0,
        scale=(0.95, 0.98),
        shift=6.0,
        perspective=0.02,
        noise=4.0,
        light=0.25,
        quality=60,
        paper=236,
        ink=0.95,
        background=72,
        whiten=0.0,
    ),
}

# The harder levels: damage up to the edge of legibility (every value stays legible to a person).
# Out of the tier presets' draw: forced with --set patterns.scan.<level>=1.
_BASE: dict[str, Any] = {"dpi": 200, "angle": 0.8, "shift": 4.0, "noise": 4.0, "paper": 246}
NEW_LEVELS: dict[str, Level] = {
    "blurred": Level("blurred", mode="office_scan", **_BASE, blur=1.4, quality=70),
    "motion_blur": Level("motion_blur", mode="office_scan", **_BASE, motion=4, quality=70),
    # JPEG at quality 14: blocky, the type's edges ringing. At quality 8 the audit's OCR read
    # 90.8 % of the values of two N4 packets' dense schedules so scanned (their 5-point type);
    # at 12, 96.1 %; at 16, 97.7 % (9,977 values, --ocr-mode full).
    "jpeg_blocks": Level(
        "jpeg_blocks",
        150,
        mode="low_res_scan",
        angle=0.8,
        shift=4.0,
        noise=4.0,
        quality=14,
        paper=244,
    ),
    "photocopy_2nd": Level(
        "photocopy_2nd",
        170,
        mode="photocopy",
        angle=1.0,
        shift=5.0,
        noise=6.0,
        edges=0.3,
        speckle=0.002,
        quality=60,
        paper=232,
        whiten=8.0,
        blur=0.6,
    ),
    "photocopy_3rd": Level(
        "photocopy_3rd",
        150,
        mode="photocopy",
        angle=1.5,
        shift=6.0,
        noise=8.0,
        edges=0.45,
        speckle=0.004,
        lines=2,
        quality=50,
        paper=222,
        whiten=6.0,
        ink=0.8,
        blur=0.8,
    ),
    "blurred_patch": Level(
        "blurred_patch", mode="office_scan", **_BASE, quality=70, damage=("patch",)
    ),
    "roller_bar": Level("roller_bar", mode="office_scan", **_BASE, quality=70, damage=("roller",)),
    "crease": Level("crease", mode="distorted_paper", **_BASE, quality=70, damage=("crease",)),
    "coffee_ring": Level(
        "coffee_ring", mode="distorted_paper", **_BASE, quality=70, damage=("coffee",)
    ),
    "punch_holes": Level(
        "punch_holes", mode="distorted_paper", **_BASE, quality=70, damage=("punch",)
    ),
    # Fed sideways (a quarter turn either way) or, twice as often, upside down (a stack fed
    # the wrong way up): Tesseract finds sideways lines of text on its own, never upside-down
    # ones.
    "rotated": Level(
        "rotated", mode="misfed", **_BASE, quality=70, turns=(90, 180, 180, 180, 180, 270)
    ),
    # A reduced copy (a copier's "fit to page", then the copy laid crooked on the glass, half
    # the time the wrong way up): 60-70 %, turned 2.5 to 5 degrees, scanned at 240 dpi.
    # Tesseract on the whole page read 20.5 % of an N3 packet's values so copied, the audit's
    # OCR (the page turned back) 99.1 % (benchmarks/scan.py --levels reduced).
    "reduced": Level(
        "reduced",
        mode="photocopy",
        **{**_BASE, "dpi": 240, "angle": 5.0},
        min_angle=2.5,
        scale=(0.6, 0.7),
        quality=70,
        background=200,
        turns=(0, 180),
    ),
    # A sheet fed crooked through a document feeder: turned 4.5 to 8 degrees (shrunk so its
    # corners stay on the sheet), a shadow along the side that lifted. A person turns the page
    # in their head; Tesseract without deskewing read 36 % of an N3 packet's values so turned.
    "crooked": Level(
        "crooked",
        180,
        mode="misfed",
        angle=8.0,
        min_angle=4.5,
        scale=(0.9, 0.94),
        shift=8.0,
        noise=6.0,
        edges=0.3,
        shadow=0.35,
        quality=60,
        paper=242,
    ),
    # Two consecutive pages reduced side by side on one landscape sheet (a copier's "2 in 1"),
    # scanned at 300 dpi, JPEG quality 85 (`generator.render.twoup`): a page of the file holds
    # two of the document's pages, so every page number moves (`Presentation.sheets`). At 240
    # dpi and quality 70 the audit's OCR read 86 % of an N4 packet's dense vehicle and driver
    # schedules (their 5-point type is 3 points on the sheet); at 300 dpi 90 %, with
    # quality 85 93 %.
    "two_up": Level(
        "two_up",
        300,
        mode="photocopy",
        angle=0.8,
        shift=4.0,
        noise=4.0,
        quality=85,
        paper=246,
        up=2,
    ),
    # A scanner's or a fax's draft mode: the page stored at 120 dpi (zooming in shows bigger
    # pixels, nothing more), slightly soft, JPEG quality 60, skewed 0.3 to 1.2 degrees. At
    # 100 dpi (blur 0.45, quality 50) the audit's OCR read 93.6 % of an N3 packet's 1,176
    # values and disagreed with the pixel rule on 29 % of its calibration boxes; unblurred at
    # quality 65, 100 dpi still left 9.7 % of an N4 packet's 694 boxes unread (5 % is the
    # most the audit accepts), 110 dpi 1.9 %, 120 dpi 0.1 % (seeds 910001-910003). At 110
    # dpi a 6-point "rn" ran together into "m" ("Food-bome"): a person reads the word, not
    # the glyphs, and a name would be ambiguous; at 120 dpi the two letters stand apart.
    "low_res": Level(
        "low_res",
        120,
        mode="low_res_scan",
        angle=1.2,
        min_angle=0.3,
        scale=(0.98, 1.0),
        shift=5.0,
        noise=5.0,
        edges=0.2,
        quality=60,
        paper=240,
        ink=0.95,
        blur=0.3,
    ),
    # A phone photo of the page on a table: the camera well off square, so one side of the
    # page is 8-13 % shorter than the one across (its corners drawn together 4-6.5 % of its
    # length each; `photo` leaves opposite sides within 4 % of each other), every corner
    # pulled in up to 3 % more, turned up to 3 degrees, the table top around the page,
    # uneven light and the phone's shadow over a corner, stored at 160 dpi, JPEG quality 70
    # (the page itself, shrunk by the tilt, is 130-150 dpi). At 140 dpi (blur 0.5, quality
    # 55) the audit's OCR left 9.5 % of an N4 packet's 694 calibration boxes unread (5 % is
    # the most it accepts); at 150 dpi, blur 0.3, 1.6 % (seeds 910001-910003), but every box
    # of two N4 packets' vehicle and driver schedules read whole (--ocr-mode full) 95.2 %
    # inside their boxes (a 5-point VIN on the far side of the tilt), at 165 dpi 98.0 %. At
    # quality 60 with noise 6 a 6-point "6" under the shadow closed into a "0"; quality 70
    # and noise 4 keep it open. The perspective is drawn in 32 x 16 tiles (a photo's:
    # 12 x 6), so no pixel strays more than 0.15 px from the page's homography; the light
    # and the phone's shadow are one smooth field (`Level.camera`).
    "phone_photo": Level(
        "phone_photo",
        160,
        mode="phone_near",
        angle=3.0,
        scale=(0.9, 0.95),
        shift=8.0,
        perspective=0.03,
        keystone=(0.04, 0.065),
        noise=4.0,
        light=0.5,
        quality=70,
        paper=232,
        ink=0.92,
        background=84,
        whiten=0.0,
        blur=0.3,
        camera=True,
        tiles=(32, 16),
    ),
}
# The same photo taken from further back: the page 55-65 % of the frame (half the time the
# wrong way up), the phone well off square (one side 14-20 % shorter than the one across) and
# turned 2-6 degrees, on a table in uneven light. What costs each careful reader at once
# (small type, PP-OCR at 150 dpi; a tilt no single deskew undoes, Tesseract), stored at 260
# dpi so that 8-point type, about 4.5 points in the photo, stays legible to a person and to
# the audit. On development N3 packets (`benchmarks/scan.py`; careful Tesseract / PP-OCR /
# the audit in box, seed 1010001): the first far_photo (220 dpi, one side 8-13 % shorter,
# turned up to 3 degrees) read 70.6 / 66.2 / 99.2 %; the page at 50-60 % of the frame at 240
# dpi 66.0 / 59.6 / 97.8 %; with the stronger tilt 56.5 / 54.5 / 96.1 %; turned 2-6 degrees
# too 38.9 / 49.1 / 95.5 % (the audit near its minimum); at 260 dpi 50.3 / 50.9 / 97.1 %,
# and at 55-65 % of the frame 55.3 / 63.3 / 98.6 % (seed 1010002: 42.2 / 66.7 / 98.4 %). At
# 52-62 % a development N5 packet's calibration (N5-870003) found 21 of 213 boxes unread, a
# schedule's 5-point names on the far side of the tilt: hence 55-65 %, and the audit cuts a
# slanted box along its own line (`reading.boxes.levelled`). No focus blur (a phone's 0.3 pixel
# cost more time than anything else in the photo and changed no reading); a phone photo's
# 32 x 16 tiles (within 0.8 px of the homography at this tilt) and its light.
NEW_LEVELS["far_photo"] = replace(
    NEW_LEVELS["phone_photo"],
    name="far_photo",
    dpi=260,
    mode="phone_far",
    angle=6.0,
    min_angle=2.0,
    scale=(0.55, 0.65),
    keystone=(0.07, 0.1),
    quality=75,
    blur=0.0,
    turns=(0, 180),
)
LEVELS.update(NEW_LEVELS)


@dataclass(frozen=True)
class Transform:
    """The exact map from a native page's points to the scanned page's points."""

    matrix: Matrix  # 3x3 homography on PDF points (origin bottom-left)

    @cached_property
    def rows(self) -> projective.Mat3:
        """The matrix as plain floats, for arithmetic that is the same on every machine (made
        once: every located value of a scanned page is moved through it)."""
        return projective.mat3(self.matrix.tolist())

    def points(self, xy: list[tuple[float, float]]) -> list[tuple[float, float]]:
        rows = self.rows
        return [projective.apply(rows, x, y) for x, y in xy]

    def quad(self, bbox: list[float]) -> list[float]:
        """The box's corners on the scanned page: lower-left, lower-right, upper-right,
        upper-left of the native box, as [x, y, x, y, ...] in points."""
        x0, y0, x1, y1 = bbox
        corners = self.points([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        return [round(v, 2) for corner in corners for v in corner]


@dataclass(frozen=True)
class ScannedPage:
    image: bytes  # JPEG, or PNG for a binarized page (empty: `scan_page`'s `png`)
    jpeg: bool
    transform: Transform
    details: dict[str, Any]
    # The page as the legibility rule compares it: the level-aware clean side (`optical_clean`)
    # and the scanned image as decoded from `image` (gray, a row per pixel row).
    clean: Matrix | None = None
    pixels: Matrix | None = None
    # Pixels under something opaque printed over the page (a fax header's cells), when judged:
    # the legibility rule's occlusion (`packetbench.legibility.occlusion`).
    covered: Matrix | None = None


def _rotation_about(
    cx: float, cy: float, degrees: float, scale: float, dx: float, dy: float
) -> Matrix:
    radians = math.radians(degrees)
    cos, sin = math.cos(radians) * scale, math.sin(radians) * scale
    return np.array(
        [
            [cos, -sin, cx - cos * cx + sin * cy + dx],
            [sin, cos, cy - sin * cx - cos * cy + dy],
            [0.0, 0.0, 1.0],
        ]
    )


def _homography(source: list[tuple[float, float]], target: list[tuple[float, float]]) -> Matrix:
    """The projective map taking four points onto four others (solved in plain floats:
    `projective`)."""
    return np.array(projective.homography(source, target), dtype=np.float64)


def geometry(
    level: Level, rng: np.random.Generator, width: float, height: float
) -> tuple[Transform, dict[str, Any]]:
    """Draw the page's movement: a rotation (at least `min_angle` when given), a scale and a
    shift about the centre, and for a photo a perspective (each corner moved inward)."""
    magnitude = level.min_angle + (level.angle - level.min_angle) * float(rng.random())
    angle = magnitude if rng.random() < 0.5 else -magnitude
    scale = float(rng.uniform(*level.scale))
    dx, dy = (float(v) for v in rng.uniform(-level.shift, level.shift, 2))
    if level.turns:
        # Fed turned: a quarter turn shrinks the page to fit the sheet it lands on.
        turn = int(level.turns[int(rng.integers(0, len(level.turns)))])
        if turn % 180:
            scale *= min(width / height, height / width)
        angle += turn
    matrix = _rotation_about(width / 2, height / 2, angle, scale, dx, dy)
    details: dict[str, Any] = {
        "angle": round(angle, 3),
        "scale": round(scale, 4),
        "shift": [round(dx, 2), round(dy, 2)],
    }
    if level.perspective:
        corners = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
        moved = Transform(matrix).points(corners)
        inward = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
        jitter = rng.uniform(0.0, level.perspective, (4, 2))
        target = [
            (x + sx * float(j[0]) * width, y + sy * float(j[1]) * height)
            for (x, y), (sx, sy), j in zip(moved, inward, jitter, strict=True)
        ]
        if level.keystone[1]:
            # The side nearer the camera's tilt shorter than the one across: its corners
            # (lower-left/lower-right, lower-right/upper-right, ...) drawn toward each other.
            side = int(rng.integers(0, 4))
            pull = float(rng.uniform(*level.keystone))
            a, b = side, (side + 1) % 4
            (ax, ay), (bx, by) = target[a], target[b]
            target[a] = (ax + pull * (bx - ax), ay + pull * (by - ay))
            target[b] = (bx + pull * (ax - bx), by + pull * (ay - by))
            details["keystone"] = {"side": side, "pull": round(pull, 4)}
        matrix = _homography(corners, target)
        details["corners"] = [[round(x, 1), round(y, 1)] for x, y in target]
    return Transform(matrix), details


def _to_pixels(scale: float, height: float) -> Matrix:
    """PDF points (origin bottom-left) -> device pixels (origin top-left) at `scale`."""
    return np.array([[scale, 0, 0], [0, -scale, height * scale], [0, 0, 1]])


TILES = (12, 6)  # rows, columns of a photo's piecewise-affine drawing (see `_tile_matrices`)


def _tile_matrices(
    homography: Matrix | projective.Mat3,
    size: tuple[int, int],
    grid: tuple[int, int] = TILES,
    within: tuple[float, float, float, float] | None = None,
) -> list[tuple[tuple[int, int, int, int], Matrix]]:
    """A perspective drawn by pdfium, which only draws affine maps: the output is cut into
    TILES, and each tile is drawn with the affine map closest (least squares over a 4x4 grid
    of the tile's points) to the homography there. On a photo's perspective (corners moved
    up to 2 % of the page) no pixel lands more than 0.3 px from where the homography puts it
    (tests/generator/patterns/test_scan.py), so the stored `Transform` stays the page's map;
    a warp of the whole image afterwards would cost twice the drawing. A stronger perspective
    needs smaller tiles (`grid`, a level's `Level.tiles`): the error grows with the square of
    a tile's size.

    Returns each tile's pixel rectangle (left, top, right, bottom) and its 3x3 map from
    unmoved pixels to moved pixels; with `within` (left, top, right, bottom), only the tiles
    that reach into it. In plain floats (`projective`), so the maps pdfium draws
    with are the same bits on every machine."""
    rows, cols = grid
    h = projective.mat3(np.asarray(homography, dtype=np.float64).tolist())
    (a, b, c0), (d, e, f), (g, k, m) = projective.inverse(h)
    xs = [float(v) for v in np.linspace(0, size[0], cols + 1).round()]
    ys = [float(v) for v in np.linspace(0, size[1], rows + 1).round()]
    t = [i / 3 for i in range(4)]
    tiles = []
    for r in range(rows):
        for c in range(cols):
            if within is not None and not (
                xs[c + 1] > within[0]
                and xs[c] < within[2]
                and ys[r + 1] > within[1]
                and ys[r] < within[3]
            ):
                continue
            # The tile's 16 points in moved pixels, and where the homography takes them from.
            moved = [
                (xs[c] + (xs[c + 1] - xs[c]) * tx, ys[r] + (ys[r + 1] - ys[r]) * ty)
                for ty in t
                for tx in t
            ]
            # `projective.apply` of the inverse, written out (the same operations, in order).
            source = []
            for x, y in moved:
                w = g * x + k * y + m
                source.append(((a * x + b * y + c0) / w, (d * x + e * y + f) / w))
            fit = projective.affine_fit(source, moved)
            tiles.append(
                (
                    (int(xs[c]), int(ys[r]), int(xs[c + 1]), int(ys[r + 1])),
                    np.array(fit, dtype=np.float64),
                )
            )
    return tiles


def _render(
    page: Any,
    transform: Transform,
    dpi: float,
    size: tuple[int, int],
    background: int,
    surround: int | None = None,
    tiles: tuple[int, int] | None = None,
) -> Matrix:
    """The page drawn by pdfium straight onto the moved page: an affine transform in one
    call, a perspective tile by tile (`_tile_matrices`, in `tiles` rows and columns: None,
    `TILES`).

    pdfium draws the page's content only, never its paper: the bitmap is paper
    (`background`) first. When something else shows around the page (`surround`, a
    photo's table top), the page's own area is paper and only the rest is `surround`.
    Returns the page's gray pixels (rows of `size[0]`), writable: the bitmap's memory is
    the array's (no copy)."""
    width, height = (float(v) for v in page.get_size())
    scale = dpi / 72.0
    to_pixels = projective.mat3(_to_pixels(scale, height).tolist())
    # pdfium's matrix acts on the page already turned top-down (points, origin top-left):
    # back to PDF space, then to unmoved pixels; the move is applied in pixels. (Plain
    # floats: see `projective`.)
    unmoved = projective.multiply(
        to_pixels, ((1.0, 0.0, 0.0), (0.0, -1.0, height), (0.0, 0.0, 1.0))
    )
    moved = projective.multiply(to_pixels, transform.rows, projective.inverse(to_pixels))
    count = size[0] * size[1]
    if surround is None:
        pixels = np.full((size[1], size[0]), background, dtype=np.uint8)
    else:
        # The moved page's corners in pixels: paper inside, the surround outside.
        placed = projective.multiply(moved, to_pixels)
        corners = ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))
        canvas = Image.new("L", size, surround)
        ImageDraw.Draw(canvas).polygon(
            [projective.apply(placed, x, y) for x, y in corners], fill=background
        )
        pixels = images.pixels(canvas)  # drawn on in place: the canvas is not used again
    buffer = (ctypes.c_ubyte * count).from_address(pixels.ctypes.data)
    bitmap = pdfium.PdfBitmap.new_native(
        size[0], size[1], pdfium.raw.FPDFBitmap_Gray, buffer=buffer
    )
    affine = bool(np.allclose(moved[2], [0.0, 0.0, 1.0]))
    if affine:
        pieces = [((0, 0, size[0], size[1]), moved)]
    else:
        # A tile wholly outside the moved page would draw nothing: only the others are drawn
        # (a photo from further back leaves most of its tiles on the table).
        placed = projective.multiply(moved, to_pixels)
        outline = [
            projective.apply(placed, x, y)
            for x, y in ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))
        ]
        xs, ys = [x for x, _ in outline], [y for _, y in outline]
        reach = (min(xs) - 2.0, min(ys) - 2.0, max(xs) + 2.0, max(ys) + 2.0)
        pieces = [
            (rect, projective.mat3(tile.tolist()))
            for rect, tile in _tile_matrices(moved, size, tiles or TILES, reach)
        ]
    for (left, top, right, bottom), piece in pieces:
        device = projective.multiply(piece, unmoved)
        fs = pdfium.raw.FS_MATRIX(
            device[0][0], device[1][0], device[0][1], device[1][1], device[0][2], device[1][2]
        )
        clip = pdfium.raw.FS_RECTF(float(left), float(top), float(right), float(bottom))
        pdfium.raw.FPDF_RenderPageBitmapWithMatrix(
            bitmap, page, fs, clip, pdfium.raw.FPDF_GRAYSCALE
        )
    bitmap.close()  # the handle only: the array keeps the buffer
    return pixels


def _profile(n: int, strength: float, reach: float) -> Matrix:
    """1 in the middle, falling towards both ends over `reach` of the length."""
    t = np.linspace(0.0, 1.0, n, dtype=np.float32)
    edge = np.minimum(t, 1.0 - t) / max(reach, 1e-6)
    return np.asarray(1.0 - strength * np.clip(1.0 - edge, 0.0, 1.0) ** 2, dtype=np.float32)


Box = tuple[int, int, int, int]  # left, top, right, bottom, pixels
# Where the light falls short, as multipliers: light + 1 (uint16, 1..256), so that a pixel
# times it, shifted right by 8, is the pixel lit (256: full light, the pixel unchanged).
Shading = list[tuple[Box, Matrix]]


def _multiplier(light: Matrix) -> Matrix:
    return light.astype(np.uint16) + 1


@lru_cache(maxsize=64)
def _edges(size: tuple[int, int], strength: float, side: int, shadow: float) -> Shading:
    """Dark edges and a shadow along one side (0-3), the same for every page of one size and
    level, so made once. Only the frame they darken is kept (four strips around the largest
    rectangle they leave at full light): multiplying by full light changes nothing, and the
    page's middle is most of it."""
    cols, rows = size
    light = (
        _profile(rows, strength, 0.04)[:, None] * _profile(cols, strength, 0.04)[None, :]
        if strength
        else np.ones((rows, cols), dtype=np.float32)
    )
    if shadow:
        n = rows if side < 2 else cols
        t = np.linspace(0.0, 1.0, n, dtype=np.float32)
        band = 1.0 - shadow * np.clip(1.0 - t / 0.12, 0.0, 1.0) ** 2
        band = band if side % 2 == 0 else band[::-1]
        light = light * (band[:, None] if side < 2 else band[None, :])
    full = (light * 255.0).astype(np.uint8)
    lit = full == 255
    # The profiles are separable and fall monotonically towards the borders, so the lit
    # middle is the rectangle of lit rows through the middle column and lit columns through
    # the middle row (checked, not assumed).
    lit_rows = np.flatnonzero(lit[:, cols // 2])
    lit_cols = np.flatnonzero(lit[rows // 2, :])
    whole: Shading = [((0, 0, cols, rows), _multiplier(full))]
    if not lit_rows.size or not lit_cols.size:
        return whole
    top, bottom = int(lit_rows[0]), int(lit_rows[-1]) + 1
    left, right = int(lit_cols[0]), int(lit_cols[-1]) + 1
    if not lit[top:bottom, left:right].all():
        return whole
    strips = [
        (0, 0, cols, top),
        (0, bottom, cols, rows),
        (0, top, left, bottom),
        (right, top, cols, bottom),
    ]
    return [
        (box, _multiplier(full[box[1] : box[3], box[0] : box[2]]))
        for box in strips
        if box[2] > box[0] and box[3] > box[1]
    ]


def _gradient(strength: float, rng: np.random.Generator, x: Matrix, y: Matrix) -> Matrix:
    """Uneven light across a photographed page: light (0-1) at the points `x` (a row) and `y`
    (a column), both -0.5 to 0.5 across the page, falling by up to `strength` x 0.6 along a
    direction drawn from `rng`."""
    gx, gy = (float(v) for v in rng.uniform(-1.0, 1.0, 2))
    return 1.0 - strength * (0.5 + gx * x + gy * y).clip(0.0, 1.0) * 0.6


def _shading(level: Level, rng: np.random.Generator, size: tuple[int, int]) -> Shading:
    """The light falling on the page (dark edges, a shadow along one side, a gradient across
    a photo), as the parts of the page it darkens. Empty when the level has none."""
    shading: Shading = []
    if level.edges or level.shadow:
        side = int(rng.integers(0, 4)) if level.shadow else 0
        shading = _edges(size, level.edges, side, level.shadow)
    if level.light and not level.camera:  # a camera's light: `_camera_light`
        # A smooth field, drawn at a quarter of the resolution and enlarged by repeating
        # pixels: it changes by under a gray level per 4 pixels, so no step shows, and a
        # smooth enlargement would cost as much as the rest of the page's damage.
        cols, rows = max(size[0] // 4, 2), max(size[1] // 4, 2)
        x = np.linspace(-0.5, 0.5, cols, dtype=np.float32)[None, :]
        y = np.linspace(-0.5, 0.5, rows, dtype=np.float32)[:, None]
        field = _gradient(level.light, rng, x, y)
        light = _multiplier(
            np.asarray(
                Image.fromarray((field * 255.0).astype(np.uint8)).resize(
                    size, Image.Resampling.NEAREST
                )
            )
        )
        for (left, top, right, bottom), part in shading:
            region = light[top:bottom, left:right]
            region[:] = (region.astype(np.uint32) * part) >> 8  # 256 * 256 overflows uint16
        shading = [((0, 0, *size), light)]
    return shading


LIGHT_STEP = 4  # pixels per side of the cells a camera's light is drawn in


def _camera_light(level: Level, rng: np.random.Generator, size: tuple[int, int]) -> Image.Image:
    """The light on a phone's photo (`Level.camera`): a gradient across the frame
    (`_gradient`, as a photo's) times the phone's shadow over a corner (`damage.phone_shadow`),
    drawn at the centres of LIGHT_STEP-pixel cells and enlarged bilinearly to `size`: both
    change by about a gray level per pixel at most, so nothing of them is lost, and the page's
    light costs two passes over its pixels (the enlargement and Pillow's multiply)."""
    cols, rows = -(-size[0] // LIGHT_STEP), -(-size[1] // LIGHT_STEP)
    x = ((np.arange(cols, dtype=np.float32) + 0.5) * LIGHT_STEP / size[0] - 0.5)[None, :]
    y = ((np.arange(rows, dtype=np.float32) + 0.5) * LIGHT_STEP / size[1] - 0.5)[:, None]
    field = _gradient(level.light, rng, x, y)  # drawn first: the shadow's draws follow
    field = field * damage.phone_shadow(size, level.dpi, rng, LIGHT_STEP)
    coarse = Image.fromarray(np.round(field * 255.0).clip(0, 255).astype(np.uint8))
    box = (0.0, 0.0, size[0] / LIGHT_STEP, size[1] / LIGHT_STEP)
    return coarse.resize(size, Image.Resampling.BILINEAR, box=box)


TILE = 509  # noise tile side, prime so its repeats never line up with the page's grid


@lru_cache(maxsize=16)
def _grain(size: tuple[int, int], sigma: float, gain: float) -> tuple[Matrix, Matrix]:
    """Sensor noise (standard deviation `sigma` gray levels, divided by `gain`) for pages of
    `size` and one more TILE each way, as its lightening and darkening parts (uint8).

    A tile of random bytes through the normal distribution's quantiles, repeated: a page of
    random numbers costs more than drawing the page. Made once per size and level from a
    fixed seed (every page takes it from its own random origin), so the pages of a run
    cost no noise at all after the first."""
    from statistics import NormalDist

    normal = NormalDist(0.0, sigma / gain)
    table = np.array(
        [round(normal.inv_cdf((b + 0.5) / 256)) for b in range(256)], dtype=np.int16
    ).clip(-128, 127)
    rng = np.random.Generator(np.random.PCG64(round(sigma * 1000) * 7919 + round(gain * 1000)))
    tile = table[rng.integers(0, 256, (TILE, TILE))]
    rows, cols = -(-(size[1] + TILE) // TILE), -(-(size[0] + TILE) // TILE)
    field = np.tile(tile, (rows, cols))
    return (field.clip(0, None).astype(np.uint8), (-field).clip(0, None).astype(np.uint8))


@lru_cache(maxsize=64)
def _tone_table(level: Level) -> list[int]:
    """Gray -> what the scan shows: ink lightened by `ink`, paper at `paper`, the grain near the
    paper clipped to paper (the scanner's background removal), or black and white for a fax."""
    gain = level.paper / 255.0 * level.ink
    table = []
    for value in range(256):
        tone = level.paper - (255 - value) * gain
        if level.binarize:
            tone = 0 if tone < 150 else 255
        elif level.whiten and tone > level.paper - level.whiten:
            tone = level.paper
        table.append(max(0, min(255, round(tone))))
    return table


def degrade(
    pixels: Matrix,
    level: Level,
    rng: np.random.Generator,
    blots: list[damage.Corners] | None = None,
) -> Image.Image:
    """Photometric damage, in the order a page meets it: light, sensor noise (added before the
    tone curve, so it scales with the ink as it does in a sensor), dust and streaks, then the
    tone curve (ink, paper, background removal or the fax's threshold).

    `pixels` (uint8, a row per pixel row) are damaged in place by numpy's uint8 loops (the
    noise is a saturating add made of four of them); the tone curve is a Pillow lookup
    table that makes the returned image. A page takes a few milliseconds."""
    rows, cols = pixels.shape
    size = (cols, rows)
    if level.camera:
        lit = ImageChops.multiply(Image.fromarray(pixels), _camera_light(level, rng, size))
        pixels = images.pixels(lit)
    for (left, top, right, bottom), part in _shading(level, rng, size):
        region = pixels[top:bottom, left:right]
        region[:] = (region * part) >> 8
    if level.blur or level.motion or level.thicken:
        damage.optics(pixels, level.blur, level.motion, level.thicken)
    if level.noise:
        lighter, darker = _grain(size, level.noise, level.paper / 255.0 * level.ink)
        ox, oy = (int(v) for v in rng.integers(0, TILE, 2))
        up, down = lighter[oy : oy + rows, ox : ox + cols], darker[oy : oy + rows, ox : ox + cols]
        # Saturating: a pixel is first kept where the noise cannot carry it past 0 or 255.
        np.minimum(pixels, 255 - up, out=pixels)
        pixels += up
        np.maximum(pixels, down, out=pixels)
        pixels -= down
    if level.speckle:
        count = int(rows * cols * level.speckle)
        ys, xs = rng.integers(0, rows, count), rng.integers(0, cols, count)
        pixels[ys, xs] = rng.integers(0, 90, count).astype(np.uint8)
    for _ in range(level.lines):
        row = int(rng.integers(0, rows - 2))
        band = pixels[row : row + int(rng.integers(1, 3)), :]
        band[:] = (band * float(rng.uniform(0.55, 0.8))).astype(np.uint8)
    for kind in level.damage:
        damage.DAMAGE[kind](pixels, level.dpi, rng)
    # Damage past reading comes last, over the noise, as ink on the page would (and draws
    # from the generator only when asked, so a page without it keeps its bytes).
    for corners in blots or ():
        damage.blot(pixels, corners, rng)
    return Image.frombuffer("L", size, pixels, "raw", "L", 0, 1).point(_tone_table(level))


def optical_clean(drawn: Matrix, level: Level) -> Matrix:
    """The legibility rule's clean side (`packetbench.legibility`): the page as drawn, through
    the level's global optics (focus, motion, toner spread: the same glyphs, blurred, as a
    person would still see them) and its tone curve, without its light, noise, dust, streaks,
    local damage or JPEG. `drawn` is left as it is."""
    pixels = drawn  # the lookup below makes a new image: only the optics need a copy
    if level.blur or level.motion or level.thicken:
        pixels = np.array(drawn, dtype=np.uint8, copy=True)
        damage.optics(pixels, level.blur, level.motion, level.thicken)
    # Pillow's lookup table: the same bytes as numpy's indexing, a third of its time.
    return images.pixels(Image.fromarray(pixels).point(_tone_table(level)))


def pixel_corners(
    transform: Transform, bbox: list[float], dpi: float, height: float
) -> damage.Corners:
    """The corners (lower-left, lower-right, upper-right, upper-left) of native `bbox` on the
    scanned image once the scan moved it, in pixels (origin top-left)."""
    quad = transform.quad(bbox)
    scale = dpi / 72.0
    return [(x * scale, (height - y) * scale) for x, y in zip(quad[0::2], quad[1::2], strict=True)]


def scan_page(
    pdf: Any,
    index: int,
    level: Level,
    seed: int,
    blots: list[list[float]] | None = None,
    judged: bool = False,
    header: faxheader.FaxHeader | None = None,
    values: list[list[float]] | None = None,
    png: bool = True,
) -> ScannedPage:
    """Scan page `index` (0-based) of an open pypdfium2 document at `level`. `blots` are
    native boxes (points) to cover with damage past reading (`damage.blot`); `judged` keeps
    the pixels the legibility rule compares (`ScannedPage.clean`, `ScannedPage.pixels`);
    `png` False with `judged` leaves a binarized page unencoded (`image` empty: its
    `pixels`, what its PNG would decode to, are the image, which a PDF compresses itself);
    `header`, a fax's transmission header printed over the page's top (`faxheader`), lifted
    clear of cutting any of `values` (the page's value boxes, native points: `header_lift`)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    page = pdf[index]
    try:
        width, height = (float(v) for v in page.get_size())
        transform, details = geometry(level, rng, width, height)
        size = (math.ceil(width * level.dpi / 72), math.ceil(height * level.dpi / 72))
        # White paper as printed: the tone curve turns it into the level's paper.
        drawn = _render(page, transform, level.dpi, size, 255, level.background, level.tiles)
    finally:
        page.close()
    clean = optical_clean(drawn, level) if judged else None
    covered = None
    lift = 0
    if header is not None:
        # Printed by the sending machine into the image it sends, after its scan of the paper
        # and before the line's noise and threshold; never on the clean side.
        lift = header_lift(header, index, width, height, level, transform, values or [])
        cells = faxheader.stamp(drawn, level.dpi, header, index + 1, width, lift)
        if judged:
            covered = np.zeros(drawn.shape, dtype=bool)
            for left, top, right, bottom in cells:
                covered[top:bottom, left:right] = True
    corners = [pixel_corners(transform, box, level.dpi, height) for box in blots or ()]
    damaged = degrade(drawn, level, rng, corners)
    out = io.BytesIO()
    if not level.binarize:
        damaged.save(out, "JPEG", quality=level.quality, optimize=False)
    elif png or not judged:
        damaged.save(out, "PNG", optimize=False, compress_level=6)
    _record(details, level, transform)
    if header is not None and lift:
        details["header_lift"] = lift  # pixels the header was lifted (`header_lift`)
    image = out.getvalue()
    pixels = None
    if judged and level.binarize:
        pixels = _frozen(images.pixels(damaged))  # lossless: what the PNG decodes to
    elif judged:
        pixels = decoded_gray(image)
    return ScannedPage(image, not level.binarize, transform, details, clean, pixels, covered)


def decoded_gray(image: bytes) -> Matrix:
    """The gray pixels of an encoded image (a row per pixel row), as a gray page decodes:
    without the copy that converting an image already gray to gray makes."""
    with Image.open(io.BytesIO(image)) as decoded:
        return _frozen(images.pixels(decoded if decoded.mode == "L" else decoded.convert("L")))


def _frozen(pixels: Matrix) -> Matrix:
    """`pixels`, read-only: what an image decodes to is what its file holds."""
    pixels.flags.writeable = False
    return pixels


def header_lift(
    header: faxheader.FaxHeader,
    index: int,
    width: float,
    height: float,
    level: Level,
    transform: Transform,
    values: list[list[float]],
) -> int:
    """Pixels the fax header of page `index` (0-based) is lifted (`faxheader.clear_lift`) so
    that no cell of it cuts one of `values` (native boxes, points) where the scan moved it."""
    boxes = []
    for bbox in values:
        corners = pixel_corners(transform, bbox, level.dpi, height)
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        boxes.append(
            (math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys)))
        )
    return faxheader.clear_lift(header, index + 1, width, level.dpi, boxes)


def _record(details: dict[str, Any], level: Level, transform: Transform) -> None:
    """What the audit needs to draw the native page clean as the scan drew it (`clean_page`),
    and the page's capture mode."""
    details.update(
        level=level.name,
        capture_mode=level.mode,
        dpi=level.dpi,
        matrix=[float(v) for v in transform.matrix.flatten()],
    )


def placement(pdf: Any, index: int, level: Level, seed: int) -> tuple[Transform, dict[str, Any]]:
    """Where `scan_page` puts page `index` (0-based) of an open native document, and the
    details it records, without drawing the page: the same draws from the same seed (the
    page's movement is the first thing a scan draws), none of the pixels."""
    rng = np.random.Generator(np.random.PCG64(seed))
    page = pdf[index]
    try:
        width, height = (float(v) for v in page.get_size())
    finally:
        page.close()
    transform, details = geometry(level, rng, width, height)
    _record(details, level, transform)
    return transform, details


def clean_page(pdf: Any, index: int, level: Level, matrix: list[float]) -> Matrix:
    """Page `index` (0-based) of an open native document drawn as `scan_page` drew it under
    `matrix` (the 3x3 map it recorded, row by row), as the legibility rule's clean side
    (`optical_clean`: the level's optics and tone curve, none of its damage): the scanned page
    as it would be without noise, dust, streaks, light, local damage or JPEG (gray pixels, a
    row per pixel row). The generator judges its boxes against the same function."""
    page = pdf[index]
    try:
        width, height = (float(v) for v in page.get_size())
        transform = Transform(np.array(matrix, dtype=np.float64).reshape(3, 3))
        size = (math.ceil(width * level.dpi / 72), math.ceil(height * level.dpi / 72))
        drawn = _render(page, transform, level.dpi, size, 255, level.background, level.tiles)
    finally:
        page.close()
    return optical_clean(drawn, level)


def open_pdf(data: bytes) -> Any:
    return pdfium.PdfDocument(data)
