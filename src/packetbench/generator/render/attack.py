"""Text-layer attacks: PDF structure that makes a text extractor read something other than the
ink, while the page looks the same to a person (textlayer.* and scan.ocr_layer patterns).

Two kinds of work, each where it gives exact control:
- at emission, on a page's display list (`generator.render.ops`): text drawn invisibly
  (render mode 3), through a clipping path, as glyph outlines, with TJ offsets instead of
  spaces, in another order; rules drawn as many short segments or as Bézier curves. These
  are `DrawOp`s, so reportlab writes them.
- after emission, on the file's bytes with pikepdf (qpdf): a font's ToUnicode CMap scrambled
  or with digits missing, an optional-content group switched off. The file is written back
  with a deterministic id, so the same input gives the same bytes.

Nothing here decides what is true: the patterns (generator.patterns.textlayer) say which
values and strings the attack reaches, mark them, and list what became hidden.
"""

from __future__ import annotations

import ctypes
import io
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from packetbench.generator.render import fonts
from packetbench.generator.render.metrics import width_of
from packetbench.generator.render.ops import CONTENT, DrawOp, LineOp, Op, RectOp, TextOp
from packetbench.reading.text import folded

# Fonts whose codes are cp1252 bytes (WinAnsiEncoding): the ToUnicode attacks rewrite these.
TEXT_FONTS = frozenset(fonts.STANDARD - {fonts.DINGBATS})
OCR_FONT = "Helvetica"
_WORD = re.compile(r"\S+")


def text_ops(ops: Sequence[Op]) -> list[TextOp]:
    """The page's content text: upright strings of the content layer, in drawing order."""
    return [op for op in ops if isinstance(op, TextOp) and op.layer == CONTENT]


# --- invisible text: one writer for OCR layers ------------------------------------------------


@dataclass(frozen=True)
class Word:
    """One word of an invisible text layer, as OCR software writes it: at a position, turned
    by `angle` degrees, stretched (`stretch`, percent) to the width of the word it covers."""

    text: str
    x: float
    y: float
    size: float
    angle: float = 0.0
    stretch: float = 100.0


def words_of(op: TextOp) -> list[tuple[str, float, float]]:
    """(word, x, width) of every word of a drawn string, from its font's metrics."""
    out = []
    for match in _WORD.finditer(op.text):
        left = op.x + width_of(op.text[: match.start()], op.font, op.size)
        out.append((match.group(), left, width_of(match.group(), op.font, op.size)))
    return out


def invisible_layer(words: Iterable[Word]) -> DrawOp:
    """An invisible text layer (render mode 3: neither filled nor stroked) holding `words`."""
    placed = [w for w in words if fonts.missing(OCR_FONT, w.text) is None]

    def draw(canvas: Canvas) -> None:
        text = canvas.beginText()
        text.setTextRenderMode(3)
        for word in placed:
            text.setFont(OCR_FONT, word.size)
            text.setHorizScale(word.stretch)
            radians = math.radians(word.angle)
            cos, sin = round(math.cos(radians), 6), round(math.sin(radians), 6)
            text.setTextTransform(cos, sin, -sin, cos, round(word.x, 3), round(word.y, 3))
            text.textOut(word.text)
        canvas.drawText(text)

    return DrawOp(draw)


def stretch_to(word: str, width: float, size: float) -> float:
    """The horizontal scale (percent) that draws `word` in the OCR font `width` points wide."""
    natural = width_of(word, OCR_FONT, size)
    return round(100.0 * width / natural, 2) if natural > 0 else 100.0


# OCR confusions a person never makes and tesseract's English model is not folded for by the
# audit (reading.text.folded folds O/0, I/l/1 and accents): the corrupted word must
# read differently from the ink after that folding.
CONFUSIONS: tuple[tuple[str, str], ...] = (
    ("5", "S"),
    ("8", "B"),
    ("6", "b"),
    ("2", "Z"),
    ("rn", "m"),
    ("m", "rn"),
    ("cl", "d"),
    ("e", "c"),
    ("a", "o"),
    ("h", "b"),
    ("g", "q"),
    ("u", "v"),
    ("S", "5"),
    ("B", "8"),
    ("3", "8"),
    ("7", "T"),
    ("4", "A"),
    ("9", "g"),
    ("E", "F"),
    ("n", "h"),
)


_AS_DIGIT = str.maketrans({"o": "0", "i": "1", "l": "1"})

# A word as an OCR comparison sees it, as the audit folds it (`reading.text.folded`): a
# misread word must never fold back to the ink.
fold = folded


