"""hand.signature_conflict and hand.signature: a signature drawn on a form's signature line,
signed by the named person or by somebody else and dated apart from the typed date.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.hand.common import Box, _ink_op, _is_form, _meets, _pens
from packetbench.generator.render import hand
from packetbench.generator.render.ops import RectOp, TextOp
from packetbench.generator.render.pdf import PdfDocument

SIGNATURE_LABEL = "SIGNATURE"


def _signature_boxes(pdf: PdfDocument, index: int) -> list[tuple[Box, str | None]]:
    """Empty boxes labelled as a signature on page `index`, with the name printed in the box
    to their right (the signer), if any."""
    ops = pdf.pages[index]
    frames = [op for op in ops if isinstance(op, RectOp) and op.fill is None]
    found: list[tuple[Box, str | None]] = []
    for op in ops:
        if not (isinstance(op, TextOp) and SIGNATURE_LABEL in op.text.upper() and op.size <= 6.0):
            continue
        frame = next(
            (
                f
                for f in frames
                if abs(f.x - (op.x - 2.5)) < 0.6 and abs(f.y + f.h - (op.y + 6.3)) < 0.6
            ),
            None,
        )
        if frame is None:
            continue
        box = (frame.x, frame.y, frame.x + frame.w, frame.y + frame.h)
        # Nothing but the label in the box: the signature goes there.
        if any(
            location.get("page") == index + 1 and _meets(box, tuple(location["bbox"]), -1)
            for d in pdf.recorder.drawn.values()
            for location in d.locations
            if "bbox" in location
        ):
            continue
        signer = None
        beside = sorted(
            (location["bbox"][0], path)
            for path, d in pdf.recorder.drawn.items()
            for location in d.locations
            if location.get("page") == index + 1
            and "bbox" in location
            and location["bbox"][0] >= box[2] - 1
            and location["bbox"][1] < box[3]
            and location["bbox"][3] > box[1]
        )
        if beside:
            signer = beside[0][1]
        found.append((box, signer))
    return found


def _signed_name(name: str, rng: random.Random) -> str:
    """How people sign: the full name, or an initial and the surname."""
    words = name.replace(",", "").split()
    if len(words) >= 2 and rng.random() < 0.5:
        return f"{words[0][0]}. {words[-1]}"
    return " ".join(words)


def _sign(
    pdf: PdfDocument, index: int, box: Box, name: str, pen: random.Random, color: Any
) -> tuple[float, float, float, float]:
    """`name` signed in cursive in signature `box` of page `index`, with the pen's lift-off
    stroke under it; the ink's bounding box."""
    x0, y0, x1, y1 = box
    size = min(15.0, (y1 - y0) * 0.62)
    room = (x1 - x0) - 12
    natural = hand.width("script", name, size)
    if natural > room:
        size *= room / natural
    written = hand.write(
        "script",
        name,
        x0 + 6 + pen.uniform(0, 8),
        y0 + 3.5 + pen.uniform(0, 1.5),
        size,
        pen,
        hand.LOOSE,
        angle=pen.uniform(1.0, 5.0),
    )
    pdf.pages[index].append(_ink_op(written, color, 0.35))
    # The pen's lift-off: a stroke under the name, as signatures end.
    wx0, wy0, wx1, _ = written.bbox
    tail = hand.Written(
        [
            ("M", wx0 + 2, wy0 + 0.5),
            (
                "C",
                wx0 + (wx1 - wx0) * 0.4,
                wy0 - 1.5,
                wx1 - 4,
                wy0 + 2.5,
                wx1 + 6,
                wy0 + 1.0,
            ),
            ("L", wx1 + 6, wy0 + 1.6),
            (
                "C",
                wx1 - 4,
                wy0 + 3.0,
                wx0 + (wx1 - wx0) * 0.4,
                wy0 - 0.7,
                wx0 + 2,
                wy0 + 1.1,
            ),
            ("Z",),
        ],
        [wx0, wy0, wx1, wy0],
    )
    pdf.pages[index].append(_ink_op(tail, color, 0.3))
    return (wx0, wy0, wx1 + 6, written.bbox[3])


# Who else signs: a relative or colleague sharing the typed signer's surname.
OTHER_FIRST_NAMES = ("Linda", "Robert", "Susan", "James", "Karen", "Thomas", "Nancy", "Daniel")


def _other_signer(typed: str, rng: random.Random) -> str:
    """Someone other than `typed` signing for them: another first name, the same surname."""
    words = typed.replace(",", "").split()
    first = rng.choice([n for n in OTHER_FIRST_NAMES if not words or n != words[0]])
    return f"{first} {words[-1]}" if len(words) >= 2 else f"{first} {typed}"


