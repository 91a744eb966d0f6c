"""textlayer.* — PDF structure attacks: the page looks the same, its text layer does not
(emit and post phases). scan.ocr_layer, a scan with an invisible OCR layer that lies, draws its
layer with the helpers here.

The truth never changes: it is what a person reads on the page (docs/patterns.md rule 1). What
changes is which reader can prove it:
- a value whose text layer no longer yields it (scrambled or gapped ToUnicode, glyph
  outlines, spaces turned into TJ offsets, a lying layer drawn over it, lines of it out of
  order) keeps its truth; its location gets ``text_layer: false`` (only OCR of the page image
  can confirm it, rule 2) and the record lists it under ``details.unreadable`` (page -> paths),
  which the audit checks: the text layer must really not yield it there;
- text nobody can see (an invisible OCR layer's misreadings, white text, a hidden
  optional-content layer, the part of a string past a clipping path) goes to
  ``rendered_universe.hidden``, never to the truth (rule 3); the audit checks it is in the
  text layer and, with OCR, not on the page image.
Rules drawn as fragments or curves change no text at all: their records count what was drawn.

A value split across pages (table.row_split) is read as its pieces joined, so no attack picks
one piece of it, and the attacks that change a whole page's text layer are not combined with
row splits.

One text attack per document: two would act on each other's output (a kerned run cannot be
scrambled by the same rule the audit expects). The rule attacks combine with any of them. None
is combined with a scan: a scanned page has no text layer left to attack (scan.ocr_layer is the
scan that brings its own).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Set
from typing import Any, TypeGuard

import numpy as np

from packetbench.core.text import folded
from packetbench.generator.patterns.base import Applied, Staging, pattern
from packetbench.generator.render import attack, fonts
from packetbench.generator.render.pdf import (
    ASCENT,
    CONTENT,
    DESCENT,
    MARGIN,
    ImageOp,
    LineOp,
    Op,
    PdfDocument,
    RectOp,
    TextOp,
    width_of,
)
from packetbench.generator.render.recorder import Location, Recorder

TEXT_ATTACKS = (
    "textlayer.invisible_ocr",
    "textlayer.reading_order",
    "textlayer.kerning",
    "textlayer.cmap_scramble",
    "textlayer.cmap_gaps",
    "textlayer.clipped",
    "textlayer.hidden_layer",
    "textlayer.white_text",
    "textlayer.outlined",
    "textlayer.microtext",
)
RULE_ATTACKS = ("textlayer.fragmented_rules", "textlayer.bezier_rules")
NO_SCAN = ("scan.*",)
# What an attack on every string of a page also excludes: a split value's piece there would be
# attacked alone.
ROW_SPLIT = ("table.row_split",)

# The patterns below are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


# --- what is drawn where ----------------------------------------------------------------------


def _plain(op: Op) -> TypeGuard[TextOp]:
    """An upright, opaque content string in a cp1252 font: what the attacks redraw."""
    return (
        isinstance(op, TextOp)
        and op.layer == CONTENT
        and not op.angle
        and op.alpha is None
        and op.font in attack.TEXT_FONTS
    )


def _located(pdf: PdfDocument, page: int) -> list[tuple[str, Location]]:
    """(path, location) of every value drawn on `page` (1-based), in model order."""
    return [
        (path, location)
        for path, drawn in pdf.recorder.drawn.items()
        for location in drawn.locations
        if location.get("page") == page and "bbox" in location
    ]


def _ops_in(ops: list[Op], bbox: list[float], text: str) -> list[int]:
    """Indices of the content strings that draw a value located at `bbox` (their origin
    inside it) and whose text is part of the value's shown text."""
    return _OpIndex(ops).within(bbox, text)


