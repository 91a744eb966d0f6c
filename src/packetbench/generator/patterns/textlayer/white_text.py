"""textlayer.white_text: false values in white text in blank bands of the page (emit)."""

from __future__ import annotations

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    TEXT_ATTACKS,
    _acted,
    _false,
    _values,
)
from packetbench.generator.render import fonts
from packetbench.generator.render.metrics import ASCENT, DESCENT, MARGIN, width_of
from packetbench.generator.render.ops import CONTENT, ImageOp, LineOp, Op, RectOp, TextOp
from packetbench.generator.render.pdf import PdfDocument


def _occupied(ops: list[Op]) -> list[tuple[float, float]]:
    """Vertical extents of everything drawn on the page but display lettering."""
    spans = []
    for op in ops:
        if isinstance(op, TextOp):
            if op.size > 24 or op.layer != CONTENT:
                continue
            spans.append((op.y - DESCENT * op.size, op.y + ASCENT * op.size))
        elif isinstance(op, LineOp):
            spans.append((min(op.y0, op.y1) - op.width, max(op.y0, op.y1) + op.width))
        elif isinstance(op, RectOp | ImageOp):
            spans.append((op.y - 1, op.y + op.h + 1))
    return spans


def _gaps(pdf: PdfDocument, page: int, height: float) -> list[tuple[float, float]]:
    """Empty horizontal bands at least `height` tall between the page's margins."""
    spans = sorted(_occupied(pdf.pages[page - 1]))
    bands = []
    floor = MARGIN + 4
    for low, high in [*spans, (pdf.height - MARGIN, pdf.height)]:
        if low - floor >= height:
            bands.append((floor, low))
        floor = max(floor, high)
    return bands


def _label(path: str) -> str:
    return path.rsplit(".", 1)[-1].split("[")[0].replace("_", " ").title()


@pattern(
    "textlayer.white_text",
    "White text with false values",
    phase="emit",
    truth="none",
    reference="p16_invisible_text",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN),
    description="false values in white text in blank bands of the page",
)
def _white_text(staging: Staging) -> bool:
    rng = staging.rng
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            shown = {op.text for op in ops if isinstance(op, TextOp)}
            bands = _gaps(pdf, page, 14.0)
            if not bands:
                continue
            statements = []
            for path, _, _indices in _values(pdf, page):
                rendered = pdf.recorder.drawn[path].rendered_as
                wrong = _false(rendered, rng)
                if wrong and wrong not in shown and not any(wrong in s for s in shown):
                    statements.append(f"{_label(path)}: {wrong}")
            if not statements:
                continue
            rng.shuffle(statements)
            low, high = bands[rng.randrange(len(bands))]
            size = 7.0
            lines = min(len(statements), rng.randint(1, 3), int((high - low - 4) // 9))
            y = high - 4 - size * ASCENT
            for statement in statements[:lines]:
                if (
                    width_of(statement, "Helvetica", size) > pdf.content_width
                    or fonts.missing("Helvetica", statement) is not None
                ):
                    continue  # (a ligature glyph Helvetica cannot draw would not be text)
                ops.append(
                    TextOp(
                        MARGIN + rng.uniform(0, 40),
                        y,
                        statement,
                        "Helvetica",
                        size,
                        color=(1.0, 1.0, 1.0),
                    )
                )
                pdf.recorder.invisible(statement, page)
                applied.details.setdefault("white", []).append({"page": page, "text": statement})
                applied.pages.add(page)
                y -= 9

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True
