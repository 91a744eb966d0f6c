"""OCR of rendered pages, for pages whose text layer is missing or deliberately unreliable.

A page is rendered with pypdfium2 (300 dpi, grayscale) and read by the `tesseract` binary
(TSV output: every word with its box; no Python binding needed). A field is found when the
words whose centres fall inside its bbox (scaled to pixels, with a small margin) equal its
`rendered_as` under `normalize.string` (spaces aside: OCR drops and adds them) and `folded`
(what tesseract's English model cannot tell apart); failing that,
when its normalized text occurs in the page's OCR text as whole words. The second rule is
weaker, so its finds are counted apart. A visible string is found by the second rule, or with
its spaces removed when OCR merged its words ("SQ FT" read as "SQFT"). A checkbox is a mark,
not a word (OCR reads an empty box as "LJ" or "[J"): it is read as ticked when enough of its
interior is dark.

Tesseract runs single-threaded (OMP_THREAD_LIMIT=1, unless the caller set it): its OpenMP
threads made a page 4.6 times slower on the 2-core reference machine. Pages run in parallel
instead, one tesseract process per core. Boxes map to pixels through the page's crop box; a
page rotated by /Rotate would need the rotation applied too (no pattern rotates pages yet).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmark.errors import BadInput, UsageError
from benchmark.score import normalize

DPI = 300
MARGIN = 2.0  # points added around a bbox: OCR boxes are looser than glyph boxes
# Page segmentation: tesseract's default, fully automatic. On rasterized canonical pages it
# found 97.9% of located values against 94.4% for "sparse text" (11), which drops lone digits.
PSM = "3"
INK = 0.04  # a checkbox interior with at least this share of dark pixels is ticked
MARK_INSET = 0.5  # points trimmed off a checkbox interior, clear of its border's anti-aliasing


# Tokens with a digit are identifiers or numbers: a letter O, I or l in one is drawn like the
# digit beside it in Helvetica ("O25896314"), and OCR reads it as that digit.
_AS_DIGIT = str.maketrans({"o": "0", "i": "1", "l": "1"})


def folded(text: str) -> str:
    """`normalize.string` without what tesseract's English model cannot read apart.

    Its alphabet has no accented letters (it reads "Simön" as "Simon" or "Sim6n"; both are
    legible to a person); a capital I and a small l are one glyph in Helvetica; in a token
    with a digit, O/I/l are drawn like 0/1. The audit asks whether a scan is legible, so
    these are folded on both sides; anything else still has to match.
    """
    plain = normalize.string("".join(c for c in unicodedata.normalize("NFKD", text)
                                     if not unicodedata.combining(c)))
    return " ".join(t.translate(_AS_DIGIT) if any(c.isdigit() for c in t)
                    else t.replace("l", "i") for t in plain.split())


def same_text(read: str, expected: str) -> bool:
    """Whether OCR's `read` is `expected`, spaces aside (OCR drops and adds them), with or
    without folding: folding goes by token, and OCR glues "0646 Logan" into one."""
    return any(form(read).replace(" ", "") == form(expected).replace(" ", "")
               for form in (folded, normalize.string))


@dataclass(frozen=True)
class Word:
    text: str
    left: float
    top: float
    right: float
    bottom: float  # pixels, origin top-left


class Tesseract:
    """The tesseract binary; constructing one fails with a usage error when it is absent."""

    def __init__(self, binary: str | None = None) -> None:
        found = binary or shutil.which("tesseract")
        if not found:
            raise UsageError("--ocr needs the tesseract binary, which is not installed "
                             "(Debian/Ubuntu: apt-get install tesseract-ocr)")
        self.binary = found

    def words(self, image: np.ndarray[Any, Any], dpi: int, source: str) -> list[Word]:
        """The words tesseract reads on a grayscale image, in its reading order."""
        height, width = image.shape[:2]
        pgm = b"P5\n%d %d\n255\n" % (width, height) + np.ascontiguousarray(
            image.reshape(height, width), dtype=np.uint8).tobytes()
        env = {**os.environ, "OMP_THREAD_LIMIT": os.environ.get("OMP_THREAD_LIMIT", "1")}
        try:
            run = subprocess.run(
                [self.binary, "stdin", "stdout", "--dpi", str(dpi), "--psm", PSM, "tsv"],
                input=pgm, capture_output=True, check=False, timeout=600, env=env)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise BadInput(f"{source}: tesseract failed ({error})") from None
        if run.returncode != 0:
            lines = run.stderr.decode("utf-8", "replace").strip().splitlines()
            reason = lines[-1] if lines else f"exit code {run.returncode}"
            raise BadInput(f"{source}: tesseract failed ({reason})")
        return _parse_tsv(run.stdout.decode("utf-8", "replace"))


def misread_everywhere(scan: OcrPage, text: str, misreadings: Counter[str]) -> bool:
    """Whether every time OCR reads `text` on the page, it reads it in the box of a value the
    page shows otherwise (`misreadings`: folded OCR readings of the page's boxes that did not
    match their values). An invisible OCR layer's false words are OCR-style confusions of
    the words they cover ("$3,001" -> "$8,001"); tesseract can make the same confusion on
    the image, which proves nothing about the hidden text being visible."""
    form = folded(text)
    return bool(form) and 0 < scan.count(text) <= misreadings[form]


def _parse_tsv(tsv: str) -> list[Word]:
    words: list[Word] = []
    for line in tsv.splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
            continue
        left, top, width, height = (float(c) for c in cells[6:10])
        words.append(Word(cells[11], left, top, left + width, top + height))
    return words


class OcrPage:
    """The OCR words of one page and the page-to-pixel mapping of its PDF coordinates."""

    def __init__(self, words: Sequence[Word], scale: float, left: float, top: float,
                 image: np.ndarray[Any, Any] | None = None) -> None:
        self.words = list(words)
        self.image = image  # grayscale, 0 = black
        self.scale, self.left, self.top = scale, left, top
        self.text = folded(" ".join(w.text for w in self.words))
        self._padded = f" {self.text} "
        self._spaceless = self.text.replace(" ", "")
        centres = np.array([((w.left + w.right) / 2, (w.top + w.bottom) / 2) for w in self.words],
                           dtype=np.float64).reshape(-1, 2)
        self._cx, self._cy = centres[:, 0], centres[:, 1]
        self._read: dict[tuple[float, ...], str] = {}

    def _inside(self, region: Sequence[float]) -> np.ndarray[Any, Any]:
        """Which words' centres lie in `region`: a bbox (4 numbers) or a scanned page's quad
        (8: four corners in order), grown by MARGIN points."""
        if len(region) != 8:
            left, top, right, bottom = self._pixels(region, MARGIN)
            return ((self._cx >= left) & (self._cx <= right) & (self._cy >= top)
                    & (self._cy <= bottom))
        xs = np.array([(float(v) - self.left) * self.scale for v in region[0::2]])
        ys = np.array([(self.top - float(v)) * self.scale for v in region[1::2]])
        # Grow the quad about its centre by MARGIN points, then test each edge's side.
        cx, cy = xs.mean(), ys.mean()
        grow = MARGIN * self.scale
        dx, dy = xs - cx, ys - cy
        length = np.hypot(dx, dy)
        xs = xs + dx / np.maximum(length, 1e-9) * grow * 1.5
        ys = ys + dy / np.maximum(length, 1e-9) * grow * 1.5
        inside = np.ones(len(self.words), dtype=bool)
        # The corners run counter-clockwise in PDF space, so clockwise in pixels: every
        # point inside is on the same side of each edge.
        sign = None
        for i in range(4):
            x0, y0, x1, y1 = xs[i], ys[i], xs[(i + 1) % 4], ys[(i + 1) % 4]
            cross = (x1 - x0) * (self._cy - y0) - (y1 - y0) * (self._cx - x0)
            side = (x1 - x0) * (cy - y0) - (y1 - y0) * (cx - x0)
            sign = np.sign(side) if sign is None else sign
            inside &= cross * sign >= 0
        return inside

    def _pixels(self, bbox: Sequence[float], margin: float) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in pixels of `bbox` (PDF points, origin bottom-left)
        grown by `margin` points (shrunk when negative)."""
        x0, y0, x1, y1 = (float(v) for v in bbox)
        return ((min(x0, x1) - margin - self.left) * self.scale,
                (self.top - max(y0, y1) - margin) * self.scale,
                (max(x0, x1) + margin - self.left) * self.scale,
                (self.top - min(y0, y1) + margin) * self.scale)

    def in_box(self, bbox: Sequence[float]) -> str:
        """The words whose centres lie in `bbox` (PDF points, origin bottom-left; or a quad)
        + margin. Remembered per box: an attacked page reads each box twice (for the hidden
        text check, then for the value)."""
        key = tuple(float(v) for v in bbox)
        read = self._read.get(key)
        if read is None:
            inside = self._inside(bbox)
            read = " ".join(self.words[i].text for i in np.flatnonzero(inside).tolist())
            self._read[key] = read
        return read

    def on_page(self, expected: str) -> bool:
        """Whether `expected`, normalized, occurs in the page's OCR text as whole words."""
        form = folded(expected)
        return not form or f" {form} " in self._padded

    def has_string(self, text: str) -> bool:
        """A visible string: on the page as whole words, or with OCR having merged its words."""
        form = folded(text)
        return self.on_page(text) or (" " in form and form.replace(" ", "") in self._spaceless)

    def shows(self, text: str) -> bool:
        """Whether the page shows `text` (hidden text looked for): as whole words, or its
        words merged into one whole word. Never inside a longer word: "$8,001" folds to
        "8 001", and "8001" is inside many a claim number with its spaces removed."""
        form = folded(text)
        return bool(form) and (self.on_page(text)
                               or f" {form.replace(' ', '')} " in self._padded)

    def count(self, text: str) -> int:
        """How many times `text`, normalized, occurs in the page's OCR text as whole words."""
        form = folded(text)
        return self._padded.count(f" {form} ") if form else 0

    def ink(self, bbox: Sequence[float]) -> float:
        """The share of dark pixels inside `bbox`, trimmed by MARK_INSET points."""
        if self.image is None:
            return 0.0
        if len(bbox) == 8:
            # A scanned box is turned: read the middle of it, clear of its turned border.
            xs, ys = bbox[0::2], bbox[1::2]
            cx, cy = sum(xs) / 4, sum(ys) / 4
            half = (max(xs) - min(xs)) * 0.3
            bbox = [cx - half, cy - half, cx + half, cy + half]
        left, top, right, bottom = (round(v) for v in self._pixels(bbox, -MARK_INSET))
        region = self.image[max(top, 0):max(bottom, 0), max(left, 0):max(right, 0)]
        return float((region < 128).mean()) if region.size else 0.0

    def find_mark(self, bbox: Sequence[float], expected: str) -> tuple[bool, str]:
        """(found, what was seen) for a checkbox drawn ticked ("X") or empty ("")."""
        ink = self.ink(bbox)
        ticked = ink >= INK
        seen = f"{'ticked' if ticked else 'empty'} box ({ink:.0%} ink)"
        return ticked == bool(expected.strip()), seen

    def find(self, bbox: Sequence[float], expected: str) -> tuple[bool, bool, str]:
        """(found, found only on the page, text read in the box) for a located value."""
        read = self.in_box(bbox)
        form = folded(expected)
        if same_text(read, expected):
            return True, False, read
        if form and self.on_page(expected):
            return True, True, read
        return False, False, read


