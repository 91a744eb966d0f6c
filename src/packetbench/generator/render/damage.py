"""Harder scan damage (the harsher scan levels): optics (focus, motion, toner spread) over the whole
page and local damage on part of it (a blurred patch, a roller bar, a fold, a coffee ring, punch
holes, a phone's focus falling off toward one side), and the shadow a phone and the hand
holding it throw over a photographed page.

Each works in place on a scanned page's gray pixels (uint8, a row per pixel row, 255 = white)
before the scan's tone curve (the phone's shadow is light, multiplied in with the rest of a
photo's light by `scan_degrade._camera_light`), and draws its randomness from the page's generator,
so a page is byte-identical across runs. Strengths are tuned so that every value stays
legible to a person (a value damaged past reading is the legibility rule's business, not this
module's), except `blot`, which is damage past reading on purpose (overlay.blot,
docs/patterns.md rule 3b).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image, ImageFilter

Matrix = np.ndarray[Any, Any]


def _set(pixels: Matrix, image: Image.Image) -> None:
    pixels[:] = np.asarray(image, dtype=np.uint8)


def optics(pixels: Matrix, blur: float, motion: int, thicken: int) -> None:
    """Toner spread (strokes grown `thicken` pixels: a copy of a copy fills the counters of
    e, a, o), then a motion blur `motion` pixels long across the page, then focus blur (a
    Gaussian of radius `blur` pixels)."""
    if thicken:
        image = Image.fromarray(pixels)  # shares a contiguous array's memory: no copy
        for _ in range(thicken):
            image = image.filter(ImageFilter.MinFilter(3))
        _set(pixels, image)
    if motion > 1:
        _motion(pixels, motion)
    if blur:
        _set(pixels, Image.fromarray(pixels).filter(ImageFilter.GaussianBlur(blur)))


def _motion(pixels: Matrix, motion: int) -> None:
    """The mean of `motion` pixels along each row (its ends repeated), rounded half to even,
    in place. In integers: the same bytes as the mean in float32 rounded by `np.round` (a sum
    of uint8s is exact in float32, and its quotient's rounding error is far below the steps of
    1/`motion` between the fractions it can have, so the two never round apart), in a third
    of the time."""
    cols = pixels.shape[1]
    padded = np.pad(pixels, ((0, 0), (motion // 2, motion - 1 - motion // 2)), mode="edge")
    total: Matrix = padded[:, :cols].astype(np.uint16 if motion <= 257 else np.uint32)
    for i in range(1, motion):
        total += padded[:, i : i + cols]
    shift = motion.bit_length() - 1
    if motion == 1 << shift:
        # total = motion * q + r: (total + motion/2 - 1 + (q & 1)) >> shift is q, plus one
        # when r passes the half, or is the half and q is odd.
        odd = total >> shift
        odd &= 1
        total += odd
        total += motion // 2 - 1
        total >>= shift
        pixels[:] = total
        return
    mean, rest = np.divmod(total, motion)
    rest *= 2
    mean += (rest > motion) | ((rest == motion) & (mean % 2 == 1))
    pixels[:] = mean


def _darken(region: Matrix, light: Matrix | float) -> None:
    """Multiply `region` by `light` (0-1 floats, broadcast), in place."""
    region[:] = (region.astype(np.float32) * light).round().clip(0, 255).astype(np.uint8)


def patch(pixels: Matrix, dpi: int, rng: np.random.Generator) -> None:
    """A blurred patch (water, a smudge, a fingerprint on the glass): a quarter of the
    page's width, an inch or so tall, out of focus by a radius of 0.6 points (0.9 left
    5-point type at the edge of what a person reads)."""
    rows, cols = pixels.shape
    w, h = int(cols * rng.uniform(0.3, 0.45)), int(dpi * rng.uniform(0.8, 1.3))
    left = int(rng.integers(0, max(cols - w, 1)))
    top = int(rng.integers(rows // 6, max(rows * 5 // 6 - h, rows // 6 + 1)))
    region = pixels[top : top + h, left : left + w]
    _set(region, Image.fromarray(region).filter(ImageFilter.GaussianBlur(dpi / 72 * 0.6)))


def roller(pixels: Matrix, dpi: int, rng: np.random.Generator) -> None:
    """A roller bar: a gray band down the page along the paper path (0.1-0.16 inch wide,
    at 70-78 % light) with a dark line on its edge, where a dirty roller touched."""
    cols = pixels.shape[1]
    width = int(dpi * rng.uniform(0.1, 0.16))
    left = int(rng.integers(cols // 8, cols * 7 // 8 - width))
    _darken(pixels[:, left : left + width], float(rng.uniform(0.70, 0.78)))
    _darken(pixels[:, left : left + max(1, dpi // 100)], 0.5)


def crease(pixels: Matrix, dpi: int, rng: np.random.Generator) -> None:
    """A fold across the page at a third of its height: a thin dark line and a soft shadow
    beside it (0.15 inch, from 80 % light back to full)."""
    rows, _ = pixels.shape
    row = int(rows * rng.choice((1 / 3, 2 / 3)) + rng.integers(-dpi // 4, dpi // 4))
    line = max(1, dpi // 100)
    _darken(pixels[row : row + line, :], 0.6)
    reach = int(dpi * 0.15)
    ramp = np.linspace(0.8, 1.0, reach, dtype=np.float32)[:, None]
    _darken(pixels[row + line : row + line + reach, :], ramp[: rows - row - line])


def coffee(pixels: Matrix, dpi: int, rng: np.random.Generator) -> None:
    """A coffee ring: the stain's dark rim (a ring 0.05 inch wide at 72 % light) around a
    lightly tinted inside (93 %), 1.4-2 inches across."""
    rows, cols = pixels.shape
    radius = dpi * rng.uniform(0.7, 1.0)
    cy = float(rng.uniform(radius, rows - radius))
    cx = float(rng.uniform(radius, cols - radius))
    # the stain's square, cut at the page's edges (a ring touching an edge reaches 2 px past
    # it, where its square would not fit the page)
    top, bottom = max(int(cy - radius - 2), 0), min(int(cy + radius + 2), rows)
    left, right = max(int(cx - radius - 2), 0), min(int(cx + radius + 2), cols)
    ys = np.arange(top, bottom, dtype=np.float32)[:, None] - cy
    xs = np.arange(left, right, dtype=np.float32)[None, :] - cx
    distance = np.sqrt(ys * ys + xs * xs)
    rim = dpi * 0.05
    light = np.where(distance < radius - rim, 0.93, 1.0).astype(np.float32)
    edge = np.clip(1.0 - np.abs(distance - (radius - rim / 2)) / (rim / 2), 0.0, 1.0)
    light = np.minimum(light, 1.0 - 0.28 * edge).astype(np.float32)
    _darken(pixels[top:bottom, left:right], light)


def punch(pixels: Matrix, dpi: int, rng: np.random.Generator) -> None:
    """Three punch holes in the left margin (0.28 inch across, centred 0.3-0.35 inch in, at
    the standard spacing of 4.25 inches about the middle), dark where the copier's lid
    showed through."""
    rows, _ = pixels.shape
    r = dpi * 0.14
    cx = dpi * float(rng.uniform(0.3, 0.35))
    middle = rows / 2 + float(rng.uniform(-0.05, 0.05)) * dpi
    for cy in (middle - 4.25 * dpi, middle, middle + 4.25 * dpi):
        top, bottom = max(int(cy - r - 1), 0), min(int(cy + r + 2), rows)
        left, right = int(cx - r - 1), int(cx + r + 2)
        if bottom <= top:
            continue
        ys = np.arange(top, bottom, dtype=np.float32)[:, None] - cy
        xs = np.arange(left, right, dtype=np.float32)[None, :] - cx
        inside = ys * ys + xs * xs <= r * r
        region = pixels[top:bottom, left:right]
        region[inside] = 35


def soft_side(pixels: Matrix, dpi: int, rng: np.random.Generator) -> None:
    """A phone's focus falling off toward one side of the frame (the page not square to the
    lens, or the hand moving): over 30-45 % of the page's width or height from one edge, a
    Gaussian blur growing from none to a radius of 0.35-0.5 point at the edge (0.6 left
    5-point type at the edge of what a person reads: `patch`)."""
    rows, cols = pixels.shape
    side = int(rng.integers(0, 4))  # left, top, right, bottom
    share = float(rng.uniform(0.3, 0.45))
    radius = dpi / 72 * float(rng.uniform(0.35, 0.5))
    across = cols if side in (0, 2) else rows
    reach = max(int(across * share), 2)
    band = (
        pixels[:, :reach]
        if side == 0
        else pixels[:reach, :]
        if side == 1
        else pixels[:, cols - reach :]
        if side == 2
        else pixels[rows - reach :, :]
    )
    blurred = np.asarray(
        Image.fromarray(np.ascontiguousarray(band)).filter(ImageFilter.GaussianBlur(radius)),
        dtype=np.uint8,
    )
    # How much of the blur each row or column takes, in 256ths: 256 at the edge, none inside.
    t = np.linspace(1.0, 0.0, reach, dtype=np.float32)
    if side in (2, 3):
        t = t[::-1]
    weight = (t * t * (3.0 - 2.0 * t) * 256.0 + 0.5).astype(np.uint16)
    weight = weight[None, :] if side in (0, 2) else weight[:, None]
    # In uint16: the two weights sum to 256, so no sum passes 255 * 256 + 128.
    band[:] = (band * (256 - weight) + blurred * weight + 128) >> 8


# A blot reaches this share of the glyph height beyond its value's box on every side.
BLOT_GROW = 0.2
# Pixels: a blot never grows less than this beyond its box.
BLOT_GROW_MIN = 2.0

Corners = list[tuple[float, float]]


def phone_shadow(size: tuple[int, int], dpi: int, rng: np.random.Generator, step: int) -> Matrix:
    """The shadow a phone and the hand holding it throw over a photographed page: one corner's
    side of a slanted line (reaching 30-50 % of the way to the opposite corner, turned up to
    20 degrees off square to it) at 58-68 % light, its edge a soft penumbra 0.4-0.7 inch
    wide. Ink stays ink under it: a person reads through a shadow.

    Returned as light (float32, 1 where the shadow does not reach) at the centres of the
    `step` x `step` pixel cells of an image of `size` (columns, rows): the penumbra is over a
    hundred pixels wide, so the light is drawn coarse and enlarged smoothly with the rest of
    the page's light (`scan_degrade._camera_light`)."""
    cols, rows = size
    corner = int(rng.integers(0, 4))
    reach = float(rng.uniform(0.3, 0.5))
    turn = math.radians(float(rng.uniform(-20.0, 20.0)))
    depth = float(rng.uniform(0.32, 0.42))
    soft = dpi * float(rng.uniform(0.4, 0.7))
    cx, cy = (0.0 if corner in (0, 3) else float(cols)), (0.0 if corner < 2 else float(rows))
    toward = math.atan2(rows / 2 - cy, cols / 2 - cx) + turn
    ux, uy = math.cos(toward), math.sin(toward)
    edge = reach * math.hypot(cols, rows)
    xs = (np.arange(-(-cols // step), dtype=np.float32)[None, :] + 0.5) * step - cx
    ys = (np.arange(-(-rows // step), dtype=np.float32)[:, None] + 0.5) * step - cy
    along = xs * np.float32(ux) + ys * np.float32(uy)
    inside = np.clip((edge + soft / 2 - along) / np.float32(soft), 0.0, 1.0)
    ramp = inside * inside * (3.0 - 2.0 * inside)  # smoothstep: no visible band at the edges
    return np.asarray(1.0 - depth * ramp, dtype=np.float32)


def blot_corners(corners: Corners) -> Corners:
    """The corners of the blot over a value whose box has `corners` on the page image (pixels,
    lower-left, lower-right, upper-right, upper-left of the value as drawn): the box grown by
    BLOT_GROW of its glyph height (at least BLOT_GROW_MIN pixels) along its own line and across
    it, so a blot on a turned or crooked page lies along its value, as the value lies, and
    reaches its neighbours no further than on a straight page."""
    (x0, y0), (x1, y1), _, (x3, y3) = corners
    length, tall = float(np.hypot(x1 - x0, y1 - y0)), float(np.hypot(x3 - x0, y3 - y0))
    if length < 1e-6 or tall < 1e-6:
        return list(corners)
    grow = max(BLOT_GROW * tall, BLOT_GROW_MIN)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length  # along the line
    vx, vy = (x3 - x0) / tall, (y3 - y0) / tall  # up the glyphs
    return [
        (x0 - grow * ux - grow * vx, y0 - grow * uy - grow * vy),
        (x1 + grow * ux - grow * vx, y1 + grow * uy - grow * vy),
        (x1 + (x3 - x0) + grow * ux + grow * vx, y1 + (y3 - y0) + grow * uy + grow * vy),
        (x3 - grow * ux + grow * vx, y3 - grow * uy + grow * vy),
    ]


def blot(pixels: Matrix, corners: Corners, rng: np.random.Generator) -> None:
    """A dense toner or ink blot over a value whose box has `corners` on the page image
    (pixels, lower-left, lower-right, upper-right, upper-left), grown as `blot_corners` grows
    it: a superellipse along the value's line (square enough to cover the whole box, round at
    the corners) filled nearly black (gray 18-58 with a coarse mottle), so that no stroke of
    what was under it shows through."""
    rows, cols = pixels.shape
    grown = blot_corners(corners)
    xs = [x for x, _ in grown]
    ys = [y for _, y in grown]
    left, top = max(int(np.floor(min(xs))), 0), max(int(np.floor(min(ys))), 0)
    right, bottom = min(int(np.ceil(max(xs))), cols), min(int(np.ceil(max(ys))), rows)
    if right - left < 2 or bottom - top < 2:
        return
    (gx0, gy0), (gx1, gy1), _, (gx3, gy3) = grown
    length, tall = float(np.hypot(gx1 - gx0, gy1 - gy0)), float(np.hypot(gx3 - gx0, gy3 - gy0))
    if length < 1e-6 or tall < 1e-6:
        return
    cx, cy = sum(xs) / 4, sum(ys) / 4
    ux, uy = (gx1 - gx0) / length, (gy1 - gy0) / length
    h, w = bottom - top, right - left
    py = np.arange(top, bottom, dtype=np.float64)[:, None] + 0.5 - cy
    px = np.arange(left, right, dtype=np.float64)[None, :] + 0.5 - cx
    # Each pixel in the blot's own frame, both axes scaled to -1..1.
    along = (px * ux + py * uy) / (length / 2)
    across = (-px * uy + py * ux) / (tall / 2)
    inside = (np.abs(along) ** 8 + np.abs(across) ** 8) <= 1.0
    mottle = rng.integers(18, 58, (max(h // 4, 1) + 1, max(w // 4, 1) + 1)).astype(np.uint8)
    shade = np.repeat(np.repeat(mottle, 4, axis=0), 4, axis=1)[:h, :w]
    region = pixels[top:bottom, left:right]
    region[inside] = shade[inside]  # opaque: no stroke underneath shows through


DAMAGE: dict[str, Callable[[Matrix, int, np.random.Generator], None]] = {
    "patch": patch,
    "roller": roller,
    "crease": crease,
    "coffee": coffee,
    "punch": punch,
    "soft": soft_side,
}
