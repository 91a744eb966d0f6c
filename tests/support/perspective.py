"""A scan level's perspective as pixels: the page's homography and the affine tiles pdfium
draws it with (`generator.render.scan._tile_matrices`), for the tests that hold the tiles to
the homography."""

from __future__ import annotations

from typing import Any

import numpy as np

from packetbench.generator.render import scan_draw, scan_levels

Matrix = np.ndarray[Any, Any]


def tiles(
    level: scan_levels.Level, seed: int, width: float, height: float
) -> tuple[Matrix, tuple[int, int], list[tuple[tuple[int, int, int, int], Matrix]]]:
    """(homography in pixels, image size, the tiles drawn) of a page of `width` x `height`
    points scanned at `level` with the geometry drawn by `seed`."""
    to_pixels = scan_draw._to_pixels(level.dpi / 72, height)
    size = (int(width * level.dpi / 72), int(height * level.dpi / 72))
    transform, _ = scan_draw.geometry(
        level, np.random.Generator(np.random.PCG64(seed)), width, height
    )
    homography = to_pixels @ transform.matrix @ np.linalg.inv(to_pixels)
    return (
        homography,
        size,
        scan_draw._tile_matrices(homography, size, level.tiles or scan_draw.TILES),
    )


def worst_tile_error(level: scan_levels.Level, seeds: range, width: float, height: float) -> float:
    """The farthest (pixels) any of 5 x 5 points of any tile lands from where the page's
    homography puts it, over pages of `width` x `height` points scanned at `level` with the
    geometry each of `seeds` draws."""
    worst = 0.0
    for seed in seeds:
        homography, _size, drawn_tiles = tiles(level, seed, width, height)
        back = np.linalg.inv(homography)
        for (left, top, right, bottom), piece in drawn_tiles:
            xs, ys = np.meshgrid(np.linspace(left, right, 5), np.linspace(top, bottom, 5))
            moved = np.vstack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
            source = back @ moved
            drawn = piece @ (source / source[2])
            worst = max(worst, float(np.abs(drawn[:2] - moved[:2]).max()))
    return worst
