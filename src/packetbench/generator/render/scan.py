"""Pages as a scanner, a fax machine or a phone camera would return them.

A scanned page is the finished native page drawn by pdfium at the scan's resolution straight
onto the moved page (an exact transform: rotation, scale, shift; a photo's perspective after
drawing) and then degraded (noise, dust, dark edges, shadow, uneven light, streaks,
binarization, JPEG artifacts). Softness is the resolution's: a lower resolution is a blurrier
scan once the viewer enlarges it.
The page becomes that one image: no text layer. Because the transform is known exactly, every
located value's box is carried to the scanned page (`scan_draw.Transform.quad`), and the
audit reads it there by OCR.

Every random choice comes from the document's seed (numpy's PCG64 for pixel noise, whose
stream is fixed for a pinned numpy), and pdfium, Pillow and numpy are pinned exactly, so a
scanned page is byte-identical across runs and processes.

The levels are in `scan_levels`, the transform and the drawing in `scan_draw`, the damage in
`scan_degrade`; this module scans a page with them.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from packetbench.core import images
from packetbench.generator.render import faxheader, scan_fax
from packetbench.generator.render.scan_degrade import degrade, optical_clean
from packetbench.generator.render.scan_draw import (
    Matrix,
    Transform,
    draw,
    geometry,
    pixel_corners,
    recorded,
)
from packetbench.generator.render.scan_levels import Level


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
    # the legibility rule's occlusion (`packetbench.reading.legibility.occlusion`).
    covered: Matrix | None = None


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
    clear of cutting any of `values` (the page's value boxes, native points: `header_lift`);
    a Group 3 fax's line faults keep clear of them too (`scan_fax.transmit`)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    page = pdf[index]
    try:
        width, height = (float(v) for v in page.get_size())
        transform, details = geometry(level, rng, width, height)
        size = (math.ceil(width * level.dpi / 72), math.ceil(height * level.dpi / 72))
        # White paper as printed: the tone curve turns it into the level's paper.
        drawn = draw(page, transform, level.dpi, size, 255, level.background, level.tiles)
        rows = scan_fax.resolution(page, level)
    finally:
        page.close()
    clean = optical_clean(drawn, level, rows) if judged else None
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
    spared = _rows_of(values or [], transform, level, height) if rows else None
    damaged = degrade(drawn, level, rng, corners, rows, spared)
    out = io.BytesIO()
    if not level.binarize:
        damaged.save(out, "JPEG", quality=level.quality, optimize=False)
    elif png or not judged:
        damaged.save(out, "PNG", optimize=False, compress_level=6)
    _record(details, level, transform)
    if rows:
        details["rows"] = rows  # a Group 3 fax's lines per inch down the page (`scan_fax`)
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
    boxes = _pixel_boxes(values, transform, level, height)
    return faxheader.clear_lift(header, index + 1, width, level.dpi, boxes)


def _pixel_boxes(
    values: list[list[float]], transform: Transform, level: Level, height: float
) -> list[tuple[int, int, int, int]]:
    """Each of `values` (native boxes, points) as the upright pixel box (left, top, right,
    bottom) around where the scan moved it."""
    boxes = []
    for bbox in values:
        corners = pixel_corners(transform, bbox, level.dpi, height)
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        boxes.append(
            (math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys)))
        )
    return boxes


def _rows_of(
    values: list[list[float]], transform: Transform, level: Level, height: float
) -> list[tuple[int, int]]:
    """The pixel rows, top and bottom with a pixel to spare, each of `values` (native boxes,
    points) covers where the scan moved it (a fax's line faults keep clear of them)."""
    return [
        (top - 1, bottom + 1)
        for _, top, _, bottom in _pixel_boxes(values, transform, level, height)
    ]


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
        rows = scan_fax.resolution(page, level)
    finally:
        page.close()
    transform, details = geometry(level, rng, width, height)
    _record(details, level, transform)
    if rows:
        details["rows"] = rows  # as `scan_page` records it, so a fax's manifest is made again
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
        transform = recorded(level, matrix, width, height)
        size = (math.ceil(width * level.dpi / 72), math.ceil(height * level.dpi / 72))
        drawn = draw(page, transform, level.dpi, size, 255, level.background, level.tiles)
        rows = scan_fax.resolution(page, level)  # as `scan_page` decided it
    finally:
        page.close()
    return optical_clean(drawn, level, rows)


def open_pdf(data: bytes) -> Any:
    return pdfium.PdfDocument(data)