def misread(word: str, rng: Any) -> str | None:
    """`word` with one OCR confusion applied at a random place it fits, or None."""
    spots = [
        (i, wrong, right)
        for wrong, right in CONFUSIONS
        for i in range(len(word))
        if word.startswith(wrong, i)
    ]
    if not spots:
        return None
    index, wrong, right = spots[int(rng.randrange(len(spots)))]
    return str(word[:index] + right + word[index + len(wrong) :])


# --- kerning, clipping, outlines --------------------------------------------------------------

# Thousandths of an em between words: pdfium adds a space from about 139 in Helvetica (half
# its space), and already from less in Courier and Times, so only Helvetica is kerned.
KERN = 134
KERNED_FONTS = frozenset(
    {"Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique"}
)


def kerned(op: TextOp) -> DrawOp:
    """`op` drawn with its spaces replaced by TJ offsets: the words sit a little closer than
    a space apart and the text layer has no space between them."""
    words = op.text.split(" ")

    def draw(canvas: Canvas) -> None:
        text = canvas.beginText()
        text.setFont(op.font, op.size)
        text.setTextOrigin(op.x, op.y)
        if op.color is not None:
            text.setFillColorRGB(*op.color)
        # The font's codes are cp1252 bytes ("…" is 0x85); reportlab escapes latin-1 text.
        parts = f" -{KERN} ".join(
            f"({canvas._escape(w.encode('cp1252').decode('latin-1'))})" for w in words
        )
        text._code.append(f"[{parts}] TJ")
        canvas.drawText(text)

    return DrawOp(draw)


def clipped(op: TextOp, tail: str, clip: tuple[float, float, float, float]) -> DrawOp:
    """`op` followed in the same string by `tail`, drawn through the clipping rectangle `clip`
    (x0, y0, x1, y1) that ends where `op` ends: the tail is in the text layer, not on paper."""

    def draw(canvas: Canvas) -> None:
        path = canvas.beginPath()
        x0, y0, x1, y1 = clip
        path.rect(x0, y0, x1 - x0, y1 - y0)
        canvas.clipPath(path, stroke=0, fill=0)
        text = canvas.beginText()
        text.setFont(op.font, op.size)
        text.setTextOrigin(op.x, op.y)
        text.textOut(op.text + tail)
        canvas.drawText(text)

    return DrawOp(draw)


Segment = tuple[int, float, float, bool]  # pdfium segment type, x, y (em units), closes


_GLYPHS: dict[tuple[str, str], tuple[Segment, ...]] = {}


def glyphs(font: str, text: str) -> list[tuple[Segment, ...]]:
    """The outline of each character of `text` in standard font `font`, in em units
    (pdfium's glyph paths), remembered per process.

    The font is loaded into a document of its own that is closed before returning: a
    standard font kept open would keep pdfium's glyph cache for that font alive across the
    documents a process renders, and a scan would then draw some glyphs with bitmaps another
    scan left there under a nearly equal matrix (pdfium's cache key rounds the matrix), so a
    scanned page's pixels would depend on what the process had scanned before."""
    missing = sorted({char for char in text if (font, char) not in _GLYPHS})
    if missing:
        _GLYPHS.update(_load(font, missing))
    return [_GLYPHS[font, char] for char in text]


def _load(font: str, chars: Sequence[str]) -> dict[tuple[str, str], tuple[Segment, ...]]:
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument.new()
    try:
        handle = raw.FPDFText_LoadStandardFont(document.raw, font.encode())
        if not handle:
            raise ValueError(f"pdfium has no standard font {font!r}")
        try:
            loaded = {}
            for char in chars:
                path = raw.FPDFFont_GetGlyphPath(handle, ord(char), ctypes.c_float(1.0))
                out = []
                for index in range(raw.FPDFGlyphPath_CountGlyphSegments(path) if path else 0):
                    segment = raw.FPDFGlyphPath_GetGlyphPathSegment(path, index)
                    x, y = ctypes.c_float(), ctypes.c_float()
                    raw.FPDFPathSegment_GetPoint(segment, x, y)
                    out.append(
                        (
                            int(raw.FPDFPathSegment_GetType(segment)),
                            round(x.value, 5),
                            round(y.value, 5),
                            bool(raw.FPDFPathSegment_GetClose(segment)),
                        )
                    )
                loaded[font, char] = tuple(out)
            return loaded
        finally:
            raw.FPDFFont_Close(handle)
    finally:
        document.close()


