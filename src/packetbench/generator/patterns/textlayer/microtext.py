"""textlayer.microtext: some values in 2-3 point type, legible only when zoomed (emit)."""

from __future__ import annotations

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    TEXT_ATTACKS,
    _acted,
    _plain,
    _values,
)
from packetbench.generator.render.metrics import ASCENT, DESCENT, width_of
from packetbench.generator.render.ops import TextOp
from packetbench.generator.render.pdf import PdfDocument

MICRO = (2.2, 2.8)  # points: a line of fine print a person reads with a loupe or at 600 dpi


@pattern(
    "textlayer.microtext",
    "Microtext",
    phase="emit",
    truth="none",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN),
    description="some values in 2-3 point type, legible only when zoomed",
)
def _microtext(staging: Staging) -> bool:
    rng = staging.rng
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        candidates = []
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            for path, location, indices in _values(pdf, page):
                if len(indices) == 1 and _plain(ops[indices[0]]) and "fragment" not in location:
                    candidates.append((page, path, location, indices[0]))
        if not candidates:
            return
        picked = rng.sample(range(len(candidates)), min(len(candidates), rng.randint(2, 6)))
        for index in sorted(picked):
            page, path, location, at = candidates[index]
            op = pdf.pages[page - 1][at]
            assert isinstance(op, TextOp)
            size = round(rng.uniform(*MICRO), 1)
            # Shrunk about its baseline's left end: the value stays where it was.
            op.size = size
            # The usual half-point inset would cut a final "." off a 2-point string.
            right = op.x + width_of(op.text, op.font, size)
            location["bbox"] = [
                round(op.x + 0.1, 2),
                round(op.y - DESCENT * size, 2),
                round(right - 0.1, 2),
                round(op.y + ASCENT * size, 2),
            ]
            location["glyph_pt"] = size
            applied.targets.append(path)
            applied.pages.add(page)
            applied.details.setdefault("sizes", {})[path] = size

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True