def _render(pdf: Any, number: int, dpi: int) -> tuple[np.ndarray[Any, Any], float, float]:
    page = pdf[number - 1]
    try:
        left, _bottom, _right, top = page.get_cropbox()
        image = page.render(scale=dpi / 72, grayscale=True).to_numpy()
    finally:
        page.close()
    return image, float(left), float(top)


def _deskewed(image: np.ndarray[Any, Any], angle: float) -> np.ndarray[Any, Any]:
    """The page image turned back by `angle` degrees (counter-clockwise as the page shows
    it), as any OCR pipeline deskews a scan before reading it."""
    from PIL import Image

    picture = Image.fromarray(np.ascontiguousarray(image.reshape(image.shape[:2])))
    turned = picture.rotate(-angle, resample=Image.Resampling.BILINEAR, fillcolor=255)
    return np.asarray(turned)


def _flattened(image: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The page with its paper made even: divided by an estimate of the background (the
    brightest nearby pixels, smoothed), so dark edges, shadows and uneven light no longer
    shift tesseract's single global threshold."""
    from PIL import Image, ImageFilter

    pixels = np.ascontiguousarray(image.reshape(image.shape[:2]))
    picture = Image.fromarray(pixels)
    width, height = picture.size
    small = picture.resize((max(width // 8, 1), max(height // 8, 1)), Image.Resampling.BOX)
    small = small.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(3))
    background = np.asarray(small.resize((width, height), Image.Resampling.BILINEAR),
                            dtype=np.float32)
    flat = pixels.astype(np.float32) / np.maximum(background, 1.0) * 255.0
    return np.clip(flat, 0.0, 255.0).astype(np.uint8)


def _turned_back(words: list[Word], angle: float, width: int, height: int) -> list[Word]:
    """Words read on the deskewed image, placed back on the page image: each centre turned by
    `angle` about the image's centre (the box keeps its size)."""
    if not angle:
        return words
    import math

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


def read_pages(pdf: Any, numbers: Sequence[int], engine: Tesseract, source: Path,
               dpi: int = DPI, angles: dict[int, float] | None = None,
               ) -> Iterator[tuple[int, OcrPage]]:
    """(page number, OCR) for pages `numbers` (1-based) of an open pypdfium2 document.

    A page with an angle in `angles` (a scan, turned by that many degrees) has its paper
    evened out and is deskewed before tesseract reads it, and the words are placed back where
    the page shows them.
    pdfium renders in this thread, a batch of one page per core at a time; tesseract reads
    the batch in parallel processes.
    """
    workers = max(1, os.cpu_count() or 1)
    angles = angles or {}

    def read(item: tuple[int, np.ndarray[Any, Any], float, float]) -> list[Word]:
        number, image = item[0], item[1]
        if number not in angles:
            found = engine.words(image, dpi, f"{source} page {number}")
            return found
        angle = angles[number]
        flat = _flattened(image)
        turned = _deskewed(flat, angle) if angle else flat
        found = engine.words(turned, dpi, f"{source} page {number}")
        return _turned_back(found, angle, image.shape[1], image.shape[0])

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for start in range(0, len(numbers), workers):
            batch = [(number, *_render(pdf, number, dpi))
                     for number in numbers[start:start + workers]]
            words = pool.map(read, batch)
            for (number, image, left, top), found in zip(batch, words, strict=True):
                yield number, OcrPage(found, dpi / 72, left, top, image.reshape(image.shape[:2]))
