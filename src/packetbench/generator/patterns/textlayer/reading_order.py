"""textlayer.reading_order: the page's strings emitted bottom to top, right to left (emit)."""

from __future__ import annotations

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    ROW_SPLIT,
    TEXT_ATTACKS,
    _acted,
    _pages,
    _unreadable,
    _values,
)
from packetbench.generator.render.ops import CONTENT, TextOp
from packetbench.generator.render.pdf import PdfDocument


@pattern(
    "textlayer.reading_order",
    "Content stream out of reading order",
    phase="emit",
    truth="none",
    reference="p27_reading_order",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN, *ROW_SPLIT),
    description="the page's strings emitted bottom to top, right to left",
)
def _reading_order(staging: Staging) -> bool:
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        orders: dict[str, list[str]] = {}
        for page in _pages(staging, len(pdf.pages)):
            ops = pdf.pages[page - 1]
            slots = [
                i for i, op in enumerate(ops) if isinstance(op, TextOp) and op.layer == CONTENT
            ]
            texts = [op for op in (ops[i] for i in slots) if isinstance(op, TextOp)]
            if len(texts) < 4:
                continue
            values = _values(pdf, page)
            # Bottom to top, right to left: the order some PDF writers emit a page in.
            backwards = sorted(texts, key=lambda op: (round(op.y, 1), -op.x))
            for slot, op in zip(slots, backwards, strict=True):
                ops[slot] = op
            for path, location, indices in values:
                if len(indices) > 1:  # its lines now come last first
                    _unreadable(applied, page, path, location)
            reading = sorted(texts, key=lambda op: (-round(op.y, 1), op.x))
            unique = [
                op.text
                for op in reading
                if len(op.text.strip()) >= 6 and sum(op.text in o.text for o in texts) == 1
            ]
            if len(unique) >= 2:
                orders[str(page)] = [unique[0].strip(), unique[-1].strip()]
            applied.pages.add(page)
        # First and last string a reader meets: the text layer has the last before the first.
        applied.details["out_of_order"] = orders

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True