def outlined(op: TextOp) -> DrawOp:
    """`op` drawn as filled glyph outlines: the same ink, and no text at all."""
    import pypdfium2.raw as raw

    moves, lines, curves = (
        raw.FPDF_SEGMENT_MOVETO,
        raw.FPDF_SEGMENT_LINETO,
        raw.FPDF_SEGMENT_BEZIERTO,
    )

    def draw(canvas: Canvas) -> None:
        if op.color is not None:
            canvas.setFillColorRGB(*op.color)
        else:
            canvas.setFillGray(0)
        path = canvas.beginPath()
        x = op.x
        for char, segments in zip(op.text, glyphs(op.font, op.text), strict=True):
            pending: list[tuple[float, float]] = []
            for kind, gx, gy, closes in segments:
                px, py = round(x + gx * op.size, 3), round(op.y + gy * op.size, 3)
                if kind == moves:
                    path.moveTo(px, py)
                elif kind == lines:
                    path.lineTo(px, py)
                elif kind == curves:
                    pending.append((px, py))
                    if len(pending) == 3:
                        (ax, ay), (bx, by), (cx, cy) = pending
                        path.curveTo(ax, ay, bx, by, cx, cy)
                        pending = []
                if closes:
                    path.close()
            x += width_of(char, op.font, op.size)
        canvas.drawPath(path, stroke=0, fill=1, fillMode=1)

    return DrawOp(draw)


# --- rules --------------------------------------------------------------------------------------

Rule = tuple[float, float, float, float, float, Any]  # x0, y0, x1, y1, width, colour


def rules_of(ops: Sequence[Op]) -> list[tuple[int, Rule]]:
    """(index, rule) of every straight rule of the content layer: lines and the sides of
    outlined rectangles."""
    found: list[tuple[int, Rule]] = []
    for index, op in enumerate(ops):
        if op.layer != CONTENT:
            continue
        if isinstance(op, LineOp):
            found.append((index, (op.x0, op.y0, op.x1, op.y1, op.width, op.color)))
        elif isinstance(op, RectOp) and op.fill is None:
            x0, y0, x1, y1 = op.x, op.y, op.x + op.w, op.y + op.h
            for side in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)):
                found.append((index, (*side, op.width, op.color)))
    return found


def fragments(rule: Rule, rng: Any) -> list[Rule]:
    """A rule as many short overlapping segments, as a word processor's export draws it."""
    x0, y0, x1, y1, width, color = rule
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1.0:
        return [rule]
    out: list[Rule] = []
    start = 0.0
    while start < length:
        stop = min(length, start + rng.uniform(6.0, 24.0))
        a, b = start / length, stop / length
        out.append(
            (
                round(x0 + (x1 - x0) * a, 3),
                round(y0 + (y1 - y0) * a, 3),
                round(x0 + (x1 - x0) * b, 3),
                round(y0 + (y1 - y0) * b, 3),
                width,
                color,
            )
        )
        if stop >= length:
            break
        start = max(start + 0.5, stop - rng.uniform(0.3, 1.5))  # overlap the next one
    return out


def stroked(rules: list[Rule], curve: bool) -> DrawOp:
    """`rules` stroked as one path each: straight segments, or cubic Bézier curves whose
    control points lie on the line (so they still look straight)."""

    def draw(canvas: Canvas) -> None:
        for x0, y0, x1, y1, width, color in rules:
            canvas.setLineWidth(width)
            if color is not None:
                canvas.setStrokeColorRGB(*color)
            else:
                canvas.setStrokeGray(0)
            path = canvas.beginPath()
            path.moveTo(x0, y0)
            if curve:
                path.curveTo(
                    round(x0 + (x1 - x0) / 3, 3),
                    round(y0 + (y1 - y0) / 3, 3),
                    round(x0 + 2 * (x1 - x0) / 3, 3),
                    round(y0 + 2 * (y1 - y0) / 3, 3),
                    x1,
                    y1,
                )
            else:
                path.lineTo(x1, y1)
            canvas.drawPath(path, stroke=1, fill=0)

    return DrawOp(draw)


# --- on the file: ToUnicode and optional content ------------------------------------------------

CP1252 = {
    code: bytes([code]).decode("cp1252")
    for code in range(32, 256)
    if code not in (0x81, 0x8D, 0x8F, 0x90, 0x9D) and code != 0x7F
}


