"""Boxes cut out of a page prepared for OCR, the preparation done around the boxes only.

A box read on its own (`reading.strategies.read_boxes`) is cut out of its page as whole-page OCR
prepares it: rendered at the OCR resolution, its paper evened out (`reading.imaging.flattened`),
turned straight (`reading.imaging.deskewed`), its rules painted over (`reading.imaging.unruled`,
local by design). Every one of those steps is local: a prepared pixel depends only on the page's
pixels within a bounded reach of it (the evening's background is the page shrunk eightfold, a
5-pixel maximum and a Gaussian of radius 3 there, enlarged again; the turn reads the two-by-two
pixels around where it came from). So a box's crop is computed from a window of the page around
it, each step given the same coordinates it has on the whole page (`Image.resize(box=...)`, the
rotation's matrix shifted by the window's corner), instead of from the whole page: the same
pixels (`tests/audit/test_box_crops.py` holds them to the whole page's), at a small part of the
cost. A box's pixels run through the same code as the whole page's, so where the window touches
the page's edge the two meet the edge alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

Pixels = np.ndarray[Any, Any]
Rect = tuple[int, int, int, int]  # left, top, right, bottom, pixels

SHRINK = 8  # `reading.imaging.flattened` estimates the paper on the page shrunk this many times
# Pixels of the shrunk page around a window whose background is computed with it: the
# maximum filter (5: 2 each way), the Gaussian (radius 3: PIL's three box passes reach 9),
# and the enlargement's neighbour, with room to spare.
REACH_SMALL = 16


def page_size(page: Any, scale: float) -> tuple[int, int]:
    """(width, height) in pixels of `page` rendered at `scale`, as pypdfium2 renders it."""
    return math.ceil(page.get_width() * scale), math.ceil(page.get_height() * scale)


def render_rect(page: Any, scale: float, rect: Rect, dropout: bool = False) -> Pixels:
    """The pixels `rect` of `page` rendered whole at `scale` (gray; `dropout`: its red channel,
    in which red ink is as light as the paper), rendered alone: the page drawn with the whole
    page's device transform into a bitmap the size of `rect`."""
    width, height = page_size(page, scale)
    left, top, right, bottom = rect
    # pypdfium2 crops whole pixels: ceil(c * scale); half a pixel short of each edge lands
    # on it exactly.
    crop = [
        (amount - 0.5) / scale if amount else 0.0
        for amount in (left, height - bottom, width - right, top)
    ]
    image = page.render(scale=scale, grayscale=not dropout, crop=tuple(crop)).to_numpy()
    # pdfium's colour bitmap is BGR: red is the last channel.
    image = np.ascontiguousarray(image[:, :, 2] if dropout else image.reshape(image.shape[:2]))
    if image.shape != (bottom - top, right - left):
        raise ValueError(f"rendered {image.shape}, wanted {(bottom - top, right - left)}")
    return image


def rotation(angle: float, size: tuple[int, int]) -> list[float] | None:
    """PIL's `Image.rotate(-angle)` matrix for an image of `size` (destination -> source,
    as `Image.transform` takes it), None where PIL takes a fast path (no turn, a half turn)."""
    turn = -angle % 360.0
    if turn in (0.0, 180.0):
        return None
    width, height = size
    radians = -math.radians(turn)
    matrix = [
        round(math.cos(radians), 15),
        round(math.sin(radians), 15),
        0.0,
        round(-math.sin(radians), 15),
        round(math.cos(radians), 15),
        0.0,
    ]
    a, b, _, d, e, _ = matrix
    cx, cy = width / 2, height / 2
    matrix[2] = a * -cx + b * -cy + cx
    matrix[5] = d * -cx + e * -cy + cy
    return matrix


def _source(matrix: list[float], rect: Rect, size: tuple[int, int]) -> Rect:
    """The pixels of the unturned page the turned page's `rect` samples (with a margin)."""
    a, b, c, d, e, f = matrix
    left, top, right, bottom = rect
    xs, ys = [], []
    for x in (left, right):
        for y in (top, bottom):
            xs.append(a * x + b * y + c)
            ys.append(d * x + e * y + f)
    width, height = size
    return (
        max(0, math.floor(min(xs)) - 3),
        max(0, math.floor(min(ys)) - 3),
        min(width, math.ceil(max(xs)) + 3),
        min(height, math.ceil(max(ys)) + 3),
    )


