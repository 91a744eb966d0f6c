"""Readers of a whole page that know nothing of the truth: the difficulty card's baselines.

The audit reads a value in its box, at the place the truth says it is drawn; these readers get
the page image alone, as an extraction pipeline or a vision model does, at the resolution they
are given (the card renders pages at 150 dpi, what `extract --input images` sends a model,
and at 300 dpi).

- naive: Tesseract on the page as it is (the card's `_ocr_page`).
- careful (`CarefulTesseract`): what any document pipeline does before OCR. The paper is
  evened out (divided by its smoothed brightest pixels), the page turned upright by
  Tesseract's own orientation detection (`--psm 0`), deskewed by the angle at which its ink
  falls into the sharpest rows (a projection profile), enlarged to 300 dpi when given less,
  thresholded by Otsu's method, then read whole.
- ppocr (`PagePpOcr`): a second, independent engine, PP-OCRv4 as packaged by
  `rapidocr-onnxruntime` (its models ship inside the package: nothing is downloaded), with
  its own text detection and 180-degree line classifier, on the page as it is.

Each returns words in the pixels of the image it was given, so `OcrPage.find` (the audit's
matching rule) judges every reader alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from packetbench.reading import ppocr
from packetbench.reading.imaging import flattened
from packetbench.reading.tesseract import Tesseract, Word

Matrix = np.ndarray[Any, Any]
TARGET_DPI = 300  # the careful reader enlarges a page given at less than this
SKEW_RANGE = 15.0  # degrees either way the deskew looks for the page's lines
SKEW_STEP = 0.5  # the coarse search's step, then refined to SKEW_FINE around the best
SKEW_FINE = 0.05
PROFILE_DPI = 100  # the resolution the skew is measured at (rows of text are ~10 px high)
PROFILE_POINTS = 80_000  # ink pixels sampled for the profile (seeded: the same every run)


def otsu(image: Matrix) -> int:
    """Otsu's threshold of a gray image: the level that best splits its histogram in two."""
    counts = np.bincount(image.ravel(), minlength=256).astype(np.float64)
    total = counts.sum()
    if total == 0:
        return 128
    levels = np.arange(256, dtype=np.float64)
    weight = np.cumsum(counts)
    mass = np.cumsum(counts * levels)
    below = weight / total
    above = 1.0 - below
    mean_below = np.divide(mass, weight, out=np.zeros(256), where=weight > 0)
    rest = weight[-1] - weight
    mean_above = np.divide(mass[-1] - mass, rest, out=np.zeros(256), where=rest > 0)
    between = below * above * (mean_below - mean_above) ** 2
    return int(np.argmax(between))


def skew(image: Matrix, dpi: int) -> float:
    """The angle (degrees, counter-clockwise as the page shows it) the page's text lines are
    turned by: the angle whose row profile of the ink is sharpest (most variance), searched
    within SKEW_RANGE. 0 on a page with too little ink to tell."""
    step = max(1, round(dpi / PROFILE_DPI))
    small = image[::step, ::step]
    ys, xs = np.nonzero(small < otsu(small))
    if len(xs) < 200:
        return 0.0
    if len(xs) > PROFILE_POINTS:
        keep = np.random.default_rng(0).choice(len(xs), PROFILE_POINTS, replace=False)
        xs, ys = xs[keep], ys[keep]
    x = xs.astype(np.float64) - small.shape[1] / 2
    y = ys.astype(np.float64) - small.shape[0] / 2

    def sharpness(angle: float) -> float:
        radians = math.radians(angle)
        # The row a point falls in once the page is turned back by `angle`.
        rows = np.round(y * math.cos(radians) + x * math.sin(radians)).astype(np.int64)
        counts = np.bincount(rows - rows.min())
        return float(np.dot(counts, counts))

    def best(angles: Sequence[float]) -> float:
        scores = [sharpness(a) for a in angles]
        return float(angles[int(np.argmax(scores))])

    coarse = best(list(np.arange(-SKEW_RANGE, SKEW_RANGE + 1e-9, SKEW_STEP)))
    fine = np.arange(coarse - SKEW_STEP, coarse + SKEW_STEP + 1e-9, SKEW_FINE)
    return round(best([float(a) for a in fine]), 2)


def _map(matrix: Matrix, words: Sequence[Word]) -> list[Word]:
    """Words of a processed image put back on the image it was made from (`matrix`: processed
    pixels -> original pixels): each word's box becomes the upright box of its moved corners."""
    out = []
    for word in words:
        corners = np.array(
            [
                [word.left, word.top, 1.0],
                [word.right, word.top, 1.0],
                [word.right, word.bottom, 1.0],
                [word.left, word.bottom, 1.0],
            ]
        )
        moved = corners @ matrix.T
        xs, ys = moved[:, 0], moved[:, 1]
        out.append(
            Word(word.text, float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))
        )
    return out


