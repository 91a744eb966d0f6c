"""A photocopy of a copy (`Level.copies`): the copier's pass applied once per generation to the
page before the scanner sees it.

One pass is what a toner copier does to a page: toner that did not take (`loss`: patches
where strokes come out lighter and broken), speckle from the drum, the dark band where the
original's edge or the open lid showed along a side, a gray cast over the paper, and fill-in
(each stroke spread and printed darker, closing the counters of e, a, 6 a little). A second
copy is the pass on the first copy's output, a
third on the second's: the damage compounds as it does at a copier.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image, ImageFilter

from packetbench.generator.render.scan_levels import Level

Matrix = np.ndarray[Any, Any]

CELL = 24  # pixels per side of the cells the toner's patchiness is drawn in
LOSS = 0.22  # the largest share of a stroke's darkness a patch without toner loses
GAIN = 1.25  # how much darker a copy prints a stroke's spread (its fill-in)
SPREAD = ImageFilter.Kernel((3, 3), [1, 2, 1, 2, 4, 2, 1, 2, 1])  # the copier's optics
CAST = 6  # gray levels the paper darkens by per copy


def _patches(size: tuple[int, int], rng: np.random.Generator) -> Matrix:
    """Where the toner did not take: a smooth random field over the page (drawn at one value
    per CELL pixels and enlarged bilinearly), 0 where it took and up to 1 in its patches."""
    cols, rows = -(-size[0] // CELL) + 1, -(-size[1] // CELL) + 1
    coarse = rng.random((rows, cols), dtype=np.float32)
    field = Image.fromarray(np.round(coarse * 255).astype(np.uint8)).resize(
        size, Image.Resampling.BILINEAR, box=(0.0, 0.0, size[0] / CELL, size[1] / CELL)
    )
    # The lightest quarter of the field are the patches, ramping in over a tenth of its range.
    patches: Matrix = np.clip((np.asarray(field, dtype=np.float32) - 190.0) / 25.0, 0.0, 1.0)
    return patches


def copy_once(pixels: Matrix, level: Level, rng: np.random.Generator) -> None:
    """One copier pass over `pixels` (gray, a row per pixel row, 255 = paper), in place."""
    rows, cols = pixels.shape
    # Fill-in: the copier's optics spread each stroke (a 3 x 3 binomial blur, about half a
    # pixel) and its toner takes wherever the spread is dark enough (the ink's darkness x
    # GAIN): strokes bolder, the narrowest counters (e, a, 6, 8) closing a little each copy.
    soft = Image.fromarray(pixels).filter(SPREAD)
    ink = (255.0 - np.asarray(soft, dtype=np.float32)) * GAIN
    lost = _patches((cols, rows), rng)
    # Toner loss: in a patch a stroke keeps (1 - LOSS x patch) of its darkness, and a few of
    # its dots drop out (a broken stroke).
    grain = rng.integers(0, 256, (rows, cols), dtype=np.uint8)
    keep = 1.0 - LOSS * lost
    keep[grain < 25.6 * lost] = 0.4
    ink *= keep
    # The gray cast: the paper (and everything on it) a few levels darker.
    np.minimum(ink, 255.0 - CAST, out=ink)
    out = 255.0 - CAST - ink
    # The dark band along one side: the original's edge or the lid's shadow, 1-3 % of the
    # page wide, ragged on its inner side (only the strip it reaches is computed).
    side = int(rng.integers(0, 4))
    along = cols if side < 2 else rows
    across = rows if side < 2 else cols
    depth = (across * float(rng.uniform(0.01, 0.03))) * (0.7 + 0.6 * rng.random(along))
    reach = min(across, int(np.ceil(depth.max())) + 1)
    steps = np.arange(reach, dtype=np.float32)[:, None]
    band = np.clip(1.0 - steps / np.maximum(depth[None, :], 1.0), 0.0, 1.0) ** 0.5
    shade = (1.0 - 0.8 * band).astype(np.float32)
    shade = shade if side % 2 == 0 else shade[::-1]
    if side == 0:
        out[:reach, :] *= shade
    elif side == 1:
        out[rows - reach :, :] *= shade
    elif side == 2:
        out[:, :reach] *= shade.T
    else:
        out[:, cols - reach :] *= shade.T
    np.copyto(pixels, np.round(out).clip(0, 255).astype(np.uint8))
    # Drum speckle: the level's dust per copy.
    if level.speckle:
        count = int(rows * cols * level.speckle)
        ys, xs = rng.integers(0, rows, count), rng.integers(0, cols, count)
        pixels[ys, xs] = rng.integers(0, 90, count).astype(np.uint8)


def copies(pixels: Matrix, level: Level, rng: np.random.Generator) -> None:
    """`level.copies` copier passes over `pixels`, in place: a copy of a copy."""
    for _ in range(level.copies):
        copy_once(pixels, level, rng)