class _OpIndex:
    """A page's content strings ordered by their origin's height, so the strings whose origin
    lies within a box's heights are found by bisection, not by testing every string of the
    page against every value (`_ops_in` is asked once per value drawn on the page)."""

    def __init__(self, ops: list[Op]) -> None:
        found = sorted(
            (op.y, index, op)
            for index, op in enumerate(ops)
            if isinstance(op, TextOp) and op.layer == CONTENT and op.text.strip()
        )
        self.ys = [y for y, _, _ in found]
        self.ops = [(index, op, " ".join(op.text.split())) for _, index, op in found]

    def within(self, bbox: list[float], text: str) -> list[int]:
        x0, y0, x1, y1 = bbox
        # Wrapping splits at any whitespace (a no-break space too) and joins lines' words with
        # spaces: compare with whitespace squashed.
        squashed = " ".join(text.split())
        low, high = bisect.bisect_left(self.ys, y0), bisect.bisect_right(self.ys, y1)
        return sorted(
            index
            for index, op, words in self.ops[low:high]
            if x0 - 1.0 <= op.x <= x1 and words in squashed
        )


def _values(pdf: PdfDocument, page: int) -> list[tuple[str, Location, list[int]]]:
    """(path, location, op indices) of the values drawn on `page` (1-based) as text."""
    index = _OpIndex(pdf.pages[page - 1])
    out = []
    for path, location in _located(pdf, page):
        rendered = pdf.recorder.drawn[path].rendered_as
        if not rendered.strip() or "fragment" in location:
            continue  # an empty checkbox, or one piece of a value split across pages
        found = index.within(location["bbox"], rendered)
        if found:
            out.append((path, location, found))
    return out


def _unreadable(applied: Applied, page: int, path: str, location: Location) -> None:
    """The text layer no longer yields the value at `location`: only OCR can prove it."""
    location["text_layer"] = False
    pages = applied.details.setdefault("unreadable", {})
    paths = pages.setdefault(str(page), [])
    if path not in paths:
        paths.append(path)
    if path not in applied.targets:
        applied.targets.append(path)
    applied.pages.add(page)


def _strings_off(recorder: Recorder, page: int, texts: Iterable[str]) -> int:
    """Mark the page's universe strings drawn as one of `texts` as pixels-only."""
    wanted = set(texts)
    count = 0
    for entry in recorder.strings:
        if entry["page"] == page and entry["text"] in wanted and entry.get("text_layer", True):
            entry["text_layer"] = False
            count += 1
    return count


def _pages(staging: Staging, count: int) -> list[int]:
    """The 1-based pages an attack reaches: every page, or a random part of them."""
    rng = staging.rng
    if count <= 1 or rng.random() < 0.5:
        return list(range(1, count + 1))
    return sorted(rng.sample(range(1, count + 1), rng.randint(1, count - 1)))


def _finish(applied: Applied) -> None:
    """Keep the record's lists in a fixed order (pages and paths as met)."""
    unreadable = applied.details.get("unreadable")
    if unreadable:
        applied.details["unreadable"] = {
            page: unreadable[page] for page in sorted(unreadable, key=int)
        }


def _acted(staging: Staging) -> Callable[[Recorder], bool]:
    def check(recorder: Recorder) -> bool:
        _finish(staging.applied)
        return bool(staging.applied.pages)

    return check


# --- invisible OCR layer (emit; scan.ocr_layer draws its words too) ---------------------------

MISREAD = 0.22  # share of words the OCR layer gets wrong


def _ocr_words(
    pdf: PdfDocument,
    page: int,
    staging: Staging,
    dx: float,
    dy: float,
    place: Callable[[float, float], tuple[float, float]] = lambda x, y: (x, y),
    angle: float = 0.0,
    scale: float = 1.0,
) -> tuple[list[attack.Word], dict[tuple[int, str], str], list[str]]:
    """An OCR layer of the page's content strings: every word at its place moved by `place`
    (a scan's transform) and offset by (dx, dy), a share of them misread. Returns the words,
    per (op index, word) misread what the layer says instead (the last misreading of a word
    an op shows twice), and every misreading in page order (the hidden text: a word an op
    shows twice may be misread twice, two ways)."""
    folded = attack.fold
    rng = staging.rng
    ops = pdf.pages[page - 1]
    shown = {folded(word) for op in ops if isinstance(op, TextOp) for word in op.text.split()}
    words: list[attack.Word] = []
    wrong: dict[tuple[int, str], str] = {}
    misread: list[str] = []
    for index, op in enumerate(ops):
        if not _plain(op):
            continue
        assert isinstance(op, TextOp)
        for word, left, width in attack.words_of(op):
            text = word
            if rng.random() < MISREAD:
                bad = attack.misread(word, rng)
                if bad is not None and folded(bad) not in shown and len(folded(bad)) >= 3:
                    text = bad
                    wrong[(index, word)] = bad
                    misread.append(bad)
            x, y = place(left + dx, op.y + dy)
            size = op.size * scale
            words.append(
                attack.Word(text, x, y, size, angle, attack.stretch_to(text, width * scale, size))
            )
    return words, wrong, misread


