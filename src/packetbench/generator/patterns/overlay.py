"""overlay.* — what is drawn over or around a document's content (overlay phase).

These patterns draw on the finished pages (`Staging.after_layout`), never inside a renderer.
Only the redaction touches the truth: its covered values are null in truth and their text,
still in the text layer under the box, is listed under `rendered_universe.hidden`. Status
icons draw a value as a symbol whose meaning a legend states (the value stays canonical, the
delta carries the legend).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from packetbench.generator.patterns.base import Staging, Subject, pattern
from packetbench.generator.render import images
from packetbench.generator.render.fonts import DINGBATS, missing
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR, width_of
from packetbench.generator.render.ops import OVER, RectOp, TextOp
from packetbench.generator.render.pdf import PdfDocument

Box = tuple[float, float, float, float]


def _located(pdf: PdfDocument, page: int) -> Iterable[tuple[str, list[float]]]:
    """(path, bbox) of every value drawn on `page` (1-based)."""
    for path, drawn in pdf.recorder.drawn.items():
        for location in drawn.locations:
            if location.get("page") == page and "bbox" in location:
                yield path, location["bbox"]


def _meets(bbox: list[float], box: Box) -> bool:
    return bbox[0] < box[2] and bbox[2] > box[0] and bbox[1] < box[3] and bbox[3] > box[1]


def _first_leaf(subject: Subject, *names: str) -> str | None:
    """The first non-null string leaf whose path ends with one of `names`."""
    for path, value, _ in subject.values("string", "id"):
        if any(path == n or path.endswith(f".{n}") for n in names) and isinstance(value, str):
            return path
    return None


# The patterns below are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


# --- watermark --------------------------------------------------------------------------------

WATERMARKS = (
    "DRAFT",
    "COPY",
    "DRAFT - NOT FOR UNDERWRITING",
    "FOR REVIEW ONLY",
    "CONFIDENTIAL",
    "FILE COPY",
)


@pattern(
    "overlay.watermark",
    "Watermark",
    phase="overlay",
    truth="none",
    reference="p09_watermark",
    description="diagonal DRAFT / COPY text behind every page",
)
def _watermark(staging: Staging) -> bool:
    rng = staging.rng
    text = rng.choice(WATERMARKS)
    gray = rng.choice((0.45, 0.5, 0.55))
    staging.applied.details.update(text=text, gray=gray)

    def draw(pdf: PdfDocument) -> None:
        angle = math.degrees(math.atan2(pdf.height, pdf.width))
        diagonal = math.hypot(pdf.width, pdf.height)
        size = min(110.0, 0.7 * diagonal / max(width_of(text, BOLD, 1.0), 1.0))
        length = width_of(text, BOLD, size)
        rad = math.radians(angle)
        cx, cy = pdf.width / 2, pdf.height / 2
        x = cx - math.cos(rad) * length / 2 + math.sin(rad) * size * 0.35
        y = cy - math.sin(rad) * length / 2 - math.cos(rad) * size * 0.35
        # The band the letters cover, to name the values under them.
        half = size * 0.6
        for index in range(len(pdf.pages)):
            pdf.text(
                index,
                x,
                y,
                text,
                BOLD,
                size,
                angle=angle,
                color=(gray, gray, gray),
                alpha=0.22,
                layer=OVER,
            )
            staging.applied.pages.add(index + 1)
            for path, bbox in _located(pdf, index + 1):
                mx, my = (bbox[0] + bbox[2]) / 2 - cx, (bbox[1] + bbox[3]) / 2 - cy
                along = mx * math.cos(rad) + my * math.sin(rad)
                across = -mx * math.sin(rad) + my * math.cos(rad)
                if (
                    abs(along) <= length / 2
                    and abs(across) <= half
                    and path not in staging.applied.targets
                ):
                    staging.applied.targets.append(path)

    staging.after_layout(draw)
    return True


# --- VOID / SUPERSEDED stamp --------------------------------------------------------------------


@pattern(
    "overlay.void_stamp",
    "VOID stamp",
    phase="overlay",
    truth="none",
    reference="p20_void_stamp",
    description="a red VOID / SUPERSEDED stamp over data on one page",
)
def _void(staging: Staging) -> bool:
    rng = staging.rng
    word = rng.choice(("VOID", "SUPERSEDED", "VOID", "CANCELLED"))
    staging.applied.details["text"] = word

    def draw(pdf: PdfDocument) -> None:
        pages = [i for i in range(len(pdf.pages)) if any(_located(pdf, i + 1))]
        if not pages:
            return
        index = rng.choice(pages)
        boxes = [bbox for _, bbox in _located(pdf, index + 1)]
        ys = sorted((b[1] + b[3]) / 2 for b in boxes)
        cy = ys[len(ys) // 2]
        size = 40.0
        width = width_of(word, BOLD, size) + 30
        height = size + 16
        cx = pdf.width / 2 + rng.uniform(-80, 80)
        x0, y0 = cx - width / 2, cy - height / 2
        pdf.rect(
            index, x0, y0, width, height, fill=0.0, color=(0.92, 0.3, 0.3), alpha=0.35, layer=OVER
        )
        pdf.rect(
            index,
            x0 + 3,
            y0 + 3,
            width - 6,
            height - 6,
            None,
            2.0,
            color=(0.8, 0.05, 0.05),
            alpha=0.8,
            layer=OVER,
        )
        pdf.text(
            index,
            cx,
            y0 + 16,
            word,
            BOLD,
            size,
            align="center",
            color=(0.8, 0.05, 0.05),
            alpha=0.75,
            layer=OVER,
        )
        staging.applied.pages.add(index + 1)
        start = len(staging.applied.targets)
        staging.applied.targets.extend(
            path
            for path, bbox in _located(pdf, index + 1)
            if _meets(bbox, (x0, y0, x0 + width, y0 + height))
        )
        drawn = pdf.pages[index][-3:]  # the fill, the frame and the word

        def settle(pdf: PdfDocument) -> None:
            """On a page that keeps its text layer, the stamp moved clear of its twins
            (`_clear_of_twins`); a scanned page's stamp stays where it was drawn."""
            if index in pdf.look.scans:
                return
            word_op = drawn[2]
            assert isinstance(word_op, TextOp)
            moved = _clear_of_twins(pdf, index, word, cx, cy, size, word_op)
            if moved == cx:
                return
            for op in drawn:
                assert isinstance(op, RectOp | TextOp)
                op.x += moved - cx
            left = x0 + moved - cx
            del staging.applied.targets[start:]
            staging.applied.targets.extend(
                path
                for path, bbox in _located(pdf, index + 1)
                if _meets(bbox, (left, y0, left + width, y0 + height))
            )

        pdf.settle.append(settle)

    staging.after_layout(draw)
    return True


