"""Page imaging for OCR: a PDF page rendered to grayscale pixels, evened out (`flattened`),
turned upright (`upright`, `deskewed`), ruled lines removed (`unruled`, `lines_cut`), a slanted
box levelled, a blurred crop sharpened, big type found; and the mapping of points between a
page image and the image turned back."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from packetbench.reading.tesseract import Word

# A box no reading found its value in is read once more sharpened (`sharpened`): twice the
# size, then an unsharp mask, as a careful reader restores a blurred scan. Tesseract loses
# 5-point type out of focus that a person reads at once, and reads most of it sharpened (see
# docs/measurements.md#a-box-read-again-sharpened).
SHARPEN_SCALE = 2

SHARPEN = {"radius": 3, "percent": 200, "threshold": 0}


def render_page(pdf: Any, number: int, dpi: int) -> tuple[np.ndarray[Any, Any], float, float]:
    """Page `number` (1-based) in gray at `dpi`, and its crop box's left and top in points."""
    page = pdf[number - 1]
    try:
        left, _bottom, _right, top = page.get_cropbox()
        image = page.render(scale=dpi / 72, grayscale=True).to_numpy()
    finally:
        page.close()
    return image, float(left), float(top)


def deskewed(image: np.ndarray[Any, Any], angle: float) -> np.ndarray[Any, Any]:
    """The page image turned back by `angle` degrees (counter-clockwise as the page shows
    it), as any OCR pipeline deskews a scan before reading it."""
    from PIL import Image

    picture = Image.fromarray(np.ascontiguousarray(image.reshape(image.shape[:2])))
    turned = picture.rotate(-angle, resample=Image.Resampling.BILINEAR, fillcolor=255)
    return np.asarray(turned)


