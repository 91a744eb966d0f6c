"""textlayer.clipped: values followed by text that runs past a clipping path (emit)."""

from __future__ import annotations

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    TEXT_ATTACKS,
    _acted,
    _false,
    _located,
    _plain,
    _values,
)
from packetbench.generator.render import attack
from packetbench.generator.render.metrics import ASCENT, DESCENT, MARGIN, width_of
from packetbench.generator.render.ops import Op, TextOp
from packetbench.generator.render.pdf import PdfDocument


def _free_right(ops: list[Op], op: TextOp, right: float, pdf: PdfDocument, page: int) -> bool:
    """Nothing is drawn or located to the right of `op` on its line, up to `right`."""
    x1 = op.x + width_of(op.text, op.font, op.size)
    y0, y1 = op.y - DESCENT * op.size - 1, op.y + ASCENT * op.size + 1
    for other in ops:
        if other is op or not isinstance(other, TextOp) or other.size > 24:
            continue
        ox0 = other.x
        ox1 = other.x + width_of(other.text, other.font, other.size)
        oy0, oy1 = other.y - DESCENT * other.size, other.y + ASCENT * other.size
        if ox1 > x1 and ox0 < right and oy0 < y1 and oy1 > y0:
            return False
    for _, location in _located(pdf, page):
        bx0, by0, _bx1, by1 = location["bbox"]
        if bx0 >= x1 - 0.5 and bx0 < right and by0 < y1 and by1 > y0:
            return False
    return True


TAILS = (
    "(prior: {v})",
    "rev. {v}",
    "was {v}",
    "see endorsement",
    "- superseded -",
    "{v} per prior schedule",
)


@pattern(
    "textlayer.clipped",
    "Text past a clipping path",
    phase="emit",
    truth="none",
    reference="p37_clipping",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN),
    description="values followed by text that runs past a clipping path",
)
def _clipped(staging: Staging) -> bool:
    rng = staging.rng
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        candidates = []
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            for path, _location, indices in _values(pdf, page):
                if len(indices) != 1 or not _plain(ops[indices[0]]):
                    continue
                op = ops[indices[0]]
                assert isinstance(op, TextOp)
                if op.text != pdf.recorder.drawn[path].rendered_as:
                    continue
                if _free_right(ops, op, pdf.width - MARGIN, pdf, page):
                    candidates.append((page, path, indices[0]))
        if not candidates:
            return
        chosen = sorted(rng.sample(candidates, min(len(candidates), rng.randint(2, 6))))
        for page, path, index in chosen:
            ops = pdf.pages[page - 1]
            op = ops[index]
            assert isinstance(op, TextOp)
            alternative = _false(op.text, rng) or op.text
            tail = " " + rng.choice(TAILS).format(v=alternative)
            x1 = op.x + width_of(op.text, op.font, op.size)
            room = pdf.width - MARGIN - x1
            while tail and width_of(tail, op.font, op.size) > room:
                tail = tail[:-1]
            # A hyphen ending a line reads as a word break in text extraction, not as text.
            tail = tail.rstrip(" -")
            if len(tail.strip()) < 3:
                continue
            clip = (
                op.x - 1.0,
                op.y - DESCENT * op.size - 1.0,
                x1 + 0.1,
                op.y + ASCENT * op.size + 1.0,
            )
            ops[index] = attack.clipped(op, tail, clip)
            pdf.recorder.invisible(tail.strip(), page)
            applied.targets.append(path)
            applied.pages.add(page)
            applied.details.setdefault("clipped", []).append(
                {"path": path, "page": page, "hidden": tail.strip()}
            )

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True
