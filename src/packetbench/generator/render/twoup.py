"""Two pages on one sheet ("2-up", an opt-in scan level): two consecutive pages of a document
reduced side by side onto one landscape sheet, as a copier's "2 in 1" prints them, and the sheet
scanned.

Each page is drawn by pdfium straight onto the sheet under its own exact map (`Sheet.halves`:
the page reduced to fit its half, centred there, then the whole sheet moved as the level's
scan moves a page), so every located value's box on either page is carried to the sheet
exactly as `Transform.quad` carries it on a one-page scan. The sheet is then damaged by the
level's `degrade`, and its clean side (`clean_sheet`: the same pages under the same maps, the
level's optics and tone curve only) is what the legibility rule compares it with.

The scan level `two_up` (`scan_levels.LEVELS`) prints a whole document this way, pages (1, 2),
(3, 4), ... on sheets 1, 2, ..., an odd last page alone on the left half
(`PdfDocument._sheets`); every page number of the document's truth then moves to its sheet
once every pattern has recorded its pages (`Presentation.sheets`, `generator.truth`).
"""

from __future__ import annotations

import ctypes
import io
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pypdfium2 as pdfium

from packetbench.generator.render import projective
from packetbench.generator.render.scan import decoded_gray
from packetbench.generator.render.scan_degrade import degrade, optical_clean
from packetbench.generator.render.scan_draw import Transform, geometry, pixel_corners
from packetbench.generator.render.scan_levels import LEVELS, Level

Matrix = np.ndarray[Any, Any]

SHEET = (792.0, 612.0)  # a landscape US Letter sheet, points
GUTTER = 18.0  # points of white between the two pages and around them
LEVEL = LEVELS["two_up"]


@dataclass(frozen=True)
class Sheet:
    """Where the pages of one sheet land: each page's exact map (native points to the scanned
    sheet's points), and how the sheet was moved."""

    halves: tuple[Transform, ...]  # one per page, left first
    size: tuple[float, float]  # the sheet, points
    details: dict[str, Any]


def _fit(width: float, height: float, left: float, sheet: tuple[float, float]) -> Matrix:
    """The map putting a page of `width` x `height` points, reduced to fit, centred in the half
    of `sheet` starting `left` points from its left edge."""
    room_w = sheet[0] / 2 - 1.5 * GUTTER
    room_h = sheet[1] - 2 * GUTTER
    scale = min(room_w / width, room_h / height)
    x = left + (room_w - width * scale) / 2
    y = (sheet[1] - height * scale) / 2
    return np.array([[scale, 0.0, x], [0.0, scale, y], [0.0, 0.0, 1.0]])


def placement(
    sizes: list[tuple[float, float]], level: Level, seed: int, sheet: tuple[float, float] = SHEET
) -> Sheet:
    """Where one or two pages of `sizes` (points) land on a scanned sheet at `level`, from
    `seed`: the same draws `scan_sheet` makes, none of the pixels."""
    if not 1 <= len(sizes) <= 2:
        raise ValueError(f"a 2-up sheet holds one or two pages, not {len(sizes)}")
    rng = np.random.Generator(np.random.PCG64(seed))
    moved, details = geometry(level, rng, *sheet)
    lefts = (GUTTER, sheet[0] / 2 + GUTTER / 2)
    halves = tuple(
        Transform(np.array(projective.multiply(moved.rows, projective.mat3(fit.tolist()))))
        for fit in (_fit(w, h, left, sheet) for (w, h), left in zip(sizes, lefts, strict=False))
    )
    details.update(
        level=level.name,
        dpi=level.dpi,
        sheet=list(sheet),
        matrices=[[float(v) for v in half.matrix.flatten()] for half in halves],
    )
    return Sheet(halves, sheet, details)


