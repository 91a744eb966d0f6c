"""One OCR'd page (`OcrPage`): its words, the mapping of PDF points to its pixels, and the rules
by which a value is found on it.

Boxes map to pixels through the page's crop box; a page rotated by /Rotate would need the
rotation applied too (no pattern rotates pages yet). A field is found when the words whose
centres fall inside its bbox (scaled to pixels, with a small margin) equal its `rendered_as`
under `normalize.string` (spaces aside: OCR drops and adds them) and `folded` (what
tesseract's English model cannot tell apart); failing that, when its normalized text occurs
in the page's OCR text as whole words. The second rule is weaker, so its finds are counted
apart. A visible string is found by the second rule, or with its spaces removed when OCR
merged its words ("SQ FT" read as "SQFT"). A checkbox is a mark, not a word (OCR reads an
empty box as "LJ" or "[J"): it is read as ticked when enough of its interior is dark.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from packetbench.reading.boxes import BoxReader
from packetbench.reading.tesseract import MARGIN, Word
from packetbench.reading.text import folded, same_text

WORD_GAP = 0.8  # the widest gap between two words of one phrase, in word heights

INK = 0.04  # a checkbox interior with at least this share of dark pixels is ticked
MARK_INSET = 0.5  # points trimmed off a checkbox interior, clear of its border's anti-aliasing


def _beside(first: Word, then: Word) -> bool:
    """Whether `then` follows `first` on its line a word space away (not a column away)."""
    height = max(first.bottom - first.top, then.bottom - then.top, 1.0)
    overlap = min(first.bottom, then.bottom) - max(first.top, then.top)
    gap = then.left - first.right
    return overlap >= 0.5 * min(first.bottom - first.top, then.bottom - then.top) and (
        -0.5 * height <= gap <= WORD_GAP * height
    )


# Joins the pieces folding splits one OCR word into ("68,800" folds to "68 800"): a match of
# hidden text must start and end at a word's edges, never at a piece inside it.
WITHIN = "~"


def folded_word(text: str) -> str:
    """One OCR word folded, its pieces joined by WITHIN ("$68,800" -> "68~800")."""
    return folded(text).replace(" ", WITHIN)


def _phrases(words: Sequence[Word]) -> str:
    """The page's words folded (`folded_word`), phrase by phrase (runs of words side by
    side in reading order), the phrases joined by " | " so that no whole-word match runs
    from one into the next."""
    phrases: list[list[str]] = []
    for index, word in enumerate(words):
        if index == 0 or not _beside(words[index - 1], word):
            phrases.append([])
        if form := folded_word(word.text):
            phrases[-1].append(form)
    return " | ".join(" ".join(phrase) for phrase in phrases if phrase)


def whole_words(form: str) -> re.Pattern[str]:
    """The folded text `form` as a run of whole OCR words: its pieces may fall inside one
    word or across words side by side, but the run starts and ends at word edges. So a
    hidden "800" is not seen in a shown "52,800" (one word, whose last piece it is), while a
    hidden "68,800" is seen in a shown "68,800", or in "68," and "800" read as two words."""
    return re.compile(
        "(?<= )" + f"[ {WITHIN}]".join(re.escape(piece) for piece in form.split()) + "(?= )"
    )


class OcrPage:
    """The OCR words of one page and the page-to-pixel mapping of its PDF coordinates."""

    def __init__(
        self,
        words: Sequence[Word],
        scale: float,
        left: float,
        top: float,
        image: np.ndarray[Any, Any] | None = None,
        reader: BoxReader | None = None,
    ) -> None:
        self.words = list(words)
        self.image = image  # grayscale, 0 = black
        self.reader = reader
        self.scale, self.left, self.top = scale, left, top
        self.text = folded(" ".join(w.text for w in self.words))
        self._padded = f" {self.text} "
        self._spaceless = self.text.replace(" ", "")
        centres = np.array(
            [((w.left + w.right) / 2, (w.top + w.bottom) / 2) for w in self.words], dtype=np.float64
        ).reshape(-1, 2)
        self._cx, self._cy = centres[:, 0], centres[:, 1]
        self._read: dict[tuple[float, ...], str] = {}

    def _inside(self, region: Sequence[float]) -> np.ndarray[Any, Any]:
        """Which words' centres lie in `region`: a bbox (4 numbers) or a scanned page's quad
        (8: four corners in order), grown by MARGIN points."""
        if len(region) != 8:
            left, top, right, bottom = self._pixels(region, MARGIN)
            return (
                (self._cx >= left) & (self._cx <= right) & (self._cy >= top) & (self._cy <= bottom)
            )
        xs, ys = (np.array(axis) for axis in zip(*self.corners(region), strict=True))
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
        return (
            (min(x0, x1) - margin - self.left) * self.scale,
            (self.top - max(y0, y1) - margin) * self.scale,
            (max(x0, x1) + margin - self.left) * self.scale,
            (self.top - min(y0, y1) + margin) * self.scale,
        )

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
        words merged into one whole word, within one phrase (words side by side on a line, as
        a string is drawn). Never inside a longer word: "800" is no word of "52,800" (which
        folds to "52 800"), and "$8,001" merged is "8001", inside many a claim number; never
        across phrases: "2.15" folds to "2 15", the "2" ending one table row and the "15"
        starting the next."""
        form = folded(text)
        return bool(form) and (
            whole_words(form).search(self._phrases) is not None
            or f" {form.replace(' ', '')} " in self._phrases
        )

    @cached_property
    def _phrases(self) -> str:
        """The page's phrases, padded (made when hidden text is first looked for)."""
        return f" {_phrases(self.words)} "

    @cached_property
    def _words_text(self) -> str:
        """The page's OCR words folded (`folded_word`), padded: where `count` looks."""
        return f" {' '.join(w for w in map(folded_word, (w.text for w in self.words)) if w)} "

    def count(self, text: str) -> int:
        """How many times `text`, normalized, occurs in the page's OCR text as whole words
        (never as the last pieces of a longer word: see `shows`)."""
        form = folded(text)
        return len(whole_words(form).findall(self._words_text)) if form else 0

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
        region = self.image[max(top, 0) : max(bottom, 0), max(left, 0) : max(right, 0)]
        return float((region < 128).mean()) if region.size else 0.0

    def find_mark(self, bbox: Sequence[float], expected: str) -> tuple[bool, str]:
        """(found, what was seen) for a checkbox drawn ticked ("X") or empty ("")."""
        ink = self.ink(bbox)
        ticked = ink >= INK
        seen = f"{'ticked' if ticked else 'empty'} box ({ink:.0%} ink)"
        return ticked == bool(expected.strip()), seen

    def corners(self, region: Sequence[float]) -> list[tuple[float, float]]:
        """A bbox's or a quad's corners in pixels of the page image."""
        if len(region) == 8:
            points = list(zip(region[0::2], region[1::2], strict=True))
        else:
            x0, y0, x1, y1 = region
            points = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        return [
            ((float(x) - self.left) * self.scale, (self.top - float(y)) * self.scale)
            for x, y in points
        ]

    def reread(
        self, regions: Sequence[Sequence[float]], sharpen: bool = False
    ) -> list[tuple[str, ...]]:
        """What OCR reads in each region on its own, one reading per way of reading (see
        `BoxReader`; `sharpen`: each region sharpened); none when the page has no reader."""
        if self.reader is None or not regions:
            return [() for _ in regions]
        corners = [self.corners(region) for region in regions]
        return self.reader.read(corners, MARGIN * self.scale, sharpen)

    def second(
        self, regions: Sequence[Sequence[float]], wanted: Sequence[str] | None = None
    ) -> list[tuple[str, ...]]:
        """What the second engine reads in each region on its own, cut out as `reread` cuts
        it (`ppocr.PpOcr.read_box`; `wanted`: what each should read, its lines not looked for
        when its line reads that); nothing when the page has no reader."""
        if self.reader is None or not regions:
            return [() for _ in regions]
        corners = [self.corners(region) for region in regions]
        return self.reader.second(corners, MARGIN * self.scale, wanted)

    def find(self, bbox: Sequence[float], expected: str) -> tuple[bool, bool, str]:
        """(found, found only on the page, text read in the box) for a located value."""
        read = self.in_box(bbox)
        form = folded(expected)
        if same_text(read, expected):
            return True, False, read
        if form and self.on_page(expected):
            return True, True, read
        return False, False, read