@pattern(
    "textlayer.invisible_ocr",
    "Invisible OCR layer",
    phase="emit",
    truth="none",
    reference="p16_invisible_text",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN, *ROW_SPLIT),
    description="an invisible OCR-style text layer over the page, offset from the glyphs and "
    "misreading some words",
)
def _invisible_ocr(staging: Staging) -> bool:
    rng = staging.rng
    applied = staging.applied
    dx = round(rng.choice((-1, 1)) * rng.uniform(0.8, 2.0), 2)
    dy = round(rng.choice((-1, 1)) * rng.uniform(0.6, 1.4), 2)
    applied.details["offset"] = [dx, dy]

    def draw(pdf: PdfDocument) -> None:
        misread = 0
        for page in _pages(staging, len(pdf.pages)):
            words, _, wrong = _ocr_words(pdf, page, staging, dx, dy)
            if not words:
                continue
            pdf.pages[page - 1].append(attack.invisible_layer(words))
            applied.pages.add(page)
            for bad in wrong:
                pdf.recorder.invisible(bad, page)
            misread += len(wrong)
            # Every value drawn in a copied string now has a second, offset copy in its box.
            for path, location, indices in _values(pdf, page):
                if any(_plain(pdf.pages[page - 1][i]) for i in indices):
                    _unreadable(applied, page, path, location)
        applied.details["misread_words"] = misread
        holder.append(pdf)

    holder: list[PdfDocument] = []

    def settle(data: bytes) -> bytes:
        """A value narrower than the layer's offset (a lone "1") may come out with its copy
        beside its box rather than in it: such a value reads right, so it is not claimed."""
        if holder:
            overlaid = set().union(*(a.pages for a in staging.presentation.overlays))
            _keep_unreadable(data, holder[0], applied, overlaid)
        return data

    staging.after_layout(draw)
    staging.presentation.post.append(settle)
    staging.confirm(_acted(staging))
    return True


def _inside(
    layer: list[tuple[str, tuple[float, ...], bool]], bbox: list[float], display: bool = False
) -> str:
    """The characters of a text layer ((char, box, small)) whose boxes meet `bbox`, spaces
    aside; display lettering (not small) too, unless `display`. Compared in float32, as pdfium
    stores boxes and as the audit's reader compares them."""
    x0, y0, x1, y1 = _single(bbox)
    return "".join(
        c
        for c, (left, bottom, right, top), keep in layer
        if (keep or display)
        and not c.isspace()
        and max(left, x0) < min(right, x1)
        and max(bottom, y0) < min(top, y1)
    )


def _single(values: Iterable[float]) -> tuple[float, ...]:
    """`values` rounded to float32."""
    return tuple(np.asarray(list(values), dtype=np.float32).tolist())


