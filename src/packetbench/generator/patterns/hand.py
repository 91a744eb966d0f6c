"""hand.* — handwriting and rubber stamps: ink on the paper, nothing in the text layer.

A submission passes through hands before it reaches an underwriter: the applicant fills the
printed form with a pen and signs it, corrects a figure by striking it through, the mail room
stamps it RECEIVED, somebody scribbles a note in the margin. All of it is ink, so these
patterns draw it as glyph outlines (`generator.render.hand`), never as PDF text: a text
extractor finds nothing there, and every such location and string is marked
`text_layer: false` (the audit reads it by OCR, judged by the "handwriting" recall level).

Truth rules (docs/patterns.md): a handwritten form value is still the value (truth unchanged, only
its location loses the text layer); a hand correction's truth is the correction, and the
struck value, still printed and readable underneath its stroke, is a visible string of the
universe (extracting it is `contradicted`); stamps, notes and signatures add visible strings
(signatures add none: a signature is a mark, its name is printed beside it) and touch no
truth path.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from packetbench.generator.patterns.base import Staging, Subject, pattern
from packetbench.generator.render import hand
from packetbench.generator.render.pdf import (
    OVER,
    ImageOp,
    LineOp,
    PathOp,
    PdfDocument,
    RectOp,
    TextOp,
    width_of,
)

Box = tuple[float, float, float, float]
ACORD = "acord_"
# Leaf kinds a person writes into a form's boxes (prose and checkboxes are left to the type).
WRITTEN_KINDS = ("string", "id", "date", "money", "number", "percent", "enum")
# A pen writes no smaller than this (points), or the value stays typed: Tesseract reads the
# shipped hands reliably from about 6.5 pt at 300 dpi.
MIN_HAND = 6.5
MAX_FILLED = 40  # values one hand fills in a document (about a form page)


def _is_form(subject: Subject) -> bool:
    return subject.doc_type.startswith(ACORD)


def _pens(seed: int, *parts: object) -> random.Random:
    """A random stream per drawn value: seeded by text (sha512), so the jitter of one value
    does not depend on which values were drawn before it."""
    return random.Random(":".join(str(p) for p in (seed, *parts)))


def _writable_paths(staging: Staging, kinds: Iterable[str]) -> list[str]:
    """Leaves a pen can take over: drawn in the document's own font (not another script, a
    symbol or a ligature) and not covered by a redaction."""
    look = staging.presentation
    return [
        path
        for path, _, _ in staging.subject.values(*kinds)
        if path not in look.fonts
        and path not in look.glyphs
        and path not in look.redacted
        and path not in look.inked
    ]


def _ink_op(
    written: hand.Written,
    color: tuple[float, float, float],
    stroke: float,
    alpha: float | None = None,
) -> PathOp:
    return PathOp(tuple(written.commands), color, stroke, alpha, OVER)


# The patterns below are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


# --- free space on a finished page ---------------------------------------------------------------


def _occupied(pdf: PdfDocument, index: int) -> list[Box]:
    """What is printed on page `index` (0-based) that ink must not cover: text, rules, boxes,
    images and earlier ink. Lettering at an angle (a watermark) is see-through."""
    boxes: list[Box] = []
    for op in pdf.pages[index]:
        if isinstance(op, TextOp) and not op.angle:
            w = width_of(op.text, op.font, op.size)
            boxes.append((op.x, op.y - 0.25 * op.size, op.x + w, op.y + 0.8 * op.size))
        elif isinstance(op, ImageOp | RectOp):
            # Boxes and shaded bands: ink across a rule is read far less surely.
            boxes.append((op.x, op.y, op.x + op.w, op.y + op.h))
        elif isinstance(op, LineOp):
            boxes.append(
                (min(op.x0, op.x1), min(op.y0, op.y1), max(op.x0, op.x1), max(op.y0, op.y1))
            )
        elif isinstance(op, PathOp):
            xs = [float(v) for c in op.commands for v in c[1::2]]  # type: ignore[arg-type]
            ys = [float(v) for c in op.commands for v in c[2::2]]  # type: ignore[arg-type]
            if xs:
                boxes.append((min(xs), min(ys), max(xs), max(ys)))
    for drawn in pdf.recorder.drawn.values():
        for location in drawn.locations:
            if location.get("page") == index + 1 and "bbox" in location:
                x0, y0, x1, y1 = location["bbox"]
                boxes.append((x0, y0, x1, y1))
    return boxes


def _meets(a: Box, b: Box, gap: float = 3.0) -> bool:
    return a[0] - gap < b[2] and a[2] + gap > b[0] and a[1] - gap < b[3] and a[3] + gap > b[1]


def _free_spot(
    pdf: PdfDocument,
    index: int,
    width: float,
    height: float,
    rng: random.Random,
    prefer: Callable[[float, float], float],
) -> tuple[float, float] | None:
    """The lower-left corner of a `width` x `height` area of page `index` where nothing is
    printed, among the best few by `prefer(x, y)` (lower is better); None when the page is
    full."""
    taken = _occupied(pdf, index)
    edge = 12.0  # ink stays this far inside the paper
    # Every candidate corner on a 9-point grid, y by y then x by x, kept when its area meets
    # no printed box (`_meets`, computed for the whole grid at once: the same comparisons on
    # the same floats, so the same spots in the same order).
    xs: list[float] = []
    x = edge
    while x + width <= pdf.width - edge:
        xs.append(x)
        x += 9.0
    ys: list[float] = []
    y = edge
    while y + height <= pdf.height - edge:
        ys.append(y)
        y += 9.0
    spots: list[tuple[float, float, float]] = []
    if xs and ys:
        free = np.ones((len(ys), len(xs)), dtype=bool)
        if taken:
            boxes = np.array(taken, dtype=np.float64)
            gap = 3.0
            left = np.array(xs)[:, None]
            bottom = np.array(ys)[:, None]
            across = (left - gap < boxes[:, 2]) & ((left + width) + gap > boxes[:, 0])
            along = (bottom - gap < boxes[:, 3]) & ((bottom + height) + gap > boxes[:, 1])
            free = (along.astype(np.int32) @ across.T.astype(np.int32)) == 0
        for row, col in zip(*np.nonzero(free), strict=True):
            spots.append((prefer(xs[col], ys[row]), xs[col], ys[row]))
    if not spots:
        return None
    spots.sort()
    _, x, y = rng.choice(spots[:6])
    return x, y


# --- hand corrections ----------------------------------------------------------------------------
# Declared first, so applied first: a value a hand corrects is not also filled in by hand.

CORRECTED_KINDS = ("money", "number", "date", "id")


def _mistyped(text: str, rng: random.Random) -> str | None:
    """`text` with one slip of the typist: two different adjacent digits swapped, or one
    digit changed; None when it holds no digit."""
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if not digits:
        return None
    pairs = [
        i for i in digits if i + 1 < len(text) and text[i + 1].isdigit() and text[i] != text[i + 1]
    ]
    if pairs and rng.random() < 0.6:
        i = rng.choice(pairs)
        return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    i = rng.choice(digits)
    other = rng.choice([d for d in "0123456789" if d != text[i]])
    return text[:i] + other + text[i + 1 :]


@pattern(
    "hand.correction",
    "Hand correction",
    phase="document",
    truth="none",
    reference="p56_handwritten",
    applies=_is_form,
    description="a typed value struck through with the right value written beside it by hand; "
    "the struck value stays visible (universe), truth is the correction",
)
def _correction(staging: Staging) -> bool:
    rng = staging.rng
    # Values in the form's own boxes, where a box leaves room beside the value; a table
    # cell has none.
    # Address parts share one line of their box, so no room is left beside any of them.
    paths = [
        p
        for p in _writable_paths(staging, CORRECTED_KINDS)
        if "[" not in p and ".address." not in p
    ]
    if not paths:
        return False
    chosen = sorted(rng.sample(paths, min(len(paths), rng.randint(1, 3))))
    ink = rng.choice(("blue", "red", "black"))
    base = rng.randrange(1 << 30)
    staging.applied.details.update(hand="print", ink=ink)
    leaves = staging.subject.leaves()
    corrected: list[str] = []

    def pen_for(path: str) -> Callable[..., list[float] | None]:
        def ink_value(
            pdf: PdfDocument,
            page: int,
            x: float,
            y: float,
            text: str,
            lines: list[str],
            font: str,
            size: float,
            align: str,
            room: float | None,
        ) -> list[float] | None:
            if len(lines) != 1 or room is None or not hand.writable("print", text):
                return None
            pen = _pens(base, path, page, round(x, 1), round(y, 1))
            struck = _mistyped(text, pen)
            if struck is None:
                return None
            struck_width = _typed_width(struck, font, size)
            want = max(MIN_HAND + 0.5, size * 1.1)
            hand_width = hand.width("print", text, want) * 1.05
            # The struck value keeps its place; the correction goes beside it, into the room
            # the box leaves (a value whose box is full stays typed).
            if struck_width + 5 + hand_width > room:
                return None
            left = (
                x
                if align == "left"
                else x - struck_width
                if align == "right"
                else x - struck_width / 2
            )
            pdf.text(page, left, y, struck, font, size)
            color = hand.INKS[ink]
            rise = size * 0.3
            stroke = hand.Written(
                [
                    ("M", left - 1.5, y + rise - 0.4),
                    ("L", left + struck_width + 1.5, y + rise + pen.uniform(-0.6, 0.9) - 0.4),
                    ("L", left + struck_width + 1.5, y + rise + pen.uniform(-0.6, 0.9) + 0.5),
                    ("L", left - 1.5, y + rise + 0.5),
                    ("Z",),
                ],
                [],
            )
            pdf.pages[page].append(_ink_op(stroke, color, 0.2))
            hand_left = left - 5 - hand_width if align == "right" else left + struck_width + 5
            out = hand.write(
                "print",
                text,
                hand_left,
                y + pen.uniform(0.0, 1.2),
                want,
                pen,
                hand.LOOSE,
                angle=pen.uniform(-2.0, 3.0),
            )
            pdf.pages[page].append(_ink_op(out, color, 0.22))
            if path not in corrected:
                corrected.append(path)
                staging.applied.delta[path] = {
                    "canonical": leaves[path][0],
                    "shown": text,
                    "struck": struck,
                }
            return out.bbox

        return ink_value

    for path in chosen:
        staging.presentation.inked[path] = pen_for(path)

    def check(recorder: Any) -> bool:
        staging.applied.targets[:] = [p for p in chosen if p in corrected]
        for path in list(staging.applied.delta):
            if path not in corrected:
                del staging.applied.delta[path]
        return bool(corrected)

    staging.confirm(check)
    return True


# --- form values written by hand -----------------------------------------------------------------


def _typed_width(text: str, font: str, size: float) -> float:
    return width_of(text, font, size)


def _fits(text: str, font: str, size: float, slack: float) -> float | None:
    """The size the print hand writes `text` at, within `slack` times the typed width; None
    when it would be too small to read."""
    want = size * 1.1
    room = _typed_width(text, font, size) * slack
    natural = hand.width("print", text, want) * 1.05
    if natural > room:
        want *= room / natural
    return want if want >= MIN_HAND else None


@pattern(
    "hand.filled_fields",
    "Handwritten form values",
    phase="document",
    truth="none",
    reference="p56_handwritten",
    applies=_is_form,
    description="a run of a form's values written by hand, as ink with no text layer",
)
def _filled_fields(staging: Staging) -> bool:
    rng = staging.rng
    paths = _writable_paths(staging, WRITTEN_KINDS)
    if not paths:
        return False
    # One person filled one run of the form: a share of its boxes, contiguous in form order,
    # at most a page's worth (a long schedule is typed, or attached).
    share = rng.uniform(0.5, 1.0)
    count = max(1, min(MAX_FILLED, round(len(paths) * share)))
    start = rng.randrange(0, len(paths) - count + 1)
    chosen = paths[start : start + count]
    ink = rng.choice(("blue", "black", "blue"))
    base = rng.randrange(1 << 30)
    staging.applied.details.update(hand="print", ink=ink)
    written: list[str] = []

    def pen_for(path: str) -> Callable[..., list[float] | None]:
        def ink_value(
            pdf: PdfDocument,
            page: int,
            x: float,
            y: float,
            text: str,
            lines: list[str],
            font: str,
            size: float,
            align: str,
            room: float | None,
        ) -> list[float] | None:
            if len(lines) != 1 or not hand.writable("print", text):
                return None
            pen = _pens(base, path, page, round(x, 1), round(y, 1))
            want = _fits(text, font, size, 1.0)
            if want is None:
                return None
            width = hand.width("print", text, want)
            left = x if align == "left" else x - width if align == "right" else x - width / 2
            out = hand.write(
                "print",
                text,
                left,
                y + pen.uniform(-0.5, 0.9),
                want,
                pen,
                hand.LOOSE,
                angle=pen.uniform(-1.5, 1.5),
            )
            pdf.pages[page].append(_ink_op(out, hand.INKS[ink], 0.22))
            if path not in written:
                written.append(path)
            return out.bbox

        return ink_value

    for path in chosen:
        staging.presentation.inked[path] = pen_for(path)

    def check(recorder: Any) -> bool:
        staging.applied.targets[:] = [p for p in chosen if p in written]
        return bool(written)

    staging.confirm(check)
    return True


# --- signature -----------------------------------------------------------------------------------

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


# --- RECEIVED stamp ------------------------------------------------------------------------------

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


# --- margin note ---------------------------------------------------------------------------------

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
