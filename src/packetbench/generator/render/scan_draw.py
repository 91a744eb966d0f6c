"""Where a scan puts the page, and the page drawn there.

The exact transform of a scanned page (rotation, scale, shift; a photo's perspective) is drawn
from the page's seed (`geometry`), and pdfium draws the native page straight onto the moved
page (`draw`): an affine map in one call, a perspective tile by tile (`_tile_matrices`).
Every located value's box is carried to the scanned page through the same transform.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from packetbench.core import images
from packetbench.generator.render import damage, projective
from packetbench.generator.render.scan_levels import Level

Matrix = np.ndarray[Any, Any]


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


def draw(
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


def pixel_corners(
    transform: Transform, bbox: list[float], dpi: float, height: float
) -> damage.Corners:
    """The corners (lower-left, lower-right, upper-right, upper-left) of native `bbox` on the
    scanned image once the scan moved it, in pixels (origin top-left)."""
    quad = transform.quad(bbox)
    scale = dpi / 72.0
    return [(x * scale, (height - y) * scale) for x, y in zip(quad[0::2], quad[1::2], strict=True)]
