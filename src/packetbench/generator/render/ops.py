"""A page's display list: the drawing operations `pdf.PdfDocument` lays a page out as, before
anything is emitted (`emit`).

Operations live on one of three layers: `UNDER` (watermarks, highlights: behind the content),
`CONTENT` and `OVER` (stamps, redaction boxes: on top).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas

UNDER, CONTENT, OVER = 0, 1, 2
Color = tuple[float, float, float]


@dataclass(slots=True)
class TextOp:
    x: float
    y: float
    text: str
    font: str
    size: float
    angle: float = 0.0  # degrees, counter-clockwise about (x, y)
    color: Color | None = None  # None: black
    alpha: float | None = None  # fill opacity (overlay layers only)
    layer: int = CONTENT


@dataclass(slots=True)
class LineOp:
    x0: float
    y0: float
    x1: float
    y1: float
    width: float
    color: Color | None = None
    layer: int = CONTENT


@dataclass(slots=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: float | None  # gray level, or None for an outline
    width: float
    color: Color | None = None  # a coloured fill (or outline), instead of gray
    alpha: float | None = None
    layer: int = CONTENT


@dataclass(slots=True)
class ImageOp:
    x: float
    y: float
    w: float
    h: float
    png: bytes  # PNG, or JPEG when `jpeg` (embedded as it is, DCT-encoded)
    layer: int = CONTENT
    jpeg: bool = False
    # The image's gray pixels as decoded (a scanned page's, which its scan decoded to judge
    # them), so reportlab need not decode it again (`_KnownPixels`); with no `png`, they are
    # the image.
    pixels: Any = None


@dataclass(slots=True)
class DrawOp:
    """Drawn by a pattern's own code, in its own graphics state: what the other operations
    cannot say (invisible or clipped text, kerned runs, glyph outlines, curves). On the content
    layer it comes after the page's text object, so the text keeps its layout order."""

    draw: Callable[[Canvas], None]
    layer: int = CONTENT


@dataclass(slots=True)
class PathOp:
    """Filled outlines (handwriting, stamp lettering: generator.render.hand): ink with no
    text behind it. `commands` are ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x3, y3)
    and ("Z",); `stroke` > 0 also strokes them (a heavier pen) in the same colour."""

    commands: tuple[tuple[object, ...], ...]
    color: Color
    stroke: float = 0.0
    alpha: float | None = None
    layer: int = OVER


Op = TextOp | LineOp | RectOp | ImageOp | DrawOp | PathOp
