"""hand.date_stamp: a rubber RECEIVED stamp with its date."""

from __future__ import annotations

import datetime as dt
import math
import random

from packetbench.generator.patterns.base import Staging, Subject, pattern
from packetbench.generator.patterns.hand.common import _free_spot, _ink_op, _pens
from packetbench.generator.render import hand
from packetbench.generator.render.ops import OVER, PathOp
from packetbench.generator.render.pdf import PdfDocument

STAMP_INKS = ("red", "blue", "purple")
STAMP_WORDS = ("RECEIVED", "RECEIVED", "RECEIVED", "REC'D")
STAMP_FOOTS = ("UNDERWRITING", "NEW BUSINESS", "COMMERCIAL LINES", "MAIL ROOM", None)
# The document's own date a mail room's stamp follows, first found.
STAMP_ANCHORS = (
    "completion_date",
    "signature_date",
    "valuation_date",
    "report_date",
    "run_date",
    "as_of_date",
    "certificate_date",
    "evidence_date",
    "request_date",
    "issued_date",
    "effective_date",
)
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def _stamp_date(subject: Subject, rng: random.Random) -> dt.date | None:
    """When the mail room received the document: a few days after its latest date before
    the policy starts (the completion, valuation or report date)."""
    dates = {
        path.rsplit(".", 1)[-1]: value
        if isinstance(value, dt.date)
        else dt.date.fromisoformat(value)
        for path, value, _ in subject.values("date")
    }
    if not dates:
        return None
    named = [dates[name] for name in STAMP_ANCHORS if name in dates]
    ordered = sorted(dates.values())
    anchor = named[0] if named else ordered[len(ordered) // 2]
    return anchor + dt.timedelta(days=rng.randint(2, 12))


def _ring(
    x: float, y: float, w: float, h: float, line: float, cx: float, cy: float, angle: float
) -> list[hand.Command]:
    """A rectangular frame `line` points thick, turned by `angle` about (cx, cy): the outer
    edge counter-clockwise, the inner clockwise, so the non-zero fill leaves it hollow."""
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)

    def at(px: float, py: float) -> tuple[float, float]:
        dx, dy = px - cx, py - cy
        return round(cx + dx * cos - dy * sin, 2), round(cy + dx * sin + dy * cos, 2)

    outer = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    inner = [
        (x + line, y + line),
        (x + line, y + h - line),
        (x + w - line, y + h - line),
        (x + w - line, y + line),
    ]
    commands: list[hand.Command] = []
    for corners in (outer, inner):
        commands.append(("M", *at(*corners[0])))
        commands.extend(("L", *at(*corner)) for corner in corners[1:])
        commands.append(("Z",))
    return commands


@pattern(
    "hand.date_stamp",
    "RECEIVED stamp",
    phase="overlay",
    truth="none",
    description="a rubber RECEIVED stamp with a date, in coloured ink, slightly turned, on page 1",
)
def _date_stamp(staging: Staging) -> bool:
    rng = staging.rng
    received = _stamp_date(staging.subject, rng)
    if received is None:
        return False
    word = rng.choice(STAMP_WORDS)
    date_text = f"{MONTHS[received.month - 1]} {received.day:02d} {received.year}"
    foot = rng.choice(STAMP_FOOTS)
    ink = rng.choice(STAMP_INKS)
    # Turned a little, as a hand stamps; more and OCR of a page nobody deskews fails.
    angle = rng.choice((-1, 1)) * rng.uniform(1.0, 3.0)
    lines = [(word, 15.0), (date_text, 12.0)] + ([(foot, 7.0)] if foot else [])
    staging.applied.details.update(text=[text for text, _ in lines], ink=ink, angle=round(angle, 2))
    base = rng.randrange(1 << 30)

    def draw(pdf: PdfDocument) -> None:
        pen = _pens(base, "stamp")
        width = max(hand.width("stamp", text, size) for text, size in lines) + 22
        height = sum(size * 1.18 for _, size in lines) + 12
        # The first page, or the first page after it with room (a full form page).
        for index in range(len(pdf.pages)):
            spot = _free_spot(
                pdf,
                index,
                width + 8,
                height + 8,
                pen,
                lambda x, y: (
                    abs(pdf.width - 60 - x - width) + abs(pdf.height - 60 - y - height) * 0.7
                ),
            )
            if spot is not None:
                break
        else:
            return
        x, y = spot[0] + 4, spot[1] + 4
        cx, cy = x + width / 2, y + height / 2
        color = hand.INKS[ink]
        alpha = round(pen.uniform(0.78, 0.9), 2)
        frame = _ring(x, y, width, height, 1.6, cx, cy, angle) + _ring(
            x + 3, y + 3, width - 6, height - 6, 0.6, cx, cy, angle
        )
        pdf.pages[index].append(PathOp(tuple(frame), color, 0.0, alpha, OVER))
        baseline = y + height - 6
        turn = math.radians(angle)
        for text, size in lines:
            baseline -= size * 1.0
            line_width = hand.width("stamp", text, size)
            lx = cx - line_width / 2
            # Each line's start turned with the frame about its centre.
            dx, dy = lx - cx, baseline - cy
            sx = cx + dx * math.cos(turn) - dy * math.sin(turn)
            sy = cy + dx * math.sin(turn) + dy * math.cos(turn)
            written = hand.write("stamp", text, sx, sy, size, pen, hand.STEADY, angle=angle)
            # A rubber stamp's letters are heavier than the type they were cut from.
            pdf.pages[index].append(_ink_op(written, color, 0.5 if size > 8 else 0.25, alpha))
            pdf.recorder.visible(text, index + 1, text_layer=False, box=written.bbox)
            baseline -= size * 0.18 + 1.5
        staging.applied.pages.add(index + 1)

    staging.after_layout(draw)
    return True