def _keep_unreadable(
    data: bytes, pdf: PdfDocument, applied: Applied, overlaid: Set[int] = frozenset()
) -> None:
    """Settle, on the emitted file, which locations of the layer's pages its text layer still
    yields: a claimed value whose characters in its box (display lettering aside, as a reader
    of values leaves it out) are exactly its own is readable after all, and its location goes
    back to the text layer; any other value of those pages whose box the layer's words reach
    (a word beside it, offset into it: the words after a right-to-left name the layer does not
    copy slide into the name's box) no longer reads from the text layer, and only OCR can
    prove it."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    claims: dict[str, list[str]] = applied.details.get("unreadable", {})
    document = pdfium.PdfDocument(data)
    try:
        for page in sorted(applied.pages):
            textpage = document[page - 1].get_textpage()
            boxes = [_single(textpage.get_charbox(i)) for i in range(textpage.count_chars())]
            chars = [chr(raw.FPDFText_GetUnicode(textpage, i)) for i in range(len(boxes))]
            small = [raw.FPDFText_GetFontSize(textpage, i) <= 24 for i in range(len(boxes))]
            textpage.close()

            layer = list(zip(chars, boxes, small, strict=True))

            claimed = claims.get(str(page), [])
            kept = []
            for path in claimed:
                rendered = "".join(pdf.recorder.drawn[path].rendered_as.split())
                # Each location on its own, as the audit judges them: a value drawn twice may
                # have its copy beside one box and inside the other.
                unread = False
                for location in pdf.recorder.drawn[path].locations:
                    if location.get("page") != page or location.get("text_layer") is not False:
                        continue
                    if _inside(layer, location["bbox"]) == rendered:
                        location["text_layer"] = True
                    else:
                        unread = True
                if unread:
                    kept.append(path)
            for path, location in _located(pdf, page):
                if path in claimed or location.get("text_layer") is False:
                    continue
                rendered = "".join(pdf.recorder.drawn[path].rendered_as.split())
                if "fragment" in location or not rendered:
                    continue
                # As the audit reads the text layer: compatibility forms folded (a ligature
                # glyph copies as its letters), display lettering left out only on the pages
                # an overlay pattern drew on (`overlaid`), every character counted elsewhere.
                inside = _inside(layer, location["bbox"], display=page not in overlaid)
                if folded(inside) != folded(rendered):
                    _unreadable(applied, page, path, location)
                    kept.append(path)
            if kept:
                claims[str(page)] = kept
            else:
                claims.pop(str(page), None)
    finally:
        document.close()
    applied.targets[:] = [
        t for t in applied.targets if any(t in paths for paths in claims.values())
    ]


# --- reading order, kerning (emit) ------------------------------------------------------------


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


# --- ToUnicode: scrambled, gapped (post) ------------------------------------------------------


def _tounicode(
    staging: Staging,
    mapping: dict[int, str],
    affected: Callable[[str], bool],
) -> None:
    """Give the standard fonts of some pages `mapping` as their ToUnicode after emission;
    values and strings drawn in them with a character `affected` are marked."""
    look = staging.presentation
    applied = staging.applied
    chosen: list[int] = []
    holder: list[PdfDocument] = []

    def choose(pdf: PdfDocument) -> None:
        holder.append(pdf)
        chosen.extend(_pages(staging, len(pdf.pages)))

    def post(data: bytes) -> bytes:
        pdf = holder[0]
        for page in chosen:
            ops = pdf.pages[page - 1]
            hit = {
                op.text
                for op in ops
                if isinstance(op, TextOp) and op.font in attack.TEXT_FONTS and affected(op.text)
            }
            if not hit:
                continue
            for path, location, indices in _values(pdf, page):
                if any(_attackable(op) and affected(op.text) for op in (ops[i] for i in indices)):
                    _unreadable(applied, page, path, location)
            _strings_off(pdf.recorder, page, hit)
            applied.pages.add(page)
        if not applied.pages:
            return data
        return attack.with_tounicode(data, [p - 1 for p in sorted(applied.pages)], mapping)

    staging.after_layout(choose)
    look.post.append(post)
    staging.confirm(_acted(staging))


def _attackable(op: Op) -> TypeGuard[TextOp]:
    return isinstance(op, TextOp) and op.font in attack.TEXT_FONTS


@pattern(
    "textlayer.cmap_scramble",
    "Scrambled ToUnicode",
    phase="post",
    truth="none",
    reference="p28_broken_cmap",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN, "overlay.redaction", *ROW_SPLIT),
    description="the standard fonts' ToUnicode scrambled on some pages",
)
def _cmap_scramble(staging: Staging) -> bool:
    staging.applied.details["fonts"] = "standard (Helvetica, Courier, Times)"
    _tounicode(staging, attack.scrambled(staging.rng), lambda text: bool(text.strip()))
    return True


@pattern(
    "textlayer.cmap_gaps",
    "ToUnicode missing digits",
    phase="post",
    truth="none",
    reference="p42_font_corrupt",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN, "overlay.redaction", *ROW_SPLIT),
    description="the standard fonts' ToUnicode missing two or three digits",
)
def _cmap_gaps(staging: Staging) -> bool:
    digits = "".join(sorted(staging.rng.sample("0123456789", staging.rng.randint(2, 3))))
    staging.applied.details["digits"] = digits
    _tounicode(staging, attack.gapped(digits), lambda text: any(d in text for d in digits))
    return True


# --- clipped, hidden layer, white text (emit / post) ------------------------------------------


def _false(text: str, rng: Any) -> str | None:
    """Another value of the same shape: some digits changed (a false amount, date or id)."""
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if len(digits) < 2:
        return None
    chars = list(text)
    for index in rng.sample(digits, min(len(digits), rng.randint(1, 3))):
        chars[index] = rng.choice([d for d in "0123456789" if d != chars[index]])
    if chars[digits[0]] == "0" and len(digits) > 1 and text[digits[0]] != "0":
        chars[digits[0]] = rng.choice("123456789")
    return "".join(chars)


def _free_right(ops: list[Op], op: TextOp, right: float, pdf: PdfDocument, page: int) -> bool:
    """Nothing is drawn or located to the right of `op` on its line, up to `right`."""
    x1 = op.x + width_of(op.text, op.font, op.size)
    y0, y1 = op.y - DESCENT * op.size - 1, op.y + ASCENT * op.size + 1
    for other in ops:
        if other is op or not isinstance(other, TextOp) or other.size > 24:
            continue
        ox0 = other.x
        ox1 = other.x + width_of(other.text, other.font, other.size)
        oy0, oy1 = other.y - DESCENT * other.size, other.y + ASCENT * other.size
        if ox1 > x1 and ox0 < right and oy0 < y1 and oy1 > y0:
            return False
    for _, location in _located(pdf, page):
        bx0, by0, _bx1, by1 = location["bbox"]
        if bx0 >= x1 - 0.5 and bx0 < right and by0 < y1 and by1 > y0:
            return False
    return True


TAILS = (
    "(prior: {v})",
    "rev. {v}",
    "was {v}",
    "see endorsement",
    "- superseded -",
    "{v} per prior schedule",
)


@pattern(
    "textlayer.clipped",
    "Text past a clipping path",
    phase="emit",
    truth="none",
    reference="p37_clipping",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN),
    description="values followed by text that runs past a clipping path",
)
def _clipped(staging: Staging) -> bool:
    rng = staging.rng
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        candidates = []
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            for path, _location, indices in _values(pdf, page):
                if len(indices) != 1 or not _plain(ops[indices[0]]):
                    continue
                op = ops[indices[0]]
                assert isinstance(op, TextOp)
                if op.text != pdf.recorder.drawn[path].rendered_as:
                    continue
                if _free_right(ops, op, pdf.width - MARGIN, pdf, page):
                    candidates.append((page, path, indices[0]))
        if not candidates:
            return
        chosen = sorted(rng.sample(candidates, min(len(candidates), rng.randint(2, 6))))
        for page, path, index in chosen:
            ops = pdf.pages[page - 1]
            op = ops[index]
            assert isinstance(op, TextOp)
            alternative = _false(op.text, rng) or op.text
            tail = " " + rng.choice(TAILS).format(v=alternative)
            x1 = op.x + width_of(op.text, op.font, op.size)
            room = pdf.width - MARGIN - x1
            while tail and width_of(tail, op.font, op.size) > room:
                tail = tail[:-1]
            # A hyphen ending a line reads as a word break in text extraction, not as text.
            tail = tail.rstrip(" -")
            if len(tail.strip()) < 3:
                continue
            clip = (
                op.x - 1.0,
                op.y - DESCENT * op.size - 1.0,
                x1 + 0.1,
                op.y + ASCENT * op.size + 1.0,
            )
            ops[index] = attack.clipped(op, tail, clip)
            pdf.recorder.invisible(tail.strip(), page)
            applied.targets.append(path)
            applied.pages.add(page)
            applied.details.setdefault("clipped", []).append(
                {"path": path, "page": page, "hidden": tail.strip()}
            )

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True


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


# --- outlined, microtext (emit) ---------------------------------------------------------------


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


MICRO = (2.2, 2.8)  # points: a line of fine print a person reads with a loupe or at 600 dpi


@pattern(
    "textlayer.microtext",
    "Microtext",
    phase="emit",
    truth="none",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN),
    description="some values in 2-3 point type, legible only when zoomed",
)
def _microtext(staging: Staging) -> bool:
    rng = staging.rng
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        candidates = []
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            for path, location, indices in _values(pdf, page):
                if len(indices) == 1 and _plain(ops[indices[0]]) and "fragment" not in location:
                    candidates.append((page, path, location, indices[0]))
        if not candidates:
            return
        picked = rng.sample(range(len(candidates)), min(len(candidates), rng.randint(2, 6)))
        for index in sorted(picked):
            page, path, location, at = candidates[index]
            op = pdf.pages[page - 1][at]
            assert isinstance(op, TextOp)
            size = round(rng.uniform(*MICRO), 1)
            # Shrunk about its baseline's left end: the value stays where it was.
            op.size = size
            # The usual half-point inset would cut a final "." off a 2-point string.
            right = op.x + width_of(op.text, op.font, size)
            location["bbox"] = [
                round(op.x + 0.1, 2),
                round(op.y - DESCENT * size, 2),
                round(right - 0.1, 2),
                round(op.y + ASCENT * size, 2),
            ]
            location["glyph_pt"] = size
            applied.targets.append(path)
            applied.pages.add(page)
            applied.details.setdefault("sizes", {})[path] = size

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True


# --- rules (emit) -----------------------------------------------------------------------------


def _rules(staging: Staging, curve: bool) -> bool:
    """Redraw every rule of every page as short overlapping segments, or (`curve`) as
    Bezier curves that look straight."""
    rng = staging.rng
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        total_rules = total_segments = 0
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            found = attack.rules_of(ops)
            if not found:
                continue
            drop = {index for index, _ in found}
            if curve:
                kept: list[Op] = [op for i, op in enumerate(ops) if i not in drop]
                kept.append(attack.stroked([rule for _, rule in found], curve=True))
                segments = len(found)
            else:
                kept = []
                segments = 0
                by_op: dict[int, list[attack.Rule]] = {}
                for index, rule in found:
                    by_op.setdefault(index, []).append(rule)
                for index, op in enumerate(ops):
                    if index not in drop:
                        kept.append(op)
                        continue
                    for rule in by_op[index]:
                        for x0, y0, x1, y1, width, color in attack.fragments(rule, rng):
                            kept.append(LineOp(x0, y0, x1, y1, width, color, CONTENT))
                            segments += 1
            ops[:] = kept
            total_rules += len(found)
            total_segments += segments
            applied.pages.add(page)
        applied.details.update(rules=total_rules, segments=total_segments)

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True


@pattern(
    "textlayer.fragmented_rules",
    "Fragmented rules",
    phase="emit",
    truth="none",
    reference="p22_fragmented_borders",
    incompatible=(*RULE_ATTACKS, *NO_SCAN),
    description="table and box borders drawn as many short overlapping segments",
)
def _fragmented_rules(staging: Staging) -> bool:
    return _rules(staging, curve=False)


@pattern(
    "textlayer.bezier_rules",
    "Bézier rules",
    phase="emit",
    truth="none",
    reference="p26_bezier_borders",
    incompatible=(*RULE_ATTACKS, *NO_SCAN),
    description="table and box borders drawn as Bézier curves that look straight",
)
def _bezier_rules(staging: Staging) -> bool:
    return _rules(staging, curve=True)