def _draw(pages: list[Any], sheet: Sheet, dpi: int, paper: int) -> Matrix:
    """The pages drawn by pdfium onto one sheet under their maps (gray, a row per pixel row)."""
    scale = dpi / 72.0
    # dpi before the division, as scan.py sizes its pages: 792 * (300 / 72) is 3300.0000000000005
    cols, rows = math.ceil(sheet.size[0] * dpi / 72), math.ceil(sheet.size[1] * dpi / 72)
    pixels = bytearray(bytes((paper,))) * (cols * rows)
    buffer = (ctypes.c_ubyte * len(pixels)).from_buffer(pixels)
    bitmap = pdfium.PdfBitmap.new_native(cols, rows, pdfium.raw.FPDFBitmap_Gray, buffer=buffer)
    to_pixels = ((scale, 0.0, 0.0), (0.0, -scale, sheet.size[1] * scale), (0.0, 0.0, 1.0))
    for page, half in zip(pages, sheet.halves, strict=True):
        height = float(page.get_size()[1])
        # pdfium's matrix acts on the page turned top-down (points, origin top-left).
        flip = ((1.0, 0.0, 0.0), (0.0, -1.0, height), (0.0, 0.0, 1.0))
        device = projective.multiply(to_pixels, half.rows, flip)
        fs = pdfium.raw.FS_MATRIX(
            device[0][0], device[1][0], device[0][1], device[1][1], device[0][2], device[1][2]
        )
        clip = pdfium.raw.FS_RECTF(0.0, 0.0, float(cols), float(rows))
        pdfium.raw.FPDF_RenderPageBitmapWithMatrix(
            bitmap, page, fs, clip, pdfium.raw.FPDF_GRAYSCALE
        )
    bitmap.close()
    return np.frombuffer(pixels, dtype=np.uint8).reshape(rows, cols)


def _pages(pdf: Any, indices: list[int]) -> list[Any]:
    return [pdf[index] for index in indices]


@dataclass(frozen=True)
class ScannedSheet:
    image: bytes  # JPEG
    sheet: Sheet
    clean: Matrix | None  # the legibility rule's clean side, when judged
    pixels: Matrix | None  # the scanned sheet as decoded from `image`, when judged


def scan_sheet(
    pdf: Any,
    indices: list[int],
    level: Level,
    seed: int,
    judged: bool = False,
    blots: list[tuple[int, list[float]]] | None = None,
) -> ScannedSheet:
    """Pages `indices` (0-based, one or two) of an open pypdfium2 document printed 2-up on one
    landscape sheet and scanned at `level`. `blots`: (which of `indices`, native box) to
    cover with damage past reading (`damage.blot`), as `scan.scan_page` covers its own."""
    pages = _pages(pdf, indices)
    try:
        sizes = [(float(w), float(h)) for w, h in (page.get_size() for page in pages)]
        sheet = placement(sizes, level, seed)
        drawn = _draw(pages, sheet, level.dpi, 255)
    finally:
        for page in pages:
            page.close()
    clean = optical_clean(drawn, level) if judged else None
    # The same generator as `placement`, past its geometry draws: the sheet's damage.
    rng = np.random.Generator(np.random.PCG64(seed))
    geometry(level, rng, *sheet.size)
    corners = [
        pixel_corners(sheet.halves[half], box, level.dpi, sheet.size[1])
        for half, box in blots or ()
    ]
    damaged = degrade(drawn, level, rng, corners)
    out = io.BytesIO()
    damaged.save(out, "JPEG", quality=level.quality, optimize=False)
    image = out.getvalue()
    pixels = None
    if judged:
        pixels = decoded_gray(image)
    return ScannedSheet(image, sheet, clean, pixels)


def clean_sheet(pdf: Any, indices: list[int], level: Level, matrices: list[list[float]]) -> Matrix:
    """Pages `indices` of an open native document drawn on one sheet under the maps a scan
    recorded (`details["matrices"]`), as the legibility rule's clean side: what the audit's
    rebuild would compare a 2-up sheet with."""
    pages = _pages(pdf, indices)
    try:
        halves = tuple(
            Transform(np.array(matrix, dtype=np.float64).reshape(3, 3)) for matrix in matrices
        )
        drawn = _draw(pages, Sheet(halves, SHEET, {}), level.dpi, 255)
    finally:
        for page in pages:
            page.close()
    return optical_clean(drawn, level)
