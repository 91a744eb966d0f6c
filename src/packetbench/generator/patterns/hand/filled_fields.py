"""hand.filled_fields: a form's values written into their boxes by hand (truth unchanged,
only the locations lose the text layer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.hand.common import (
    MAX_FILLED,
    MIN_HAND,
    WRITTEN_KINDS,
    _ink_op,
    _is_form,
    _pens,
    _typed_width,
    _writable_paths,
)
from packetbench.generator.render import hand
from packetbench.generator.render.pdf import PdfDocument


def _fits(text: str, font: str, size: float, slack: float) -> float | None:
    """The size the print hand writes `text` at, within `slack` times the typed width; None
    when it would be too small to read."""
    want = size * 1.1
    room = _typed_width(text, font, size) * slack
    natural = hand.width("print", text, want) * 1.05
    if natural > room:
        want *= room / natural
    return want if want >= MIN_HAND else None


@pattern(
    "hand.filled_fields",
    "Handwritten form values",
    phase="document",
    truth="none",
    reference="p56_handwritten",
    applies=_is_form,
    description="a run of a form's values written by hand, as ink with no text layer",
)
def _filled_fields(staging: Staging) -> bool:
    rng = staging.rng
    paths = _writable_paths(staging, WRITTEN_KINDS)
    if not paths:
        return False
    # One person filled one run of the form: a share of its boxes, contiguous in form order,
    # at most a page's worth (a long schedule is typed, or attached).
    share = rng.uniform(0.5, 1.0)
    count = max(1, min(MAX_FILLED, round(len(paths) * share)))
    start = rng.randrange(0, len(paths) - count + 1)
    chosen = paths[start : start + count]
    ink = rng.choice(("blue", "black", "blue"))
    base = rng.randrange(1 << 30)
    staging.applied.details.update(hand="print", ink=ink)
    written: list[str] = []

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
            if len(lines) != 1 or not hand.writable("print", text):
                return None
            pen = _pens(base, path, page, round(x, 1), round(y, 1))
            want = _fits(text, font, size, 1.0)
            if want is None:
                return None
            width = hand.width("print", text, want)
            left = x if align == "left" else x - width if align == "right" else x - width / 2
            out = hand.write(
                "print",
                text,
                left,
                y + pen.uniform(-0.5, 0.9),
                want,
                pen,
                hand.LOOSE,
                angle=pen.uniform(-1.5, 1.5),
            )
            pdf.pages[page].append(_ink_op(out, hand.INKS[ink], 0.22))
            if path not in written:
                written.append(path)
            return out.bbox

        return ink_value

    for path in chosen:
        staging.presentation.inked[path] = pen_for(path)

    def check(recorder: Any) -> bool:
        staging.applied.targets[:] = [p for p in chosen if p in written]
        return bool(written)

    staging.confirm(check)
    return True