def flattened(image: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The page with its paper made even: divided by an estimate of the background (the
    brightest nearby pixels, smoothed), so dark edges, shadows and uneven light no longer
    shift tesseract's single global threshold."""
    from PIL import Image, ImageFilter

    pixels = np.ascontiguousarray(image.reshape(image.shape[:2]))
    picture = Image.fromarray(pixels)
    width, height = picture.size
    small = picture.resize((max(width // 8, 1), max(height // 8, 1)), Image.Resampling.BOX)
    small = small.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(3))
    background = np.asarray(
        small.resize((width, height), Image.Resampling.BILINEAR), dtype=np.float32
    )
    flat = pixels.astype(np.float32) / np.maximum(background, 1.0) * 255.0
    return np.clip(flat, 0.0, 255.0).astype(np.uint8)


RULE = 0.25  # inches: a dark run this long along a row or a column may be a rule...

RULE_WIDTH = 0.02  # inches: ...when it is at most this thick across (a glyph's stroke is thicker)

DARK = 160  # gray below which a pixel is ink for finding rules

ACROSS = 0.8  # share of a box's crop a line crosses to be a rule (`lines_cut`)


def unruled(image: np.ndarray[Any, Any], dpi: int) -> np.ndarray[Any, Any]:
    """The page with its table and form rules painted over with paper.

    Tesseract takes a lone letter or a short number tight against a cell's rule for part
    of the rule: on a clean scan it dropped a code "P" beside its column rule on every row
    of a schedule, though a person reads it at a glance. Removing lines before OCR is what
    form-reading pipelines do. A rule is a dark run at least RULE long along a row (or a
    column) and at most RULE_WIDTH thick across it; strokes of glyphs below about 18 pt are
    shorter, and longer strokes of larger type are thicker, so text stays as it is."""
    from scipy import ndimage

    pixels = np.ascontiguousarray(image.reshape(image.shape[:2]))
    dark = (pixels < DARK).astype(np.uint8)
    length = max(3, round(RULE * dpi))
    across = max(1, round(RULE_WIDTH * dpi)) + 1  # one pixel thicker than a rule can be
    rules = np.zeros(dark.shape, dtype=bool)
    for along, other in ((1, 0), (0, 1)):
        lines = ndimage.maximum_filter1d(
            ndimage.minimum_filter1d(dark, length, axis=along), length, axis=along
        )
        thick = ndimage.maximum_filter1d(
            ndimage.minimum_filter1d(lines, across, axis=other), across, axis=other
        )
        rules |= lines > thick
    if not rules.any():
        return pixels
    # The rule's anti-aliased fringe goes with it.
    rules = ndimage.maximum_filter(rules.astype(np.uint8), size=3).astype(bool)
    cleaned = pixels.copy()
    cleaned[rules] = 255
    return cleaned


def lines_cut(crop: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A box's crop without the rules crossing it. The crop is the value's box plus a margin:
    no glyph covers ACROSS of its height (a bracket, the tallest, covers about 70 %), and a
    cell's rule does, even one too short for `unruled` (the divider of a short row beside
    a lone digit; its ends may have gone with the row's rules)."""
    dark = crop < DARK
    height, width = crop.shape
    rows = np.flatnonzero(dark.sum(axis=1) >= ACROSS * width)
    cols = np.flatnonzero(dark.sum(axis=0) >= ACROSS * height)
    if not rows.size and not cols.size:
        return crop
    cut = crop.copy()
    for index in rows:
        cut[max(0, index - 1) : index + 2, :] = 255
    for index in cols:
        cut[:, max(0, index - 1) : index + 2] = 255
    return cut


def turned_corners(
    corners: list[tuple[float, float]], angle: float, width: int, height: int
) -> list[tuple[float, float]]:
    """`corners` (pixels of a page image of `width` x `height`) on the image turned back by
    `angle` (`deskewed`): the inverse of `turned_back`."""

    cx, cy = width / 2, height / 2
    radians = math.radians(angle)
    cos, sin = math.cos(radians), math.sin(radians)
    return [
        (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
        for x, y in corners
    ]


def upright(
    corners: list[tuple[float, float]], grow: float, angle: float, width: int, height: int
) -> tuple[int, int, int, int]:
    """The pixel rectangle of a page image of `width` x `height` turned back by `angle`
    (`deskewed`) holding `corners` (pixels of the page image), grown by `grow` pixels."""

    moved = turned_corners(corners, angle, width, height)
    xs, ys = [x for x, _ in moved], [y for _, y in moved]
    return (
        max(0, math.floor(min(xs) - grow)),
        max(0, math.floor(min(ys) - grow)),
        min(width, math.ceil(max(xs) + grow)),
        min(height, math.ceil(max(ys) + grow)),
    )


# A box whose own line is turned more than this many degrees on the deskewed page (a page
# photographed at a slant, whose lines no single deskew angle levels) is cut along its line.
LEVEL_MIN = 0.5


def levelled(
    crop: np.ndarray[Any, Any], corners: list[tuple[float, float]], grow: float
) -> np.ndarray[Any, Any]:
    """`crop` with the box whose `corners` (lower-left, lower-right, upper-right, upper-left
    of its text, pixels of `crop`) it holds cut along the box's own line: the box's
    parallelogram mapped onto an upright rectangle grown by `grow` pixels (bicubic, white
    beyond the crop), as a person turns the sheet to read a slanted line, when that line is
    turned more than LEVEL_MIN degrees; otherwise `crop` as it is."""

    from PIL import Image

    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    turned = math.degrees(math.atan2(y1 - y0, x1 - x0))
    if abs(turned) <= LEVEL_MIN or crop.size == 0:
        return crop
    along, down = math.hypot(x2 - x3, y2 - y3), math.hypot(x0 - x3, y0 - y3)
    if along < 1.0 or down < 1.0:
        return crop
    ex, ey = ((x2 - x3) / along, (y2 - y3) / along), ((x0 - x3) / down, (y0 - y3) / down)
    width = max(along, math.hypot(x1 - x0, y1 - y0))
    height = max(down, math.hypot(x1 - x2, y1 - y2))
    size = (math.ceil(width + 2 * grow), math.ceil(height + 2 * grow))
    data = (
        ex[0],
        ey[0],
        x3 - grow * (ex[0] + ey[0]),
        ex[1],
        ey[1],
        y3 - grow * (ex[1] + ey[1]),
    )
    picture = Image.fromarray(np.ascontiguousarray(crop))
    cut = picture.transform(
        size, Image.Transform.AFFINE, data, Image.Resampling.BICUBIC, fillcolor=255
    )
    return np.asarray(cut)


def sharpened(crop: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """`crop` SHARPEN_SCALE times the size (Lanczos), then unsharp-masked (SHARPEN)."""
    from PIL import Image, ImageFilter

    if crop.size == 0:
        return crop
    image = Image.fromarray(np.ascontiguousarray(crop))
    size = (image.width * SHARPEN_SCALE, image.height * SHARPEN_SCALE)
    image = image.resize(size, Image.Resampling.LANCZOS).filter(ImageFilter.UnsharpMask(**SHARPEN))
    return np.asarray(image, dtype=np.uint8)


def ink_lines(crop: np.ndarray[Any, Any]) -> int:
    """How many lines of ink `crop` holds: runs of rows with a dark pixel, apart by rows
    with none, each at least a fifth of the tallest run high (a speck or the tail of a
    blurred stroke is not a line)."""
    if crop.size == 0:
        return 0
    inked = (crop < DARK).any(axis=1).astype(np.int8)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], inked, [0]))))
    heights = edges[1::2] - edges[0::2]
    if heights.size == 0:
        return 0
    return int((heights >= max(2, heights.max() / 5)).sum())


# A line taller than BIG_TYPE pixels (a watermark's letters, several times a text line) is
# read at LINE_HEIGHT pixels, after a grey dilation of about one BIG_STROKE of its height
# has filled in the thin strokes of the text it is drawn over (its own strokes are broad),
# and what is still darker than FAINT (a heavy rule or a black box, never a watermark's
# faint ink) is set to paper.
BIG_TYPE = 240

LINE_HEIGHT = 160

BIG_STROKE = 0.012

FAINT = 128


def big_type(strip: Any) -> tuple[Any, float]:
    """A level line prepared for tesseract (`BIG_TYPE`), and the factor it was scaled by."""
    from PIL import Image, ImageFilter, ImageOps

    if strip.height <= BIG_TYPE:
        return strip, 1.0
    size = max(5, 2 * round(BIG_STROKE * strip.height / 2) + 1)
    factor = LINE_HEIGHT / strip.height
    shrunk = np.array(
        strip.filter(ImageFilter.MaxFilter(size)).resize(
            (max(1, round(strip.width * factor)), LINE_HEIGHT), Image.Resampling.BOX
        )
    )
    shrunk[shrunk < FAINT] = 255
    return ImageOps.autocontrast(Image.fromarray(shrunk), cutoff=1), factor


def turned_back(words: list[Word], angle: float, width: int, height: int) -> list[Word]:
    """Words read on the deskewed image, placed back on the page image: each centre turned by
    `angle` about the image's centre (the box keeps its size)."""
    if not angle:
        return words

    radians = math.radians(angle)
    cos, sin = math.cos(radians), math.sin(radians)
    cx, cy = width / 2, height / 2
    moved = []
    for word in words:
        x, y = (word.left + word.right) / 2 - cx, (word.top + word.bottom) / 2 - cy
        nx, ny = cx + x * cos + y * sin, cy - x * sin + y * cos
        half_w, half_h = (word.right - word.left) / 2, (word.bottom - word.top) / 2
        moved.append(Word(word.text, nx - half_w, ny - half_h, nx + half_w, ny + half_h))
    return moved
