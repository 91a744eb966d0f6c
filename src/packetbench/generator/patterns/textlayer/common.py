"""What the textlayer patterns share: the patterns they exclude, where a page's values are
drawn (the content strings that draw each), and how an attack records a value its text layer
no longer yields.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import Any, TypeGuard

from packetbench.generator.patterns.base import Applied, Staging
from packetbench.generator.render import attack
from packetbench.generator.render.ops import CONTENT, Op, TextOp
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Placement, Recorder

TEXT_ATTACKS = (
    "textlayer.invisible_ocr",
    "textlayer.reading_order",
    "textlayer.kerning",
    "textlayer.cmap_scramble",
    "textlayer.cmap_gaps",
    "textlayer.clipped",
    "textlayer.hidden_layer",
    "textlayer.white_text",
    "textlayer.outlined",
    "textlayer.microtext",
)
RULE_ATTACKS = ("textlayer.fragmented_rules", "textlayer.bezier_rules")
NO_SCAN = ("scan.*",)
# What an attack on every string of a page also excludes: a split value's piece there would be
# attacked alone.
ROW_SPLIT = ("table.row_split",)


def _plain(op: Op) -> TypeGuard[TextOp]:
    """An upright, opaque content string in a cp1252 font: what the attacks redraw."""
    return (
        isinstance(op, TextOp)
        and op.layer == CONTENT
        and not op.angle
        and op.alpha is None
        and op.font in attack.TEXT_FONTS
    )


def _located(pdf: PdfDocument, page: int) -> list[tuple[str, Placement]]:
    """(path, location) of every value drawn on `page` (1-based), in model order."""
    return [
        (path, location)
        for path, drawn in pdf.recorder.drawn.items()
        for location in drawn.locations
        if location.get("page") == page and "bbox" in location
    ]


def _ops_in(ops: list[Op], bbox: list[float], text: str) -> list[int]:
    """Indices of the content strings that draw a value located at `bbox` (their origin
    inside it) and whose text is part of the value's shown text."""
    return _OpIndex(ops).within(bbox, text)


class _OpIndex:
    """A page's content strings ordered by their origin's height, so the strings whose origin
    lies within a box's heights are found by bisection, not by testing every string of the
    page against every value (`_ops_in` is asked once per value drawn on the page)."""

    def __init__(self, ops: list[Op]) -> None:
        found = sorted(
            (op.y, index, op)
            for index, op in enumerate(ops)
            if isinstance(op, TextOp) and op.layer == CONTENT and op.text.strip()
        )
        self.ys = [y for y, _, _ in found]
        self.ops = [(index, op, " ".join(op.text.split())) for _, index, op in found]

    def within(self, bbox: list[float], text: str) -> list[int]:
        x0, y0, x1, y1 = bbox
        # Wrapping splits at any whitespace (a no-break space too) and joins lines' words with
        # spaces: compare with whitespace squashed.
        squashed = " ".join(text.split())
        low, high = bisect.bisect_left(self.ys, y0), bisect.bisect_right(self.ys, y1)
        return sorted(
            index
            for index, op, words in self.ops[low:high]
            if x0 - 1.0 <= op.x <= x1 and words in squashed
        )


def _values(pdf: PdfDocument, page: int) -> list[tuple[str, Placement, list[int]]]:
    """(path, location, op indices) of the values drawn on `page` (1-based) as text."""
    index = _OpIndex(pdf.pages[page - 1])
    out = []
    for path, location in _located(pdf, page):
        rendered = pdf.recorder.drawn[path].rendered_as
        if not rendered.strip() or "fragment" in location:
            continue  # an empty checkbox, or one piece of a value split across pages
        found = index.within(location["bbox"], rendered)
        if found:
            out.append((path, location, found))
    return out


def _unreadable(applied: Applied, page: int, path: str, location: Placement) -> None:
    """The text layer no longer yields the value at `location`: only OCR can prove it."""
    location["text_layer"] = False
    pages = applied.details.setdefault("unreadable", {})
    paths = pages.setdefault(str(page), [])
    if path not in paths:
        paths.append(path)
    if path not in applied.targets:
        applied.targets.append(path)
    applied.pages.add(page)


def _strings_off(recorder: Recorder, page: int, texts: Iterable[str]) -> int:
    """Mark the page's universe strings drawn as one of `texts` as pixels-only."""
    wanted = set(texts)
    count = 0
    for entry in recorder.strings:
        if entry["page"] == page and entry["text"] in wanted and entry.get("text_layer", True):
            entry["text_layer"] = False
            count += 1
    return count


def _pages(staging: Staging, count: int) -> list[int]:
    """The 1-based pages an attack reaches: every page, or a random part of them."""
    rng = staging.rng
    if count <= 1 or rng.random() < 0.5:
        return list(range(1, count + 1))
    return sorted(rng.sample(range(1, count + 1), rng.randint(1, count - 1)))


def _finish(applied: Applied) -> None:
    """Keep the record's lists in a fixed order (pages and paths as met)."""
    unreadable = applied.details.get("unreadable")
    if unreadable:
        applied.details["unreadable"] = {
            page: unreadable[page] for page in sorted(unreadable, key=int)
        }


def _acted(staging: Staging) -> Callable[[Recorder], bool]:
    def check(recorder: Recorder) -> bool:
        _finish(staging.applied)
        return bool(staging.applied.pages)

    return check


def _false(text: str, rng: Any) -> str | None:
    """Another value of the same shape: some digits changed (a false amount, date or id)."""
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if len(digits) < 2:
        return None
    chars = list(text)
    for index in rng.sample(digits, min(len(digits), rng.randint(1, 3))):
        chars[index] = rng.choice([d for d in "0123456789" if d != chars[index]])
    if chars[digits[0]] == "0" and len(digits) > 1 and text[digits[0]] != "0":
        chars[digits[0]] = rng.choice("123456789")
    return "".join(chars)
