"""What the hand patterns share: which values a pen can take over, one random stream per
drawn value, ink as a path, and the free space left on a finished page.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import numpy as np

from packetbench.generator.patterns.base import Staging, Subject
from packetbench.generator.render import hand
from packetbench.generator.render.metrics import width_of
from packetbench.generator.render.ops import OVER, ImageOp, LineOp, PathOp, RectOp, TextOp
from packetbench.generator.render.pdf import PdfDocument

Box = tuple[float, float, float, float]
ACORD = "acord_"
# Leaf kinds a person writes into a form's boxes (prose and checkboxes are left to the type).
WRITTEN_KINDS = ("string", "id", "date", "money", "number", "percent", "enum")
# A pen writes no smaller than this (points), or the value stays typed: Tesseract reads the
# shipped hands reliably from about 6.5 pt at 300 dpi.
MIN_HAND = 6.5
MAX_FILLED = 40  # values one hand fills in a document (about a form page)


def _is_form(subject: Subject) -> bool:
    return subject.doc_type.startswith(ACORD)


def _pens(seed: int, *parts: object) -> random.Random:
    """A random stream per drawn value: seeded by text (sha512), so the jitter of one value
    does not depend on which values were drawn before it."""
    return random.Random(":".join(str(p) for p in (seed, *parts)))


def _writable_paths(staging: Staging, kinds: Iterable[str]) -> list[str]:
    """Leaves a pen can take over: drawn in the document's own font (not another script, a
    symbol or a ligature) and not covered by a redaction."""
    look = staging.presentation
    return [
        path
        for path, _, _ in staging.subject.values(*kinds)
        if path not in look.fonts
        and path not in look.glyphs
        and path not in look.redacted
        and path not in look.inked
    ]


def _ink_op(
    written: hand.Written,
    color: tuple[float, float, float],
    stroke: float,
    alpha: float | None = None,
) -> PathOp:
    return PathOp(tuple(written.commands), color, stroke, alpha, OVER)


# The patterns below are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


def _typed_width(text: str, font: str, size: float) -> float:
    return width_of(text, font, size)


# --- free space on a finished page ---------------------------------------------------------------


def _occupied(pdf: PdfDocument, index: int) -> list[Box]:
    """What is printed on page `index` (0-based) that ink must not cover: text, rules, boxes,
    images and earlier ink. Lettering at an angle (a watermark) is see-through."""
    boxes: list[Box] = []
    for op in pdf.pages[index]:
        if isinstance(op, TextOp) and not op.angle:
            w = width_of(op.text, op.font, op.size)
            boxes.append((op.x, op.y - 0.25 * op.size, op.x + w, op.y + 0.8 * op.size))
        elif isinstance(op, ImageOp | RectOp):
            # Boxes and shaded bands: ink across a rule is read far less surely.
            boxes.append((op.x, op.y, op.x + op.w, op.y + op.h))
        elif isinstance(op, LineOp):
            boxes.append(
                (min(op.x0, op.x1), min(op.y0, op.y1), max(op.x0, op.x1), max(op.y0, op.y1))
            )
        elif isinstance(op, PathOp):
            xs = [float(v) for c in op.commands for v in c[1::2]]  # type: ignore[arg-type]
            ys = [float(v) for c in op.commands for v in c[2::2]]  # type: ignore[arg-type]
            if xs:
                boxes.append((min(xs), min(ys), max(xs), max(ys)))
    for drawn in pdf.recorder.drawn.values():
        for location in drawn.locations:
            if location.get("page") == index + 1 and "bbox" in location:
                x0, y0, x1, y1 = location["bbox"]
                boxes.append((x0, y0, x1, y1))
    return boxes


def _meets(a: Box, b: Box, gap: float = 3.0) -> bool:
    return a[0] - gap < b[2] and a[2] + gap > b[0] and a[1] - gap < b[3] and a[3] + gap > b[1]


def _free_spot(
    pdf: PdfDocument,
    index: int,
    width: float,
    height: float,
    rng: random.Random,
    prefer: Callable[[float, float], float],
) -> tuple[float, float] | None:
    """The lower-left corner of a `width` x `height` area of page `index` where nothing is
    printed, among the best few by `prefer(x, y)` (lower is better); None when the page is
    full."""
    taken = _occupied(pdf, index)
    edge = 12.0  # ink stays this far inside the paper
    # Every candidate corner on a 9-point grid, y by y then x by x, kept when its area meets
    # no printed box (`_meets`, computed for the whole grid at once: the same comparisons on
    # the same floats, so the same spots in the same order).
    xs: list[float] = []
    x = edge
    while x + width <= pdf.width - edge:
        xs.append(x)
        x += 9.0
    ys: list[float] = []
    y = edge
    while y + height <= pdf.height - edge:
        ys.append(y)
        y += 9.0
    spots: list[tuple[float, float, float]] = []
    if xs and ys:
        free = np.ones((len(ys), len(xs)), dtype=bool)
        if taken:
            boxes = np.array(taken, dtype=np.float64)
            gap = 3.0
            left = np.array(xs)[:, None]
            bottom = np.array(ys)[:, None]
            across = (left - gap < boxes[:, 2]) & ((left + width) + gap > boxes[:, 0])
            along = (bottom - gap < boxes[:, 3]) & ((bottom + height) + gap > boxes[:, 1])
            free = (along.astype(np.int32) @ across.T.astype(np.int32)) == 0
        for row, col in zip(*np.nonzero(free), strict=True):
            spots.append((prefer(xs[col], ys[row]), xs[col], ys[row]))
    if not spots:
        return None
    spots.sort()
    _, x, y = rng.choice(spots[:6])
    return x, y
