"""Page and text metrics: the page margin, the fonts by role, glyph extents, and how wide a
string is, how it wraps and what size fits it in a width (reportlab's font metrics)."""

from __future__ import annotations

from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from packetbench.generator.errors import LayoutError
from packetbench.generator.render import fonts

MARGIN = 36.0
REGULAR = "Helvetica"
BOLD = "Helvetica-Bold"
MONO = "Courier"
MONO_BOLD = "Courier-Bold"
# Glyph extents of Helvetica relative to the font size, slightly generous.
ASCENT = 0.76
DESCENT = 0.22
# A field's bbox is pulled in horizontally so it never touches a neighbouring string.
INSET = 0.5
MIN_FONT = 4.5


@lru_cache(maxsize=65536)
def width_of(text: str, font: str, size: float) -> float:
    """Width of `text` in points; cached because labels and codes repeat on every page."""
    fonts.ensure(font)
    return float(stringWidth(text, font, size))


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; words are never split (a split word would not read back whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and width_of(candidate, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines or [""]


def fit(
    text: str, font: str, size: float, width: float, allow_wrap: bool
) -> tuple[float, list[str]]:
    """Font size and lines that fit `width`: shrink to MIN_FONT first, then wrap if allowed."""
    if width_of(text, font, size) <= width:
        return size, [text]
    longest_word = max((width_of(w, font, 1.0) for w in text.split()), default=0.0)
    if allow_wrap:
        # Wrap at the given size, shrinking only as far as needed for the longest word.
        size = min(size, max(MIN_FONT, width / longest_word if longest_word else size))
        return size, wrap(text, font, size, width)
    full = width_of(text, font, 1.0)
    if full * MIN_FONT <= width:
        return width / full, [text]
    size = min(size, max(MIN_FONT, width / longest_word if longest_word else size))
    return size, wrap(text, font, size, width)


def _check_drawable(doc_id: str, text: str, font: str) -> None:
    bad = fonts.missing(font, text)
    if bad is not None:
        raise LayoutError(f"{doc_id}: {text!r} has {bad!r}, which font {font} cannot draw")


def text_bbox(
    x0: float, bottom_baseline: float, x1: float, top_baseline: float, size: float
) -> list[float]:
    """The box a located string occupies, pulled in horizontally by INSET."""
    inset = min(INSET, (x1 - x0) / 4)
    return [
        round(x0 + inset, 2),
        round(bottom_baseline - DESCENT * size, 2),
        round(x1 - inset, 2),
        round(top_baseline + ASCENT * size, 2),
    ]
