"""textlayer.invisible_ocr: an invisible OCR layer over the page, offset and misreading some
words (emit). scan.ocr_layer draws its layer's words with `_ocr_words`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Set

import numpy as np

from packetbench.core.text import folded
from packetbench.generator.patterns.base import Applied, Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    ROW_SPLIT,
    TEXT_ATTACKS,
    _acted,
    _located,
    _pages,
    _plain,
    _unreadable,
    _values,
)
from packetbench.generator.render import attack
from packetbench.generator.render.ops import TextOp
from packetbench.generator.render.pdf import PdfDocument

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