def _letter_boxes(
    x: float, y: float, text: str, font: str, size: float, angle: float = 0.0
) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each letter of `text` drawn at (x, y) with its upright bounding box (PDF points, a
    little larger than its glyph: from below the baseline to above the cap height, turned by
    `angle` about (x, y))."""
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)
    out = []
    for i, letter in enumerate(text):
        start, end = width_of(text[:i], font, size), width_of(text[: i + 1], font, size)
        corners = [(u, v) for u in (start, end) for v in (-0.25 * size, 0.8 * size)]
        xs = [x + u * cos - v * sin for u, v in corners]
        ys = [y + u * sin + v * cos for u, v in corners]
        out.append((letter, (min(xs), min(ys), max(xs), max(ys))))
    return out


def _clear_of_twins(
    pdf: PdfDocument, index: int, word: str, cx: float, cy: float, size: float, own: TextOp
) -> float:
    """`cx`, or the nearest place along the stamp's line (steps of a tenth of its size) where
    no letter of the stamp overlaps the same letter of other text in the same font on the
    page (a watermark's). pdfium drops a character that overlaps its twin in the same font,
    taking the pair for fake bold: a VOID stamp's O over a COPY watermark's O was extracted
    as "VID"."""
    others = [
        box
        for op in pdf.pages[index]
        if isinstance(op, TextOp) and op.font == BOLD and op is not own
        for box in _letter_boxes(op.x, op.y, op.text, op.font, op.size, op.angle)
    ]
    width = width_of(word, BOLD, size)
    base = cy - (size + 16) / 2 + 16

    def clear(at: float) -> bool:
        mine = _letter_boxes(at - width / 2, base, word, BOLD, size)
        return not any(
            a == b and p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]
            for a, p in mine
            for b, q in others
        )

    for step in range(41):
        for at in (cx + step * size / 10, cx - step * size / 10):
            if clear(at):
                return at
    return cx


# --- status icons -------------------------------------------------------------------------------

ICONS = {
    "Open": "\u25cf",
    "Closed": "\u2714",
    "Closed Without Payment": "\u2726",
    "Re-opened": "\u25c6",
    "Denied": "\u2716",
    "Subrogation": "\u25b2",
    "In Suit": "\u2605",
}


def _statuses(subject: Subject) -> list[tuple[str, str]]:
    return [
        (path, value)
        for path, value, leaf in subject.values("enum")
        if leaf.codes is not None and leaf.codes.name == "claim_status"
    ]


@pattern(
    "overlay.status_icons",
    "Status icons",
    phase="overlay",
    truth="shown",
    reference="p14_embedded_images",
    applies=lambda s: bool(_statuses(s)),
    description="claim statuses drawn as symbols, with a legend at the page foot",
)
def _status_icons(staging: Staging) -> bool:
    statuses = [
        (p, v)
        for p, v in _statuses(staging.subject)
        if p not in staging.presentation.shown and v in ICONS
    ]
    if not statuses:
        return False
    legend = {ICONS[value]: value for _, value in statuses}
    for path, value in statuses:
        staging.show(path, ICONS[value], value, reading="legend")
        staging.presentation.fonts[path] = DINGBATS
    staging.applied.details["legend"] = legend

    def draw(pdf: PdfDocument) -> None:
        pages = (
            {loc["page"] for path, _ in statuses for loc in pdf.recorder.drawn[path].locations}
            if statuses
            else set()
        )
        width = (
            width_of("Status legend:", BOLD, 5.8)
            + 5
            + sum(
                width_of(icon, DINGBATS, 5.8) + 2 + width_of(value, REGULAR, 5.8) + 6
                for icon, value in legend.items()
            )
        )
        for page in sorted(pages):
            x = pdf.width - MARGIN - width
            x += pdf.text(page - 1, x, MARGIN - 4, "Status legend:", BOLD, 5.8) + 5
            for icon, value in legend.items():
                x += pdf.text(page - 1, x, MARGIN - 4, icon, DINGBATS, 5.8) + 2
                x += pdf.text(page - 1, x, MARGIN - 4, value, REGULAR, 5.8) + 6

    staging.after_layout(draw)
    return True


# --- carrier logo -------------------------------------------------------------------------------

LOGO_COLORS = ((0, 61, 121), (165, 28, 48), (0, 110, 80), (64, 64, 64), (200, 90, 0))


@pattern(
    "overlay.logo",
    "Carrier logo",
    phase="overlay",
    truth="none",
    applies=lambda s: (
        _first_leaf(s, "carrier", "carrier_name", "carrier.name", "insurer") is not None
    ),
    description="the carrier's logo as an image in the page head",
)
def _logo(staging: Staging) -> bool:
    rng = staging.rng
    path = _first_leaf(staging.subject, "carrier", "carrier_name", "carrier.name", "insurer")
    if path is None:
        return False
    full = str(staging.subject.leaves()[path][0])
    words = [
        w
        for w in full.replace(",", "").split()
        if w.lower()
        not in (
            "insurance",
            "company",
            "of",
            "the",
            "casualty",
            "property",
            "america",
            "inc.",
            "mutual",
            "group",
            "exchange",
        )
    ]
    name = " ".join(words[:2]) or full.split()[0]
    if missing(BOLD, name) is not None:
        return False  # a carrier named in another script (data.rtl_names): no logo to draw
    color = rng.choice(LOGO_COLORS)
    shape = rng.choice(("circle", "diamond", "square"))
    png = images.emblem(color, shape, 18)
    staging.applied.details.update(text=name, shape=shape)

    def draw(pdf: PdfDocument) -> None:
        # In the page head's right corner, where carriers print their mark: the mark is an
        # image, the name beside it coloured text.
        top = pdf.height - MARGIN
        size = 11.0
        width = width_of(name, BOLD, size)
        right = pdf.width - MARGIN - 4
        pdf.image(0, right - width - 22, top - 19, 18, 18, png, layer=OVER)
        rgb = tuple(c / 255 for c in color)
        pdf.text(
            0,
            right - width,
            top - 14,
            name,
            BOLD,
            size,
            color=rgb,  # type: ignore[arg-type]
            layer=OVER,
        )
        staging.applied.pages.add(1)

    staging.after_layout(draw)
    return True


# --- running header and footer ------------------------------------------------------------------


@pattern(
    "overlay.untagged_header_footer",
    "Running header and footer",
    phase="overlay",
    truth="none",
    reference="p35_untagged_hf",
    description="a running header and footer on every page, spliced mid-way into the content "
    "stream",
)
def _untagged(staging: Staging) -> bool:
    rng = staging.rng
    insured = _first_leaf(
        staging.subject,
        "insured_name",
        "named_insured",
        "company_name",
        "applicant.name",
        "insured.name",
    )
    stamp = f"{rng.randrange(1, 13):02d}/{rng.randrange(1, 29):02d}/20{rng.randrange(24, 27)}"
    reference = f"Ref {rng.choice('ABCDEFGHJK')}{rng.randrange(100000, 999999)}"
    footer = rng.choice(("CONFIDENTIAL", "Internal use only", "Underwriting file copy"))

    def draw(pdf: PdfDocument) -> None:
        for index, ops in enumerate(pdf.pages):
            # Spliced into the middle of the page's drawing order, as a PDF printer that
            # stamps headers between content objects would: text extraction meets them
            # mid-page.
            before = len(ops)
            y = pdf.height - MARGIN + 10
            x = MARGIN
            x += pdf.text(index, x, y, f"{pdf.title} -", REGULAR, 6.5) + 3
            if insured is not None and pdf.recorder.text_of(insured) is not None:
                pdf.field(index, x, y, insured, width=pdf.width / 2, size=6.5)
                staging.applied.targets.append(insured)
            pdf.text(
                index,
                pdf.width - MARGIN,
                y,
                f"Printed {stamp}  {reference}",
                REGULAR,
                6.5,
                align="right",
            )
            pdf.text(index, pdf.width / 2, MARGIN - 25, footer, REGULAR, 6, align="center")
            added = ops[before:]
            del ops[before:]
            middle = len(ops) // 2
            ops[middle:middle] = added
            staging.applied.pages.add(index + 1)
        staging.applied.targets[:] = list(dict.fromkeys(staging.applied.targets))

    staging.after_layout(draw)
    staging.applied.details.update(printed=stamp, reference=reference, footer=footer)
    return True


# --- redaction ----------------------------------------------------------------------------------

SENSITIVE = (
    "fein",
    "license_number",
    "loan_number",
    "phone",
    "email",
    "birth_date",
    "customer_id",
    "claimant",
    "vin",
    "npn",
    "agency_code",
    "fax",
)


def _sensitive(subject: Subject) -> list[str]:
    leaves = subject.leaves()
    counts: dict[Any, int] = {}
    for value, _ in leaves.values():
        if value is not None:
            counts[value] = counts.get(value, 0) + 1
    return [
        path
        for path, (value, _) in leaves.items()
        if value is not None and counts[value] == 1 and path.rsplit(".", 1)[-1] in SENSITIVE
    ]


@pattern(
    "overlay.redaction",
    "Redaction",
    phase="overlay",
    truth="hidden",
    applies=lambda s: bool(_sensitive(s)),
    description="black boxes over sensitive values whose text stays in the text layer",
)
def _redaction(staging: Staging) -> bool:
    candidates = [p for p in _sensitive(staging.subject) if p not in staging.presentation.shown]
    if not candidates:
        return False
    staging.rng.shuffle(candidates)
    chosen = sorted(candidates[: staging.rng.randint(1, 4)])
    leaves = staging.subject.leaves()
    for path in chosen:
        staging.presentation.redacted.add(path)
        staging.applied.targets.append(path)

    def draw(pdf: PdfDocument) -> None:
        for path in chosen:
            for location in pdf.recorder.covered.get(path, []):
                x0, y0, x1, y1 = location["bbox"]
                pdf.rect(
                    location["page"] - 1,
                    x0 - 1.5,
                    y0 - 0.5,
                    x1 - x0 + 3,
                    y1 - y0 + 1,
                    fill=0.0,
                    layer=OVER,
                )
        for path in chosen:
            value = leaves[path][0]
            located = pdf.recorder.covered.get(path)
            if located:
                staging.applied.delta[path] = {
                    "canonical": value,
                    "shown": None,
                    "hidden": "under a black box",
                }

    staging.after_layout(draw)

    def check(recorder: Any) -> bool:
        return any(recorder.covered.get(path) for path in chosen)

    staging.confirm(check)
    return True


# --- highlighter --------------------------------------------------------------------------------


@pattern(
    "overlay.highlight",
    "Highlighter",
    phase="overlay",
    truth="none",
    applies=lambda s: bool(s.values("money", "id", "date")),
    description="translucent highlighter marks over some values",
)
def _highlight(staging: Staging) -> bool:
    rng = staging.rng
    candidates = [path for path, _, _ in staging.subject.values("money", "id", "date")]
    if not candidates:
        return False
    totals = [p for p in candidates if "total" in p]
    chosen = set(rng.sample(candidates, min(len(candidates), rng.randint(2, 6))))
    chosen.update(totals[:2])
    color = rng.choice(((1.0, 0.96, 0.4), (0.72, 1.0, 0.55), (1.0, 0.78, 0.9)))

    def draw(pdf: PdfDocument) -> None:
        for path in sorted(chosen):
            drawn = pdf.recorder.drawn.get(path)
            if drawn is None:
                continue
            staging.applied.targets.append(path)
            for location in drawn.locations:
                x0, y0, x1, y1 = location["bbox"]
                # Among the page's fills, after any row shading, under the text.
                pdf.rect(
                    location["page"] - 1,
                    x0 - 2,
                    y0 - 1,
                    x1 - x0 + 4,
                    y1 - y0 + 2,
                    fill=0.0,
                    color=color,
                )

    staging.after_layout(draw)
    return True


@pattern(
    "overlay.blot",
    "Blot past reading",
    phase="overlay",
    truth="illegible",
    # An OCR layer would carry the destroyed text in the file: it is the scan's own reading.
    incompatible=("scan.ocr_layer",),
    description="a dense toner or ink blot over one to three values of a scanned page, past "
    "reading: where a value has no other legible location, truth expects abstention",
)
def _blot(staging: Staging) -> bool:
    """One to three values drawn once, on scanned pages, covered past reading (the pages are
    chosen after layout: `PdfDocument._blot_targets`). Kept only when a page was scanned; each
    blotted value is judged by the legibility rule like every other box, so the delta says
    whether the rule found it illegible."""
    staging.presentation.blots = (staging.rng.randint(1, 3), staging.rng.getrandbits(63))
    applied = staging.applied

    def check(recorder: Any) -> bool:
        chosen = list(recorder.presentation.blotted)
        if not chosen:
            return False
        illegible = set(recorder.illegible_paths())
        for path in chosen:
            drawn = recorder.drawn[path]
            applied.targets.append(path)
            applied.pages.update(int(loc["page"]) for loc in drawn.locations)
            applied.delta[path] = {
                "canonical": recorder.leaf(path)[0],
                "shown": drawn.rendered_as,
                "illegible": path in illegible,
                "damage": "under a blot",
            }
        return True

    staging.confirm(check)
    return True