def _typed_date(pdf: PdfDocument, index: int, box: Box) -> tuple[str, dt.date] | None:
    """The typed date of a signature's row: the first date leaf drawn on page `index` right
    of `box` and level with it (the form's DATE box), with its path."""
    row = sorted(
        (location["bbox"][0], path)
        for path, d in pdf.recorder.drawn.items()
        for location in d.locations
        if path.rsplit(".", 1)[-1].endswith("date")
        and location.get("page") == index + 1
        and "bbox" in location
        and location["bbox"][0] >= box[2] - 1
        and location["bbox"][1] < box[3]
        and location["bbox"][3] > box[1]
    )
    for _, path in row:
        value = pdf.recorder.leaf(path)[0]
        if isinstance(value, dt.date):
            return path, value
        if isinstance(value, str):
            try:
                return path, dt.date.fromisoformat(value)
            except ValueError:
                continue
    return None


@pattern(
    "hand.signature_conflict",
    "Contradicting signature",
    phase="overlay",
    truth="none",
    reference="p56_handwritten",
    applies=_is_form,
    incompatible=("hand.signature",),  # declared first: it wins a form both drew
    description="a form signed by someone other than its typed signer and dated by hand on "
    "another day than its typed date",
)
def _signature_conflict(staging: Staging) -> bool:
    """The typed signer and date stay the truth; the signature is a mark (its name adds no
    string, as `hand.signature`'s), and the handwritten date, in print, is a visible string
    of the universe: reporting it as the form's date is `contradicted`, not invented."""
    rng = staging.rng
    color = hand.INKS[rng.choice(("blue", "black", "blue"))]
    shift = rng.choice((-1, 1)) * rng.randint(3, 40)
    base = rng.randrange(1 << 30)
    conflicts: list[dict[str, Any]] = []
    staging.applied.details.update(hand="script", conflicts=conflicts)

    def draw(pdf: PdfDocument) -> None:
        for index in range(len(pdf.pages)):
            for box, signer in _signature_boxes(pdf, index):
                pen = _pens(base, index, box[0], box[1])
                typed = pdf.recorder.text_of(signer) if signer is not None else None
                if not typed:
                    continue
                name = _other_signer(typed, pen)
                if typed.split()[0][:1] != name[:1] and pen.random() < 0.5:
                    name = f"{name[0]}. {name.split()[-1]}"  # an initial another's
                if not hand.writable("script", name):
                    continue
                dated = _typed_date(pdf, index, box)
                written = None
                size = min(10.0, (box[3] - box[1]) * 0.5)
                if dated is not None:
                    day = dated[1] + dt.timedelta(days=shift)
                    written = f"{day.month}/{day.day}/{day.year % 100:02d}"
                    reserve = hand.width("print", written, size) + 10
                    if box[2] - box[0] - reserve < 60:
                        written = None
                x0, y0, x1, y1 = box
                ink = _sign(
                    pdf, index, (x0, y0, x1 - (reserve if written else 0), y1), name, pen, color
                )
                entry: dict[str, Any] = {
                    "page": index + 1,
                    "signer": signer,
                    "typed": typed,
                    "signed": name,
                }
                if written is not None and dated is not None:
                    date_ink = hand.write(
                        "print",
                        written,
                        max(ink[2] + 4, x1 - reserve + 4),
                        y0 + 3.0 + pen.uniform(0, 1.5),
                        size,
                        pen,
                        hand.NEAT,
                        angle=pen.uniform(-2.0, 2.0),
                    )
                    pdf.pages[index].append(_ink_op(date_ink, color, 0.3))
                    pdf.recorder.visible(written, index + 1, text_layer=False, box=date_ink.bbox)
                    entry.update(date=dated[0], typed_date=dated[1].isoformat(), written=written)
                staging.applied.pages.add(index + 1)
                conflicts.append(entry)

    staging.after_layout(draw)
    return True


@pattern(
    "hand.signature",
    "Signature",
    phase="overlay",
    truth="none",
    reference="p56_handwritten",
    applies=_is_form,
    description="the signer's name signed in cursive in the form's signature boxes",
)
def _signature(staging: Staging) -> bool:
    rng = staging.rng
    color = hand.INKS[rng.choice(("blue", "black", "blue"))]
    base = rng.randrange(1 << 30)
    signed: list[dict[str, Any]] = []
    staging.applied.details.update(hand="script", signatures=signed)

    def draw(pdf: PdfDocument) -> None:
        for index in range(len(pdf.pages)):
            for box, signer in _signature_boxes(pdf, index):
                pen = _pens(base, index, box[0], box[1])
                name = pdf.recorder.text_of(signer) if signer is not None else None
                if not name or not hand.writable("script", name):
                    continue
                name = _signed_name(name, pen)
                _sign(pdf, index, box, name, pen, color)
                staging.applied.pages.add(index + 1)
                signed.append({"page": index + 1, "signer": signer, "signed": name})

    staging.after_layout(draw)
    return True
