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
from PIL import Image, ImageChops, ImageDraw

from packetbench.core import images
from packetbench.generator.render import damage, projective, scan_mesh
from packetbench.generator.render.scan_levels import Level

Matrix = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Transform:
    """The exact map from a native page's points to the scanned page's points."""

    matrix: Matrix  # 3x3 homography on PDF points (origin bottom-left)
    # Paper that is not flat: a point p lands at the homography of p + D(p) (`scan_mesh`).
    mesh: scan_mesh.Mesh | None = None

    @cached_property
    def rows(self) -> projective.Mat3:
        """The matrix as plain floats, for arithmetic that is the same on every machine (made
        once: every located value of a scanned page is moved through it)."""
        return projective.mat3(self.matrix.tolist())

    def points(self, xy: list[tuple[float, float]]) -> list[tuple[float, float]]:
        rows = self.rows
        if self.mesh is not None:
            moved = [self.mesh.displacement(x, y) for x, y in xy]
            xy = [(x + dx, y + dy) for (x, y), (dx, dy) in zip(xy, moved, strict=True)]
        return [projective.apply(rows, x, y) for x, y in xy]

    def quad(self, bbox: list[float]) -> list[float]:
        """The box's corners on the scanned page: lower-left, lower-right, upper-right,
        upper-left of the native box, as [x, y, x, y, ...] in points. On paper that is not
        flat (`mesh`) a box's edges bend a little between its corners: its lower and upper
        edges are moved out by as far as the bend takes a point of them beyond the line
        between the corners, so the quad holds the whole box."""
        x0, y0, x1, y1 = bbox
        corners = self.points([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        if self.mesh is not None:
            corners = self._bent(corners, x0, y0, x1, y1)
        return [round(v, 2) for corner in corners for v in corner]

    def _bent(
        self, corners: list[tuple[float, float]], x0: float, y0: float, x1: float, y1: float
    ) -> list[tuple[float, float]]:
        """`corners` with the lower edge moved down and the upper edge up (across the box's
        left side's direction) by the most a point of that edge strays past its chord."""
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = corners
        ux, uy = dx - ax, dy - ay  # up the box
        tall = math.hypot(ux, uy)
        if tall < 1e-9:
            return corners
        ux, uy = ux / tall, uy / tall
        inner = [x0 + (x1 - x0) * k / BEND_SAMPLES for k in range(1, BEND_SAMPLES)]
        low = self.points([(x, y0) for x in inner])
        high = self.points([(x, y1) for x in inner])
        down = max([0.0] + [-_height(ax, ay, bx, by, ux, uy, x, y) for x, y in low])
        up = max([0.0] + [_height(dx, dy, cx, cy, ux, uy, x, y) for x, y in high])
        return [
            (ax - ux * down, ay - uy * down),
            (bx - ux * down, by - uy * down),
            (cx + ux * up, cy + uy * up),
            (dx + ux * up, dy + uy * up),
        ]


BEND_SAMPLES = 8  # a bent box's edges are checked at this many intervals (`Transform.quad`)


def _height(
    ax: float, ay: float, bx: float, by: float, ux: float, uy: float, x: float, y: float
) -> float:
    """How far (x, y) lies from the line through (ax, ay) and (bx, by), along the unit
    direction (ux, uy) (positive: on its side)."""
    ex, ey = bx - ax, by - ay
    across = ex * uy - ey * ux
    if abs(across) < 1e-12:
        return 0.0
    return (ex * (y - ay) - ey * (x - ax)) / across


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
    transform = recorded(level, [float(v) for v in matrix.flatten()], width, height)
    if transform.mesh is not None:
        details["mesh"] = transform.mesh.details()
    return transform, details


def recorded(level: Level, matrix: list[float], width: float, height: float) -> Transform:
    """The transform of a page of `width` x `height` points scanned at `level` under `matrix`
    (the homography the manifest records, row by row): the homography, and for paper that is
    not flat its distortion, which is drawn from the matrix (`scan_mesh.mesh`)."""
    array = np.array(matrix, dtype=np.float64).reshape(3, 3)
    return Transform(array, scan_mesh.mesh(level, matrix, width, height))


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
    Paper that is not flat (`Transform.mesh`) is drawn unmoved and warped (`_draw_mesh`).

    Returns the page's gray pixels (rows of `size[0]`), writable: the bitmap's memory is
    the array's (no copy)."""
    if transform.mesh is not None:
        return _draw_mesh(page, transform, transform.mesh, dpi, size, background, surround)
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


def _draw_mesh(
    page: Any,
    transform: Transform,
    mesh: scan_mesh.Mesh,
    dpi: float,
    size: tuple[int, int],
    background: int,
    surround: int | None,
) -> Matrix:
    """`draw` for paper that is not flat: the page drawn unmoved by pdfium in one call, lit by
    the paper's light (`Mesh.light`: separable along the folds, smooth elsewhere), then warped
    onto the scanned page by one piecewise-bilinear mesh (Pillow's MESH transform) whose
    vertices are where the transform's inverse puts them (`mesh_sources`)."""
    width, height = (float(v) for v in page.get_size())
    scale = dpi / 72.0
    native = (math.ceil(width * scale), math.ceil(height * scale))
    flat = draw(page, Transform(np.eye(3)), dpi, native, background)
    _light(flat, mesh, scale, height)
    xs, ys, sx, sy = mesh_sources(transform, mesh, dpi, height, size)
    cells = []
    for r in range(len(ys) - 1):
        top, bottom = int(ys[r]), int(ys[r + 1])
        row, below = sx[r], sx[r + 1]
        yrow, ybelow = sy[r], sy[r + 1]
        for col in range(len(xs) - 1):
            left, right = int(xs[col]), int(xs[col + 1])
            # Pillow's quad: the source's corners under the cell's upper-left, lower-left,
            # lower-right and upper-right corners.
            quad = (
                row[col],
                yrow[col],
                below[col],
                ybelow[col],
                below[col + 1],
                ybelow[col + 1],
                row[col + 1],
                yrow[col + 1],
            )
            cells.append(((left, top, right, bottom), quad))
    warped = Image.fromarray(flat).transform(
        size,
        Image.Transform.MESH,
        cells,
        resample=Image.Resampling.BILINEAR,
        fillcolor=background if surround is None else surround,
    )
    return images.pixels(warped)


def mesh_sources(
    transform: Transform, mesh: scan_mesh.Mesh, dpi: float, height: float, size: tuple[int, int]
) -> tuple[Matrix, Matrix, list[list[float]], list[list[float]]]:
    """The mesh `_draw_mesh` warps with: its columns and rows of vertices on the scanned page
    (pixels, `_mesh_lines`) and, at each vertex, the unmoved page's pixel the transform takes
    there (x and y, a row of vertices per list): the scanned points through the
    homography's inverse (plain floats, written out), then `Mesh.undo`."""
    scale = dpi / 72.0
    xs, ys = _mesh_lines(transform, mesh, scale, height, size)
    gx, gy = np.meshgrid(xs / scale, height - ys / scale)
    (a, b, c), (d, e, f), (g, k, m) = projective.inverse(transform.rows)
    w = g * gx + k * gy + m
    qx, qy = (a * gx + b * gy + c) / w, (d * gx + e * gy + f) / w
    px, py = mesh.undo(qx, qy)
    return xs, ys, (px * scale).tolist(), ((height - py) * scale).tolist()


def _mesh_lines(
    transform: Transform, mesh: scan_mesh.Mesh, scale: float, height: float, size: tuple[int, int]
) -> tuple[Matrix, Matrix]:
    """The mesh's columns and rows of vertices (scanned pixels): `scan_mesh.STEP` apart, and
    `scan_mesh.FINE` apart over the band where a fold's ridge lands (across a fold the map
    bends within a few points)."""
    fine: list[list[tuple[float, float]]] = [[], []]
    for fold in mesh.folds:
        vertical = fold.normal[1] == 0.0
        ends = [0.0, mesh.height] if vertical else [0.0, mesh.width]
        line = [
            (fold.offset, t) if vertical else (t, fold.offset)
            for t in np.linspace(ends[0], ends[1], 9).tolist()
        ]
        moved = transform.points(line)
        axis = 0 if vertical else 1
        at = [x * scale if vertical else (height - y) * scale for x, y in moved]
        pad = fold.soft * scan_mesh.RIDGE_REACH / 2 * scale + scan_mesh.FINE
        fine[axis].append((min(at) - pad, max(at) + pad))
    lines = []
    for axis in (0, 1):
        out: list[float] = []
        edge = 0
        while edge < size[axis]:
            out.append(float(edge))
            inside = any(low <= edge < high for low, high in fine[axis])
            edge += scan_mesh.FINE if inside else scan_mesh.STEP
        out.append(float(size[axis]))
        lines.append(np.array(out, dtype=np.float64))
    return lines[0], lines[1]


def _light(pixels: Matrix, mesh: scan_mesh.Mesh, scale: float, height: float) -> None:
    """Multiply the unmoved page's `pixels` by the paper's light (`Mesh.light`), in place and
    only where it is not 1: across each fold's ridge row by row (or column by column: the
    ridge is a few pixels wide), and where the curl rises on a coarse grid enlarged smoothly.
    In 8-bit fixed point (light in 256ths, rounded)."""
    rows, cols = pixels.shape
    step = scan_mesh.STEP
    for fold in mesh.folds:
        reach = fold.soft * scan_mesh.RIDGE_REACH
        vertical = fold.normal[1] == 0.0
        centre = fold.offset * scale if vertical else (height - fold.offset) * scale
        first = max(int(centre - reach * scale), 0)
        last = min(int(centre + reach * scale) + 1, cols if vertical else rows)
        if last <= first:
            continue
        at = np.arange(first, last, dtype=np.float64) / scale
        light = scan_mesh.fold_light(fold, at if vertical else height - at)
        if vertical:
            _lit(pixels[:, first:last], light[None, :])
        else:
            _lit(pixels[first:last, :], light[:, None])
    if not mesh.curl_shade:
        return
    xs = np.arange(0, cols + step, step, dtype=np.float64) / scale
    ys = height - np.arange(0, rows + step, step, dtype=np.float64) / scale
    gx, gy = np.meshgrid(xs, ys)
    coarse = mesh.light(gx, gy, folds=False)
    dark = np.argwhere(coarse < 1.0)
    if not len(dark):
        return
    # The cells the curl darkens, one cell wider on every side (the enlargement's reach).
    r0, c0 = (int(v) for v in np.maximum(dark.min(axis=0) - 1, 0))
    r1, c1 = (int(v) for v in np.minimum(dark.max(axis=0) + 2, coarse.shape))
    top, left = r0 * step, c0 * step
    bottom, right = min((r1 - 1) * step, rows), min((c1 - 1) * step, cols)
    if bottom <= top or right <= left:
        return
    # The light in 255ths, enlarged and multiplied in by Pillow (a*b/255: its own rounding).
    piece = (coarse[r0:r1, c0:c1] * 255.0 + 0.5).astype(np.uint8)
    size = ((c1 - c0 - 1) * step, (r1 - r0 - 1) * step)
    field = Image.fromarray(piece).resize(size, Image.Resampling.BILINEAR)
    region = pixels[top:bottom, left:right]
    lit = ImageChops.multiply(
        Image.fromarray(np.ascontiguousarray(region)), field.crop((0, 0, *region.shape[::-1]))
    )
    region[:] = np.asarray(lit)


def _lit(region: Matrix, light: Matrix) -> None:
    """`region` times `light` (0-1, broadcast), in place, in 8-bit fixed point."""
    factor = (light * 256.0 + 0.5).astype(np.uint16)
    region[:] = (region * factor + 128) >> 8


def pixel_corners(
    transform: Transform, bbox: list[float], dpi: float, height: float
) -> damage.Corners:
    """The corners (lower-left, lower-right, upper-right, upper-left) of native `bbox` on the
    scanned image once the scan moved it, in pixels (origin top-left)."""
    quad = transform.quad(bbox)
    scale = dpi / 72.0
    return [(x * scale, (height - y) * scale) for x, y in zip(quad[0::2], quad[1::2], strict=True)]
