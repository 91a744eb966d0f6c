"""textlayer.hidden_layer: false values in an optional-content layer switched off (post)."""

from __future__ import annotations

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    TEXT_ATTACKS,
    _acted,
    _false,
    _plain,
    _unreadable,
    _values,
)
from packetbench.generator.render import attack
from packetbench.generator.render.ops import TextOp
from packetbench.generator.render.pdf import PdfDocument


@pattern(
    "textlayer.hidden_layer",
    "Hidden optional-content layer",
    phase="post",
    truth="none",
    reference="p36_ocg_hidden",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN),
    description="false values in an optional-content layer switched off, over the real ones",
)
def _hidden_layer(staging: Staging) -> bool:
    rng = staging.rng
    applied = staging.applied
    drawn: dict[int, list[TextOp]] = {}
    name = rng.choice(("Draft", "Prior version", "Layer 2", "Revisions", "Markup"))
    applied.details["layer"] = name

    def draw(pdf: PdfDocument) -> None:
        candidates = []
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            shown = {op.text for op in ops if isinstance(op, TextOp)}
            for path, location, indices in _values(pdf, page):
                op = ops[indices[0]]
                if len(indices) != 1 or not _plain(op):
                    continue
                assert isinstance(op, TextOp)
                wrong = _false(op.text, rng)
                if wrong and not any(wrong in s for s in shown):
                    candidates.append((page, path, location, op, wrong))
        if not candidates:
            return
        picked = rng.sample(range(len(candidates)), min(len(candidates), rng.randint(3, 10)))
        for index in sorted(picked):
            page, path, location, op, wrong = candidates[index]
            drawn.setdefault(page - 1, []).append(TextOp(op.x, op.y, wrong, op.font, op.size))
            pdf.recorder.invisible(wrong, page)
            _unreadable(applied, page, path, location)
            applied.details.setdefault("hidden", []).append(
                {"path": path, "page": page, "text": wrong}
            )

    def post(data: bytes) -> bytes:
        return attack.with_hidden_layer(data, drawn, name) if drawn else data

    staging.after_layout(draw)
    staging.presentation.post.append(post)
    staging.confirm(_acted(staging))
    return True