def _quarter_turn(turns: int, width: int, height: int) -> Matrix:
    """Pixels of `np.rot90(image, turns)` -> pixels of `image` (width x height)."""
    turns %= 4
    if turns == 0:
        return np.eye(3)
    if turns == 1:  # counter-clockwise: (x, y) came from (width - 1 - y, x)
        return np.array([[0.0, -1.0, width - 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    if turns == 2:
        return np.array([[-1.0, 0.0, width - 1.0], [0.0, -1.0, height - 1.0], [0.0, 0.0, 1.0]])
    return np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, height - 1.0], [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class Careful:
    """How the careful reader turned and deskewed a page (for the card's per-page record)."""

    rotate: int  # degrees clockwise it turned the page (Tesseract's orientation detection)
    skew: float  # degrees it turned the page back by
    scale: float  # how much it enlarged the page


class CarefulTesseract:
    """Tesseract after the page is evened out, turned upright, deskewed, enlarged and
    thresholded (see the module's docstring)."""

    def __init__(self, engine: Tesseract | None = None) -> None:
        self.engine = engine or Tesseract()

    def prepare(self, image: Matrix, dpi: int, source: str) -> tuple[Matrix, Matrix, Careful]:
        """(the page ready to read, its pixels -> `image`'s pixels, what was done)."""
        from PIL import Image

        flat = flattened(image)
        rotate = self.engine.orientation(flat, dpi, source)
        turns = (-rotate // 90) % 4  # np.rot90 turns counter-clockwise
        upright = np.ascontiguousarray(np.rot90(flat, turns))
        back_turn = _quarter_turn(turns, flat.shape[1], flat.shape[0])
        angle = skew(upright, dpi)
        scale = max(1.0, TARGET_DPI / dpi)
        height, width = upright.shape
        out_w, out_h = round(width * scale), round(height * scale)
        radians = math.radians(angle)
        cos, sin = math.cos(radians), math.sin(radians)
        # Output pixel -> upright pixel: about the centres, turned by `angle`, shrunk by scale.
        to_centre = np.array([[1.0, 0.0, -out_w / 2], [0.0, 1.0, -out_h / 2], [0.0, 0.0, 1.0]])
        shrink = np.diag([1 / scale, 1 / scale, 1.0])
        turn = np.array([[cos, sin, 0.0], [-sin, cos, 0.0], [0.0, 0.0, 1.0]])
        from_centre = np.array([[1.0, 0.0, width / 2], [0.0, 1.0, height / 2], [0.0, 0.0, 1.0]])
        to_upright = from_centre @ turn @ shrink @ to_centre
        picture = Image.fromarray(upright).transform(
            (out_w, out_h),
            Image.Transform.AFFINE,
            data=tuple(to_upright[:2].ravel().tolist()),
            resample=Image.Resampling.BICUBIC,
            fillcolor=255,
        )
        ready = np.asarray(picture)
        ready = np.where(ready > otsu(ready), 255, 0).astype(np.uint8)
        return ready, back_turn @ to_upright, Careful(rotate, angle, scale)

    def read(self, image: Matrix, dpi: int, source: str) -> tuple[list[Word], Careful]:
        """The words of a gray page image at `dpi`, in that image's pixels."""
        ready, back, done = self.prepare(image, dpi, source)
        words = self.engine.words(ready, round(dpi * done.scale), source)
        return _map(back, words), done


class PagePpOcr:
    """PP-OCRv4 (`reading.ppocr`, the audit's second reader) on a whole page. Its lines are cut
    into characters spread evenly along the line, so the audit's box rule can take the
    characters inside a value's box; `tokens` keeps each line's space-separated pieces for
    the whole-word rule anywhere on the page."""

    def __init__(self) -> None:
        self._engine = ppocr.engine()

    def read(self, image: Matrix, source: str) -> tuple[list[Word], list[Word]]:
        """(characters, tokens) read on a gray page image, in its pixels."""
        chars: list[Word] = []
        tokens: list[Word] = []
        for corners, text in self._engine.lines(image, source):
            line_chars, line_tokens = ppocr.split_line(corners, text)
            chars.extend(Word(piece, *box) for piece, box in line_chars)
            tokens.extend(Word(piece, *box) for piece, box in line_tokens)
        return chars, tokens
