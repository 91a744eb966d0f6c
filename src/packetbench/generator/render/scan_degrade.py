"""A scan's photometric damage: light, sensor noise, dust, streaks, the tone curve.

`degrade` damages the page `generator.render.scan` drew; `optical_clean` is the same page as the
legibility rule compares it, with the level's optics and tone curve and none of its damage.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageChops

from packetbench.core import images
from packetbench.generator.render import damage, scan_copy, scan_fax
from packetbench.generator.render.scan_draw import Matrix
from packetbench.generator.render.scan_levels import Level


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
    rows: int = 0,
    spared: list[tuple[int, int]] | None = None,
) -> Image.Image:
    """Photometric damage, in the order a page meets it: light, sensor noise (added before the
    tone curve, so it scales with the ink as it does in a sensor), dust and streaks, then the
    tone curve (ink, paper, background removal or the fax's threshold).

    `pixels` (uint8, a row per pixel row) are damaged in place by numpy's uint8 loops (the
    noise is a saturating add made of four of them); the tone curve is a Pillow lookup
    table that makes the returned image. A page takes a few milliseconds. A photocopy of a
    copy (`Level.copies`) is copied first, before the scanner's light and noise
    (`scan_copy.copies`); a Group 3 fax sent at `rows` lines per inch (`scan_fax.resolution`)
    is sent last, after the sending machine's noise and dust (`scan_fax.transmit`, its line
    faults clear of the pixel rows `spared`)."""
    rows_px, cols = pixels.shape
    size = (cols, rows_px)
    if level.copies:
        scan_copy.copies(pixels, level, rng)
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
        up, down = (
            lighter[oy : oy + rows_px, ox : ox + cols],
            darker[oy : oy + rows_px, ox : ox + cols],
        )
        # Saturating: a pixel is first kept where the noise cannot carry it past 0 or 255.
        np.minimum(pixels, 255 - up, out=pixels)
        pixels += up
        np.maximum(pixels, down, out=pixels)
        pixels -= down
    if level.speckle:
        count = int(rows_px * cols * level.speckle)
        ys, xs = rng.integers(0, rows_px, count), rng.integers(0, cols, count)
        pixels[ys, xs] = rng.integers(0, 90, count).astype(np.uint8)
    for _ in range(level.lines):
        row = int(rng.integers(0, rows_px - 2))
        band = pixels[row : row + int(rng.integers(1, 3)), :]
        band[:] = (band * float(rng.uniform(0.55, 0.8))).astype(np.uint8)
    for kind in level.damage:
        damage.DAMAGE[kind](pixels, level.dpi, rng)
    # Damage past reading comes last, over the noise, as ink on the page would (and draws
    # from the generator only when asked, so a page without it keeps its bytes).
    for corners in blots or ():
        damage.blot(pixels, corners, rng)
    if rows:
        pixels = scan_fax.transmit(pixels, level, rng, rows, spared)
    return Image.frombuffer("L", size, pixels, "raw", "L", 0, 1).point(_tone_table(level))


def optical_clean(drawn: Matrix, level: Level, rows: int = 0) -> Matrix:
    """The legibility rule's clean side (`packetbench.reading.legibility`): the page as drawn,
    through the level's global optics (focus, motion, toner spread: the same glyphs, blurred, as
    a person would still see them) and its tone curve, without its light, noise, dust, streaks,
    local damage or JPEG; a Group 3 fax's page as the lines it sends at `rows` lines per inch
    (`scan_fax.optics`). `drawn` is left as it is."""
    pixels = drawn  # the lookup below makes a new image: only the optics need a copy
    if level.blur or level.motion or level.thicken:
        pixels = np.array(drawn, dtype=np.uint8, copy=True)
        damage.optics(pixels, level.blur, level.motion, level.thicken)
    if rows:
        pixels = scan_fax.optics(pixels, level.dpi, rows)
    # Pillow's lookup table: the same bytes as numpy's indexing, a third of its time.
    return images.pixels(Image.fromarray(pixels).point(_tone_table(level)))