def evened(
    page: Any, scale: float, angle: float | None, rect: Rect, dropout: bool = False
) -> Pixels:
    """Pixels `rect` of page `page` prepared as `reading.boxes._evened` prepares the whole page (a
    scan, `angle` not None: evened out and turned back by `angle`), computed from a window around
    `rect`; a page drawn, not scanned, in its red channel when `dropout` (`render_rect`)."""
    from PIL import Image, ImageFilter

    size = page_size(page, scale)
    width, height = size
    if angle is None:
        return render_rect(page, scale, rect, dropout)
    matrix = rotation(angle, size)
    half = matrix is None and -angle % 360.0 == 180.0
    left, top, right, bottom = rect
    if half:
        source = (width - right, height - bottom, width - left, height - top)
    elif matrix is not None:
        source = _source(matrix, rect, size)
    else:
        source = rect
    if source[2] <= source[0] or source[3] <= source[1]:
        return np.full((bottom - top, right - left), 255, dtype=np.uint8)  # beside the page
    # The shrunk page's pixels around the source (`reading.imaging.flattened`), and the page's
    # pixels they are made of.
    small_w, small_h = max(width // SHRINK, 1), max(height // SHRINK, 1)
    sx, sy = width / small_w, height / small_h
    small = (
        max(0, math.floor(source[0] / sx) - REACH_SMALL),
        max(0, math.floor(source[1] / sy) - REACH_SMALL),
        min(small_w, math.ceil(source[2] / sx) + REACH_SMALL),
        min(small_h, math.ceil(source[3] / sy) + REACH_SMALL),
    )
    window = (
        max(0, math.floor(small[0] * sx) - 2),
        max(0, math.floor(small[1] * sy) - 2),
        min(width, math.ceil(small[2] * sx) + 2),
        min(height, math.ceil(small[3] * sy) + 2),
    )
    drawn = render_rect(page, scale, window)
    picture = Image.fromarray(drawn)
    shrunk = picture.resize(
        (small[2] - small[0], small[3] - small[1]),
        Image.Resampling.BOX,
        box=(
            small[0] * sx - window[0],
            small[1] * sy - window[1],
            small[2] * sx - window[0],
            small[3] * sy - window[1],
        ),
    )
    shrunk = shrunk.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(3))
    background = np.asarray(
        shrunk.resize(
            (source[2] - source[0], source[3] - source[1]),
            Image.Resampling.BILINEAR,
            box=(
                source[0] / sx - small[0],
                source[1] / sy - small[1],
                source[2] / sx - small[0],
                source[3] / sy - small[1],
            ),
        ),
        dtype=np.float32,
    )
    pixels = drawn[
        source[1] - window[1] : source[3] - window[1],
        source[0] - window[0] : source[2] - window[0],
    ]
    flat = np.clip(
        pixels.astype(np.float32) / np.maximum(background, 1.0) * 255.0, 0.0, 255.0
    ).astype(np.uint8)
    if half:
        return np.ascontiguousarray(flat[::-1, ::-1])
    if matrix is None:
        return flat
    a, b, c, d, e, f = matrix
    shifted = [
        a,
        b,
        c + a * left + b * top - source[0],
        d,
        e,
        f + d * left + e * top - source[1],
    ]
    turned = Image.fromarray(flat).transform(
        (right - left, bottom - top),
        Image.Transform.AFFINE,
        shifted,
        Image.Resampling.BILINEAR,
        fillcolor=255,
    )
    return np.asarray(turned)


def cut(page: Any, scale: float, angle: float | None, rects: Sequence[Rect]) -> list[Pixels]:
    """Each of `rects` of the page prepared for OCR (`evened`)."""
    return [evened(page, scale, angle, rect) for rect in rects]