def _cmap(mapping: dict[int, str]) -> bytes:
    """A ToUnicode CMap for one-byte codes (at most 100 entries per bfchar block)."""
    entries = [
        f"<{code:02X}> <{''.join(f'{ord(c):04X}' for c in text)}>"
        for code, text in sorted(mapping.items())
    ]
    blocks = []
    for start in range(0, len(entries), 100):
        chunk = entries[start : start + 100]
        blocks.append(f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar")
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
        + "\n".join(blocks)
        + "\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    ).encode()


def _reading(char: str) -> str:
    """What a reader takes `char` for: its letter without accent or case, compatibility
    forms folded (superscript one is one), and O/I/l as the digits they pass for."""
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return unicodedata.normalize("NFKC", plain).casefold().translate(_AS_DIGIT)


def scrambled(rng: Any) -> dict[int, str]:
    """A ToUnicode for cp1252 codes that moves every visible character to one read as another
    character (no character reads as itself, nor as its accented, other-case or superscript
    forms: "1" never becomes "¹", "e" never "É"); spaces stay spaces."""
    codes = [code for code in CP1252 if code not in (32, 0xA0)]
    reading = {code: _reading(CP1252[code]) for code in codes}
    targets = list(codes)
    while True:
        rng.shuffle(targets)
        if all(reading[a] != reading[b] for a, b in zip(codes, targets, strict=True)):
            break
    mapping = {code: CP1252[target] for code, target in zip(codes, targets, strict=True)}
    mapping.update({32: " ", 0xA0: "\u00a0"})
    return mapping


def gapped(digits: str) -> dict[int, str]:
    """A ToUnicode for cp1252 codes in which `digits` have no character (U+FFFD)."""
    return {code: ("\ufffd" if char in digits else char) for code, char in CP1252.items()}


def _save(pdf: Any) -> bytes:
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, linearize=False)
    return out.getvalue()


def with_tounicode(data: bytes, pages: Iterable[int], mapping: dict[int, str]) -> bytes:
    """The PDF with every standard text font of `pages` (0-based) given `mapping` as its
    ToUnicode, on those pages only (other pages keep the shared, honest font)."""
    import pikepdf

    cmap = _cmap(mapping)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        stream = pdf.make_stream(cmap)
        replaced: dict[Any, Any] = {}
        for index in sorted(pages):
            page = pdf.pages[index]
            resources = pikepdf.Dictionary({k: v for k, v in page.obj.Resources.items()})
            font_dict = pikepdf.Dictionary({k: v for k, v in resources.Font.items()})
            for name, font in list(font_dict.items()):
                if str(font.get("/BaseFont", ""))[1:] not in TEXT_FONTS:
                    continue
                key = font.objgen
                if key not in replaced:
                    copy = pikepdf.Dictionary({k: v for k, v in font.items()})
                    copy.ToUnicode = stream
                    replaced[key] = pdf.make_indirect(copy)
                font_dict[name] = replaced[key]
            resources.Font = font_dict
            page.obj.Resources = resources
        return _save(pdf)


def with_hidden_layer(data: bytes, drawn: dict[int, list[TextOp]], name: str) -> bytes:
    """The PDF with `drawn` text (0-based page -> strings) in an optional-content group that
    the document's default configuration switches off: extractable, never shown."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        group = pdf.make_indirect(
            pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name=pikepdf.String(name))
        )
        pdf.Root.OCProperties = pikepdf.Dictionary(
            OCGs=pikepdf.Array([group]),
            D=pikepdf.Dictionary(Order=pikepdf.Array([group]), OFF=pikepdf.Array([group])),
        )
        font = pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Font,
                Subtype=pikepdf.Name.Type1,
                BaseFont=pikepdf.Name("/" + OCR_FONT),
                Encoding=pikepdf.Name.WinAnsiEncoding,
            )
        )
        for index, ops in sorted(drawn.items()):
            page = pdf.pages[index]
            resources = pikepdf.Dictionary({k: v for k, v in page.obj.Resources.items()})
            font_dict = pikepdf.Dictionary({k: v for k, v in resources.Font.items()})
            font_dict["/PBHidden"] = font
            resources.Font = font_dict
            resources.Properties = pikepdf.Dictionary(PBLayer=group)
            page.obj.Resources = resources
            body = ["q /OC /PBLayer BDC BT"]
            for op in ops:
                encoded = op.text.encode("cp1252")
                escaped = (
                    encoded.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
                ).decode("latin-1")
                body.append(
                    f"/PBHidden {op.size:g} Tf 1 0 0 1 {op.x:.3f} {op.y:.3f} Tm ({escaped}) Tj"
                )
            body.append("ET EMC Q")
            page.contents_add(pdf.make_stream("\n".join(body).encode("latin-1")))
        return _save(pdf)


Post = Callable[[bytes], bytes]
