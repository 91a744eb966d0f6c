"""hand.correction: a typed figure struck through and corrected by hand; the truth is the
correction, the struck value a visible string of the universe.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.hand.common import (
    MIN_HAND,
    _ink_op,
    _is_form,
    _pens,
    _typed_width,
    _writable_paths,
)
from packetbench.generator.render import hand
from packetbench.generator.render.pdf import PdfDocument

CORRECTED_KINDS = ("money", "number", "date", "id")


def _mistyped(text: str, rng: random.Random) -> str | None:
    """`text` with one slip of the typist: two different adjacent digits swapped, or one
    digit changed; None when it holds no digit."""
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if not digits:
        return None
    pairs = [
        i for i in digits if i + 1 < len(text) and text[i + 1].isdigit() and text[i] != text[i + 1]
    ]
    if pairs and rng.random() < 0.6:
        i = rng.choice(pairs)
        return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    i = rng.choice(digits)
    other = rng.choice([d for d in "0123456789" if d != text[i]])
    return text[:i] + other + text[i + 1 :]


@pattern(
    "hand.correction",
    "Hand correction",
    phase="document",
    truth="none",
    reference="p56_handwritten",
    applies=_is_form,
    description="a typed value struck through with the right value written beside it by hand; "
    "the struck value stays visible (universe), truth is the correction",
)
def _correction(staging: Staging) -> bool:
    rng = staging.rng
    # Values in the form's own boxes, where a box leaves room beside the value; a table
    # cell has none.
    # Address parts share one line of their box, so no room is left beside any of them.
    paths = [
        p
        for p in _writable_paths(staging, CORRECTED_KINDS)
        if "[" not in p and ".address." not in p
    ]
    if not paths:
        return False
    chosen = sorted(rng.sample(paths, min(len(paths), rng.randint(1, 3))))
    ink = rng.choice(("blue", "red", "black"))
    base = rng.randrange(1 << 30)
    staging.applied.details.update(hand="print", ink=ink)
    leaves = staging.subject.leaves()
    corrected: list[str] = []

    def pen_for(path: str) -> Callable[..., list[float] | None]:
        def ink_value(
            pdf: PdfDocument,
            page: int,
            x: float,
            y: float,
            text: str,
            lines: list[str],
            font: str,
            size: float,
            align: str,
            room: float | None,
        ) -> list[float] | None:
            if len(lines) != 1 or room is None or not hand.writable("print", text):
                return None
            pen = _pens(base, path, page, round(x, 1), round(y, 1))
            struck = _mistyped(text, pen)
            if struck is None:
                return None
            struck_width = _typed_width(struck, font, size)
            want = max(MIN_HAND + 0.5, size * 1.1)
            hand_width = hand.width("print", text, want) * 1.05
            # The struck value keeps its place; the correction goes beside it, into the room
            # the box leaves (a value whose box is full stays typed).
            if struck_width + 5 + hand_width > room:
                return None
            left = (
                x
                if align == "left"
                else x - struck_width
                if align == "right"
                else x - struck_width / 2
            )
            pdf.text(page, left, y, struck, font, size)
            color = hand.INKS[ink]
            rise = size * 0.3
            stroke = hand.Written(
                [
                    ("M", left - 1.5, y + rise - 0.4),
                    ("L", left + struck_width + 1.5, y + rise + pen.uniform(-0.6, 0.9) - 0.4),
                    ("L", left + struck_width + 1.5, y + rise + pen.uniform(-0.6, 0.9) + 0.5),
                    ("L", left - 1.5, y + rise + 0.5),
                    ("Z",),
                ],
                [],
            )
            pdf.pages[page].append(_ink_op(stroke, color, 0.2))
            hand_left = left - 5 - hand_width if align == "right" else left + struck_width + 5
            out = hand.write(
                "print",
                text,
                hand_left,
                y + pen.uniform(0.0, 1.2),
                want,
                pen,
                hand.LOOSE,
                angle=pen.uniform(-2.0, 3.0),
            )
            pdf.pages[page].append(_ink_op(out, color, 0.22))
            if path not in corrected:
                corrected.append(path)
                staging.applied.delta[path] = {
                    "canonical": leaves[path][0],
                    "shown": text,
                    "struck": struck,
                }
            return out.bbox

        return ink_value

    for path in chosen:
        staging.presentation.inked[path] = pen_for(path)

    def check(recorder: Any) -> bool:
        staging.applied.targets[:] = [p for p in chosen if p in corrected]
        for path in list(staging.applied.delta):
            if path not in corrected:
                del staging.applied.delta[path]
        return bool(corrected)

    staging.confirm(check)
    return True
