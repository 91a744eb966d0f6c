"""textlayer.outlined: some values drawn as glyph outlines, with no text (emit)."""

from __future__ import annotations

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    TEXT_ATTACKS,
    _acted,
    _plain,
    _strings_off,
    _unreadable,
    _values,
)
from packetbench.generator.render import attack
from packetbench.generator.render.ops import TextOp
from packetbench.generator.render.pdf import PdfDocument


@pattern(
    "textlayer.outlined",
    "Values drawn as outlines",
    phase="emit",
    truth="none",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN),
    description="some values drawn as glyph outlines, with no text",
)
def _outlined(staging: Staging) -> bool:
    rng = staging.rng
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        candidates = []
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            for path, location, indices in _values(pdf, page):
                if all(_plain(ops[i]) for i in indices):
                    candidates.append((page, path, location, indices))
        if not candidates:
            return
        picked = rng.sample(range(len(candidates)), min(len(candidates), rng.randint(3, 12)))
        for index in sorted(picked):
            page, path, location, indices = candidates[index]
            ops = pdf.pages[page - 1]
            texts = set()
            for i in indices:
                op = ops[i]
                assert isinstance(op, TextOp)
                texts.add(op.text)
                ops[i] = attack.outlined(op)
            _strings_off(pdf.recorder, page, texts)
            _unreadable(applied, page, path, location)

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True
