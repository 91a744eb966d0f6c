"""Fonts a page may use: the standard PDF fonts, and TrueType fonts shipped in generator/fonts.

The standard fonts (Helvetica, Courier, ZapfDingbats) are not embedded and draw only what
their encoding holds (cp1252 for the text fonts). A shipped TrueType font is registered with
reportlab the first time a page uses it and embedded as a subset; it draws every character its
cmap maps. Asking a font for a character it lacks is a layout error, never a silent box.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FOLDER = Path(__file__).resolve().parent.parent / "fonts"

# Name on the page -> file under generator/fonts.
SHIPPED: dict[str, str] = {
    "DejaVuSans": "DejaVuSans.ttf",
}
DINGBATS = "ZapfDingbats"
STANDARD = frozenset(
    {
        "Helvetica",
        "Helvetica-Bold",
        "Helvetica-Oblique",
        "Helvetica-BoldOblique",
        "Courier",
        "Courier-Bold",
        "Times-Roman",
        "Times-Bold",
        DINGBATS,
    }
)


@cache
def _registered(name: str) -> TTFont:
    font = TTFont(name, str(FOLDER / SHIPPED[name]))
    pdfmetrics.registerFont(font)
    return font


def ensure(name: str) -> None:
    """Make font `name` usable on a canvas (registers a shipped font once per process)."""
    if name in SHIPPED:
        _registered(name)
    elif name not in STANDARD:
        raise KeyError(f"unknown font {name!r}")


@lru_cache(maxsize=65536)
def missing(name: str, text: str) -> str | None:
    """The first character of `text` font `name` cannot draw, or None when it draws all."""
    if name in SHIPPED:
        cmap = _registered(name).face.charToGlyph
        return next((ch for ch in text if ord(ch) not in cmap), None)
    if name == DINGBATS:
        return None  # drawn by byte code (see overlay.status_icons); never user text
    try:
        text.encode("cp1252")
    except UnicodeEncodeError as error:
        return text[error.start]
    return None
