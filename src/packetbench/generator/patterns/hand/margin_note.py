"""hand.margin_note: a note scribbled in a page's margin."""

from __future__ import annotations

from collections.abc import Callable

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.hand.common import _free_spot, _ink_op, _pens
from packetbench.generator.render import hand
from packetbench.generator.render.pdf import PdfDocument

NOTES = (
    "Check #s",
    "verify TIV",
    "see loss runs",
    "OK per broker",
    "need 5 yrs",
    "call insured re roof",
    "rec'd w/ app",
    "confirm limits",
    "Sprinklered?",
    "see attached",
    "ask for update",
    "prior carrier?",
    "looks low",
    "OK to quote",
    "Need signed copy",
    "match SOV?",
)
NOTE_INKS = ("red", "blue", "black")


def _margins(pdf: PdfDocument, width: float) -> Callable[[float, float], float]:
    """Where a reader scribbles: the right-hand side, and the page's foot or head."""
    return lambda x, y: (pdf.width - x - width) * 0.5 + min(y, pdf.height - y) * 0.3


@pattern(
    "hand.margin_note",
    "Margin note",
    phase="overlay",
    truth="none",
    reference="p56_handwritten",
    description="one or two short notes scribbled by a reader where the page leaves room",
)
def _margin_note(staging: Staging) -> bool:
    rng = staging.rng
    count = 1 if rng.random() < 0.7 else 2
    notes = rng.sample(NOTES, count)
    ink = rng.choice(NOTE_INKS)
    base = rng.randrange(1 << 30)
    staging.applied.details.update(notes=notes, ink=ink, hand="note")

    def draw(pdf: PdfDocument) -> None:
        pen = _pens(base, "notes")
        pages = list(range(len(pdf.pages)))
        for note in notes:
            index = pen.choice(pages[:3])
            size = pen.uniform(10.0, 12.0)
            width = hand.width("note", note, size) * 1.12 + 4
            height = size * 1.6
            spot = _free_spot(pdf, index, width, height, pen, _margins(pdf, width))
            if spot is None:
                continue
            written = hand.write(
                "note",
                note,
                spot[0] + 2,
                spot[1] + size * 0.45,
                size,
                pen,
                hand.LOOSE,
                angle=pen.uniform(-4.0, 4.0),
            )
            pdf.pages[index].append(_ink_op(written, hand.INKS[ink], 0.3))
            pdf.recorder.visible(note, index + 1, text_layer=False, box=written.bbox)
            staging.applied.pages.add(index + 1)

    staging.after_layout(draw)
    return True
