"""textlayer.kerning: no space characters, words separated by TJ offsets (emit)."""

from __future__ import annotations

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    ROW_SPLIT,
    TEXT_ATTACKS,
    _acted,
    _pages,
    _plain,
    _strings_off,
    _unreadable,
    _values,
)
from packetbench.generator.render import attack
from packetbench.generator.render.metrics import width_of
from packetbench.generator.render.ops import Op, TextOp
from packetbench.generator.render.pdf import PdfDocument


@pattern(
    "textlayer.kerning",
    "Kerning instead of spaces",
    phase="emit",
    truth="none",
    reference="p38_kerning",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN, *ROW_SPLIT),
    description="no space characters: words separated by TJ offsets",
)
def _kerning(staging: Staging) -> bool:
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        for page in _pages(staging, len(pdf.pages)):
            ops = pdf.pages[page - 1]
            spaced = {
                i
                for i, op in enumerate(ops)
                if _plain(op) and " " in op.text.strip() and op.font in attack.KERNED_FONTS
            }
            if not spaced:
                continue
            for path, location, indices in _values(pdf, page):
                if any(i in spaced for i in indices):
                    _unreadable(applied, page, path, location)
            _strings_off(
                pdf.recorder,
                page,
                {op.text for i, op in enumerate(ops) if i in spaced and isinstance(op, TextOp)},
            )
            # Every plain string of the page is redrawn in order (kerned where it has spaces),
            # so the page's text keeps its reading order.
            redrawn: list[Op] = []
            for index, op in enumerate(ops):
                if _plain(op):
                    assert isinstance(op, TextOp)
                    text, lead = op.text, 0.0
                    if index in spaced:  # stripped: it starts where its first word did
                        text = op.text.strip()
                        lead = width_of(
                            op.text[: len(op.text) - len(op.text.lstrip())], op.font, op.size
                        )
                    moved = TextOp(op.x + lead, op.y, text, op.font, op.size, color=op.color)
                    redrawn.append(attack.kerned(moved))
            ops[:] = [op for op in ops if not _plain(op)] + redrawn
            applied.pages.add(page)
        applied.details["gap"] = f"{attack.KERN}/1000 em"

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True
