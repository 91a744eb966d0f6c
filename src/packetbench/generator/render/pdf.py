"""A small PDF engine on reportlab: display lists per page, values placed and located at once.

Pages are laid out first as lists of drawing operations and only then emitted, so footers can
say "Page 2 of 5" and presentation patterns can draw over finished pages (`after_layout`).
Every visible string goes to the recorder's universe as it is laid out, and every field value
is located with the same geometry that draws it; nothing is measured back afterwards. Output is
byte-reproducible: reportlab's invariant mode fixes the creation date and document id, and
emission order is the layout order.

Operations live on one of three layers: `UNDER` (watermarks, highlights: behind the content),
`CONTENT` and `OVER` (stamps, redaction boxes: on top). Within the content layer, fills are
emitted first, then rules, then one text object, so a page's text reads in layout order.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab import rl_config
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from packetbench.generator.errors import LayoutError
from packetbench.generator.render import faxheader, fonts
from packetbench.generator.render.presentation import Presentation
from packetbench.generator.render.recorder import Drawn, Location, Recorder
from packetbench.resolution import Verdict

if TYPE_CHECKING:
    from packetbench.generator.render.scan import Level

MARGIN = 36.0
REGULAR = "Helvetica"
BOLD = "Helvetica-Bold"
MONO = "Courier"
MONO_BOLD = "Courier-Bold"
# Glyph extents of Helvetica relative to the font size, slightly generous.
ASCENT = 0.76
DESCENT = 0.22
# A field's bbox is pulled in horizontally so it never touches a neighbouring string.
INSET = 0.5
MIN_FONT = 4.5

UNDER, CONTENT, OVER = 0, 1, 2
Color = tuple[float, float, float]


@dataclass(slots=True)
class TextOp:
    x: float
    y: float
    text: str
    font: str
    size: float
    angle: float = 0.0  # degrees, counter-clockwise about (x, y)
    color: Color | None = None  # None: black
    alpha: float | None = None  # fill opacity (overlay layers only)
    layer: int = CONTENT


@dataclass(slots=True)
class LineOp:
    x0: float
    y0: float
    x1: float
    y1: float
    width: float
    color: Color | None = None
    layer: int = CONTENT


@dataclass(slots=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: float | None  # gray level, or None for an outline
    width: float
    color: Color | None = None  # a coloured fill (or outline), instead of gray
    alpha: float | None = None
    layer: int = CONTENT


@dataclass(slots=True)
class ImageOp:
    x: float
    y: float
    w: float
    h: float
    png: bytes  # PNG, or JPEG when `jpeg` (embedded as it is, DCT-encoded)
    layer: int = CONTENT
    jpeg: bool = False
    # The image's gray pixels as decoded (a scanned page's, which its scan decoded to judge
    # them), so reportlab need not decode it again (`_KnownPixels`); with no `png`, they are
    # the image.
    pixels: Any = None


@dataclass(slots=True)
class DrawOp:
    """Drawn by a pattern's own code, in its own graphics state: what the other operations
    cannot say (invisible or clipped text, kerned runs, glyph outlines, curves). On the content
    layer it comes after the page's text object, so the text keeps its layout order."""

    draw: Callable[[Canvas], None]
    layer: int = CONTENT


@dataclass(slots=True)
class PathOp:
    """Filled outlines (handwriting, stamp lettering: generator.render.hand): ink with no
    text behind it. `commands` are ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x3, y3)
    and ("Z",); `stroke` > 0 also strokes them (a heavier pen) in the same colour."""

    commands: tuple[tuple[object, ...], ...]
    color: Color
    stroke: float = 0.0
    alpha: float | None = None
    layer: int = OVER


Op = TextOp | LineOp | RectOp | ImageOp | DrawOp | PathOp
PageHook = Callable[["PdfDocument"], None]


@lru_cache(maxsize=65536)
def width_of(text: str, font: str, size: float) -> float:
    """Width of `text` in points; cached because labels and codes repeat on every page."""
    fonts.ensure(font)
    return float(stringWidth(text, font, size))


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; words are never split (a split word would not read back whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and width_of(candidate, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines or [""]


def fit(
    text: str, font: str, size: float, width: float, allow_wrap: bool
) -> tuple[float, list[str]]:
    """Font size and lines that fit `width`: shrink to MIN_FONT first, then wrap if allowed."""
    if width_of(text, font, size) <= width:
        return size, [text]
    longest_word = max((width_of(w, font, 1.0) for w in text.split()), default=0.0)
    if allow_wrap:
        # Wrap at the given size, shrinking only as far as needed for the longest word.
        size = min(size, max(MIN_FONT, width / longest_word if longest_word else size))
        return size, wrap(text, font, size, width)
    full = width_of(text, font, 1.0)
    if full * MIN_FONT <= width:
        return width / full, [text]
    size = min(size, max(MIN_FONT, width / longest_word if longest_word else size))
    return size, wrap(text, font, size, width)


def _check_drawable(doc_id: str, text: str, font: str) -> None:
    bad = fonts.missing(font, text)
    if bad is not None:
        raise LayoutError(f"{doc_id}: {text!r} has {bad!r}, which font {font} cannot draw")


def text_bbox(
    x0: float, bottom_baseline: float, x1: float, top_baseline: float, size: float
) -> list[float]:
    """The box a located string occupies, pulled in horizontally by INSET."""
    inset = min(INSET, (x1 - x0) / 4)
    return [
        round(x0 + inset, 2),
        round(bottom_baseline - DESCENT * size, 2),
        round(x1 - inset, 2),
        round(top_baseline + ASCENT * size, 2),
    ]


@dataclass
class Rebuild:
    """A packet's documents built again for the audit (`generator.packet.rebuild_documents`),
    which compares a scanned page with its native page drawn clean under the same transform.

    Every document with scanned pages leaves in `natives` its native PDF, the pages as drawn
    before any was scanned (doc_id -> bytes). A document `verdicts` has (doc_id -> path ->
    the legibility of each of its locations as the packet's field truth records them,
    `resolution.Verdict`) is not scanned again: each scanned page is placed as its scan
    placed it (`scan.placement`: the same draws from the same seed), what was drawn on it
    moved with it, and each location takes the packet's verdict (a verdict is a claim about
    the scanned pixels, which the audit has and checks itself). No image is made, and the
    document's file is its native PDF: its truth files are the packet's when it is the same
    document."""

    natives: dict[str, bytes] = field(default_factory=dict)
    verdicts: Callable[[str], dict[str, list[Verdict]] | None] | None = None
    # Doc_id -> its strings drawn as ink with no text layer, and where (`Recorder.inked`).
    inked: dict[str, list[tuple[int, str, list[float]]]] = field(default_factory=dict)
    # Doc_id -> strings printed over its scanned pages after the scan (a fax's header): (page,
    # text, quad on the scanned page, points), where only the generator can say it printed.
    printed: dict[str, list[tuple[int, str, list[float]]]] = field(default_factory=dict)
    # Doc_id -> its PDF as emitted before a text-layer attack changed the file
    # (`Presentation.post`), for a document one did: the audit renders both.
    unattacked: dict[str, bytes] = field(default_factory=dict)


# While set, documents are being built again (`Rebuild`).
REBUILD: ContextVar[Rebuild | None] = ContextVar("rebuild", default=None)


class PdfDocument:
    """Pages of drawing operations for one document, recorded as they are laid out."""

    def __init__(self, recorder: Recorder, title: str, footer: str, wide: bool = False) -> None:
        self.recorder = recorder
        self.title = title
        self.footer = footer
        self.pagesize: tuple[float, float] = landscape(letter) if wide else letter
        self.width, self.height = float(self.pagesize[0]), float(self.pagesize[1])
        self.content_width = self.width - 2 * MARGIN
        self.pages: list[list[Op]] = []
        # Run once every `after_layout` hook has, when the scan patterns have said which pages
        # are emitted as scans (`Presentation.scans`): what a drawing decides only for a page
        # that keeps its text layer (a stamp moved clear of its twins, `overlay._void`).
        self.settle: list[Callable[[PdfDocument], None]] = []

    @property
    def look(self) -> Presentation:
        """The presentation patterns asked for (see generator.render.presentation)."""
        return self.recorder.presentation

    def new_page(self) -> int:
        self.pages.append([])
        return len(self.pages) - 1

    # --- drawing ----------------------------------------------------------------------------

    def text(
        self,
        page: int,
        x: float,
        y: float,
        text: str,
        font: str = REGULAR,
        size: float = 8.0,
        align: str = "left",
        *,
        angle: float = 0.0,
        color: Color | None = None,
        alpha: float | None = None,
        layer: int = CONTENT,
    ) -> float:
        """Draw a visible string (label or boilerplate); returns its width."""
        _check_drawable(self.recorder.doc_id, text, font)
        width = width_of(text, font, size)
        if align == "right":
            x -= width
        elif align == "center":
            x -= width / 2
        self.pages[page].append(TextOp(x, y, text, font, size, angle, color, alpha, layer))
        self.recorder.visible(text, page + 1)
        return width

    def line(
        self,
        page: int,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        width: float = 0.5,
        *,
        color: Color | None = None,
        layer: int = CONTENT,
    ) -> None:
        self.pages[page].append(LineOp(x0, y0, x1, y1, width, color, layer))

    def rect(
        self,
        page: int,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: float | None = None,
        width: float = 0.5,
        *,
        color: Color | None = None,
        alpha: float | None = None,
        layer: int = CONTENT,
    ) -> None:
        self.pages[page].append(RectOp(x, y, w, h, fill, width, color, alpha, layer))

    def image(
        self, page: int, x: float, y: float, w: float, h: float, png: bytes, layer: int = CONTENT
    ) -> None:
        self.pages[page].append(ImageOp(x, y, w, h, png, layer))

    def field(
        self,
        page: int,
        x: float,
        y: float,
        path: str,
        *,
        width: float,
        font: str = REGULAR,
        size: float = 8.0,
        align: str = "left",
        allow_wrap: bool = False,
        leading: float = 1.18,
        rendered: str | None = None,
    ) -> float:
        """Draw the value at `path` with its first baseline at `y`; returns the height used.

        Nothing is drawn for a null value. `rendered` overrides the formatted text (used where
        a layout draws a value differently, e.g. an abbreviation); a pattern's shown text
        (`Presentation.shown`) overrides both.
        """
        text = self.recorder.shown(path, rendered)
        if text is None:
            return 0.0
        if not text:
            raise LayoutError(f"{self.recorder.doc_id}: {path} is a checkbox; use checkbox()")
        font = self.recorder.font_for(path, font)
        size, lines = fit(text, font, size, width, allow_wrap)
        self.lines(
            page,
            x,
            y,
            path,
            text,
            lines,
            font=font,
            size=size,
            align=align,
            leading=leading,
            room=width,
        )
        return size * leading * len(lines)

    def lines(
        self,
        page: int,
        x: float,
        y: float,
        path: str,
        text: str,
        lines: list[str],
        *,
        font: str,
        size: float,
        align: str = "left",
        leading: float = 1.18,
        fragment: tuple[int, int] | None = None,
        room: float | None = None,
    ) -> list[float]:
        """Draw `lines` of the value at `path` (its text `text`) and locate them; returns the
        bbox. `fragment` = (i, n) marks the i-th of n pieces of a value split across pages;
        `room` is the width its box leaves it, when known (a pen may write wider than type)."""
        ink = self.recorder.presentation.inked.get(path)
        if ink is not None and fragment is None:
            inked = ink(self, page, x, y, text, lines, font, size, align, room)
            if inked is not None:
                # Written by hand: pixels only, no text layer (docs/patterns.md rule 2).
                self.recorder.seen(path, text, page + 1, text_layer=False)
                self.recorder.place(
                    path,
                    text,
                    {
                        "page": page + 1,
                        "bbox": inked,
                        "text_layer": False,
                        "glyph_pt": round(size, 2),
                    },
                )
                self.recorder.presentation.events.append(("inked", path, page + 1))
                return inked
        glyphs = self.recorder.presentation.glyphs.get(path)
        if glyphs is not None:
            lines = [glyphs]  # a right-to-left name: one line of visual-order glyphs
        x0s, x1s = [], []
        baseline = y
        for line in lines:
            line_width = width_of(line, font, size)
            left = (
                x
                if align == "left"
                else (x - line_width if align == "right" else x - line_width / 2)
            )
            _check_drawable(self.recorder.doc_id, line, font)
            self.pages[page].append(TextOp(left, baseline, line, font, size))
            self.recorder.seen(path, text if glyphs is not None else line, page + 1)
            x0s.append(left)
            x1s.append(left + line_width)
            baseline -= size * leading
        last_baseline = baseline + size * leading
        bbox = text_bbox(min(x0s), last_baseline, max(x1s), y, size)
        location: Location = {
            "page": page + 1,
            "bbox": bbox,
            "text_layer": True,
            "glyph_pt": round(size, 2),
        }
        if fragment is not None:
            location["fragment"] = list(fragment)
        self.recorder.place(path, text, location)
        return bbox

    def checkbox(self, page: int, x: float, y: float, path: str, side: float = 7.0) -> None:
        """A square at (x, y) (lower-left) ticked with the style's mark when the value is Yes.

        An unticked box is located too: its truth is "No" and its interior reads back empty.
        """
        self.rect(page, x, y, side, side, width=0.6)
        text = self.recorder.text_of(path)
        if text is None:
            return
        if text:
            size = side * 0.95
            self.text(page, x + side / 2, y + side * 0.16, text, BOLD, size, align="center")
        interior = [
            round(x + 0.8, 2),
            round(y + 0.5, 2),
            round(x + side - 0.8, 2),
            round(y + side - 0.5, 2),
        ]
        self.recorder.place(path, text, {"page": page + 1, "bbox": interior, "text_layer": True})

    # --- output -----------------------------------------------------------------------------

    def _footers(self) -> None:
        total = len(self.pages)
        for index in range(total):
            self.text(index, MARGIN, MARGIN - 14, self.footer, size=6.5)
            self.text(
                index,
                self.width - MARGIN,
                MARGIN - 14,
                f"Page {index + 1} of {total}",
                size=6.5,
                align="right",
            )

    def render(self) -> bytes:
        """Finish the pages (footers, then what patterns draw over them) and emit the PDF;
        pages a scan pattern asked for are then emitted again as their scanned images."""
        if not self.pages:
            raise LayoutError(f"{self.recorder.doc_id}: document has no pages")
        self._footers()
        for hook in self.recorder.presentation.after_layout:
            hook(self)
        for settle in self.settle:
            settle(self)
        data = self._emit_pages(self.pages)
        scans = self.recorder.presentation.scans
        if scans:
            rebuild = REBUILD.get()
            if rebuild is not None:
                rebuild.natives[self.recorder.doc_id] = data
                rebuild.inked[self.recorder.doc_id] = list(self.recorder.inked)
                verdicts = rebuild.verdicts(self.recorder.doc_id) if rebuild.verdicts else None
                # A pattern that changes the emitted file may claim what it finds in it: such
                # a document is scanned again as it was made.
                if verdicts is not None and not self.recorder.presentation.post:
                    self._placed(data, scans, verdicts)
                    return data
            if self._up(scans) > 1:
                pages, sizes = self._sheets(data, scans)
                data = self._emit_pages(pages, raw_images=True, sizes=sizes)
            else:
                data = self._emit_pages(self._scanned(data, scans), raw_images=True)
        if self.recorder.presentation.post:
            rebuild = REBUILD.get()
            if rebuild is not None:
                rebuild.unattacked[self.recorder.doc_id] = data
        for post in self.recorder.presentation.post:
            data = post(data)
        return data

    def _up(self, scans: dict[int, tuple[str, int]]) -> int:
        """Pages per sheet of the document's scan (1: a scanned image per page). A level that
        prints several pages to a sheet scans the whole document at that level only."""
        from packetbench.generator.render import scan

        ups = {scan.LEVELS[level].up for level, _ in scans.values()}
        up = max(ups)
        if up > 1 and (ups != {up} or sorted(scans) != list(range(len(self.pages)))):
            raise LayoutError(
                f"{self.recorder.doc_id}: a scan of {up} pages to a sheet takes the whole "
                "document at one level"
            )
        return up

    def _scanned(self, native: bytes, scans: dict[int, tuple[str, int]]) -> list[list[Op]]:
        """The pages with every scanned one replaced by its image; what was drawn on it is
        moved to where the scan put it and can no longer be read from a text layer."""
        from packetbench.generator.render import scan

        pages = list(self.pages)
        targets = self._blot_targets(scans)
        # What was drawn where, looked up once: scanning a page moves its boxes, never a box
        # from one page to another.
        boxed = self.recorder.boxed_by_page()
        pdf = scan.open_pdf(native)
        try:
            for index, (level, seed) in sorted(scans.items()):
                blots = [box for page, box in targets.values() if page == index + 1]
                found = scan.LEVELS[level]
                header = self.recorder.presentation.fax_header if found.header else None
                scanned = scan.scan_page(
                    pdf,
                    index,
                    found,
                    seed,
                    blots=blots,
                    judged=True,
                    png=False,
                    header=header,
                    values=self._value_boxes(index + 1) if header is not None else None,
                )
                pages[index] = [
                    ImageOp(
                        0.0,
                        0.0,
                        self.width,
                        self.height,
                        scanned.image,
                        jpeg=scanned.jpeg,
                        pixels=scanned.pixels,
                    )
                ]
                on_page = boxed.get(index + 1, [])
                self.recorder.scanned(index + 1, scanned.transform.quad, on_page)
                assert scanned.clean is not None and scanned.pixels is not None
                self._mark_legible(
                    index + 1,
                    found,
                    scanned.clean,
                    scanned.pixels,
                    self.height,
                    scanned.covered,
                    on_page,
                )
                self.recorder.presentation.scanned[index + 1] = scanned.details
                for hook in self.recorder.presentation.on_scan:
                    pages[index].extend(hook(index, scanned.transform))
        finally:
            pdf.close()
        return pages

    def _sheets(
        self, native: bytes, scans: dict[int, tuple[str, int]]
    ) -> tuple[list[list[Op]], list[tuple[float, float]]]:
        """The document printed two pages to a sheet and each sheet scanned
        (`generator.render.twoup`): pages (0, 1), (2, 3), ... on sheets 1, 2, ..., an odd last
        page alone, each sheet from its first page's seed. What was drawn on a page moves to
        where its half of the sheet put it and is judged on the sheet; the page map goes to
        `Presentation.sheets` (applied to the truth once every pattern has recorded its
        pages). Returns the sheets' pages and their sizes."""
        from packetbench.generator.render import scan, twoup

        look = self.recorder.presentation
        targets = self._blot_targets(scans)
        pages: list[list[Op]] = []
        sizes: list[tuple[float, float]] = []
        pdf = scan.open_pdf(native)
        try:
            for first in range(0, len(self.pages), 2):
                indices = [i for i in (first, first + 1) if i < len(self.pages)]
                level, seed = scans[first]
                found = scan.LEVELS[level]
                blots = [
                    (half, box)
                    for page, box in targets.values()
                    for half, index in enumerate(indices)
                    if page == index + 1
                ]
                scanned = twoup.scan_sheet(pdf, indices, found, seed, judged=True, blots=blots)
                width, height = scanned.sheet.size
                sheet = len(pages) + 1
                ops: list[Op] = [
                    ImageOp(
                        0.0, 0.0, width, height, scanned.image, jpeg=True, pixels=scanned.pixels
                    )
                ]
                assert scanned.clean is not None and scanned.pixels is not None
                for index, half in zip(indices, scanned.sheet.halves, strict=True):
                    self.recorder.scanned(index + 1, half.quad)
                    self._mark_legible(
                        index + 1, found, scanned.clean, scanned.pixels, height, None
                    )
                    look.sheets[index + 1] = sheet
                    for hook in look.on_scan:
                        ops.extend(hook(index, half))
                look.scanned[sheet] = scanned.sheet.details
                pages.append(ops)
                sizes.append((width, height))
        finally:
            pdf.close()
        return pages, sizes

    def _placed(
        self,
        native: bytes,
        scans: dict[int, tuple[str, int]],
        verdicts: dict[str, list[Verdict]],
    ) -> None:
        """`_scanned` (or `_sheets`) without the pixels (`Rebuild`): every scanned page placed
        as its scan placed it, what was drawn on it moved, each location's legibility taken
        from `verdicts` (path -> one per location), the scan's details, page map and hooks as
        `_scanned` has them."""
        from packetbench.generator.render import scan, twoup

        self._blot_targets(scans)
        look = self.recorder.presentation
        up = self._up(scans)
        pdf = scan.open_pdf(native)
        try:
            for index, (level, seed) in sorted(scans.items()):
                found = scan.LEVELS[level]
                if up > 1:
                    if index % up:
                        continue  # placed with the first page of its sheet
                    indices = [i for i in range(index, index + up) if i < len(self.pages)]
                    sizes = [(float(w), float(h)) for w, h in map(pdf.get_page_size, indices)]
                    sheet = twoup.placement(sizes, found, seed)
                    placed = list(zip(indices, sheet.halves, strict=True))
                    details = sheet.details
                    number = index // up + 1
                else:
                    transform, details = scan.placement(pdf, index, found, seed)
                    placed = [(index, transform)]
                    number = index + 1
                header = look.fax_header if found.header else None
                lift = 0
                if header is not None:
                    # Where `_scanned` printed it (`scan.header_lift`), from the same boxes.
                    width, height = (float(v) for v in pdf.get_page_size(index))
                    lift = scan.header_lift(
                        header,
                        index,
                        width,
                        height,
                        found,
                        placed[0][1],
                        self._value_boxes(index + 1),
                    )
                    if lift:
                        details["header_lift"] = lift
                for page, transform in placed:
                    self.recorder.scanned(page + 1, transform.quad)
                    if up > 1:
                        look.sheets[page + 1] = number
                if header is not None:
                    rebuild = REBUILD.get()
                    if rebuild is not None:
                        rebuild.printed.setdefault(self.recorder.doc_id, []).extend(
                            faxheader.cells(
                                header, index + 1, pdf.get_page_size(index), found.dpi, lift
                            )
                        )
                on_pages = {page + 1 for page, _ in placed}
                for path, drawn in self.recorder.drawn.items():
                    claimed = verdicts.get(path, [])
                    for count, location in enumerate(drawn.locations):
                        if location.get("page") in on_pages and "quad" in location:
                            legible, rung = claimed[count] if count < len(claimed) else (True, None)
                            location["legible"] = legible
                            location["legible_from_dpi"] = rung
                look.scanned[number] = details
                for page, transform in placed:
                    for hook in look.on_scan:
                        hook(page, transform)
        finally:
            pdf.close()

    def _value_boxes(self, page: int) -> list[list[float]]:
        """The native boxes of every value drawn on 1-based `page`."""
        return [
            list(location["bbox"])
            for drawn in self.recorder.drawn.values()
            for location in drawn.locations
            if location.get("page") == page and "bbox" in location
        ]

    def _blot_targets(
        self, scans: dict[int, tuple[str, int]]
    ) -> dict[str, tuple[int, list[float]]]:
        """Values a blot (`Presentation.blots`: how many, and a seed) destroys: path -> (1-based
        page, native bbox). Only a value drawn once in the document, on a scanned page, whose
        text is a string of its own there (so the universe loses exactly that string), and
        whose blot reaches no other value's box: a blot destroys its value and nothing else
        (`_blot_clear`), so no value is left half under it, neither legible nor not."""
        import numpy as np

        from packetbench import legibility
        from packetbench.generator.render import scan

        count, seed = self.recorder.presentation.blots
        if not count:
            return {}
        on_scans = {index + 1: scan.LEVELS[level].dpi for index, (level, _) in scans.items()}
        texts: dict[tuple[int, str], int] = {}
        for entry in self.recorder.strings:
            key = (int(entry["page"]), str(entry["text"]))
            texts[key] = texts.get(key, 0) + 1
        boxes: dict[int, list[tuple[str, list[float]]]] = {}
        for path, drawn in self.recorder.drawn.items():
            for location in drawn.locations:
                if "bbox" in location:
                    boxes.setdefault(location.get("page", 0), []).append(
                        (path, list(location["bbox"]))
                    )
        # Per page, its boxes as one array and whose they are: a candidate is checked
        # against every other box of its page at once.
        arrays = {
            page: (
                np.array([b for _, b in listed], dtype=np.float64),
                np.array([p for p, _ in listed]),
            )
            for page, listed in boxes.items()
        }
        candidates = []
        for path, drawn in self.recorder.drawn.items():
            if len(drawn.locations) != 1:
                continue
            location = drawn.locations[0]
            page = location.get("page")
            if page not in on_scans or "bbox" not in location:
                continue
            bbox = list(location["bbox"])
            if (
                texts.get((page, drawn.rendered_as)) == 1
                and legibility.may_be_illegible(drawn.rendered_as)
                and _blot_clear(bbox, *arrays[page], path)
            ):
                candidates.append((path, (int(page), bbox)))
        chosen = random.Random(seed).sample(candidates, min(count, len(candidates)))
        self.recorder.presentation.blotted = sorted(path for path, _ in chosen)
        return dict(chosen)

    def _mark_legible(
        self,
        page: int,
        level: Level,
        clean: Any,
        pixels: Any,
        height: float,
        covered: Any | None,
        boxed: list[tuple[Drawn | None, Location]] | None = None,
    ) -> None:
        """Mark every location on scanned `page` legible or not by the legibility rule, on its
        box as scanned (`packetbench.legibility.legible_cut`, on the box as
        `legibility.cut` cuts it, as the audit cuts it again): `clean` and `pixels` are the
        image the page landed on (the page's own, or its sheet's), `height` that image's
        height in points, `covered` its pixels under something printed over it (or None).
        `boxed`: the page's boxes (`Recorder.boxed_by_page`), or None to find them here."""
        from packetbench import legibility, resolution

        if boxed is None:
            boxed = self.recorder.boxed_by_page().get(page, [])
        judged: dict[str, bool] = {}
        ladder = resolution.Ladder(clean, pixels, level.dpi)
        for drawn, location in boxed:
            if drawn is None or "quad" not in location:
                continue  # covered (nothing of it shows), or not moved by a scan
            # A value too short to be declared illegible with a margin stays legible: its
            # damage is OCR's to judge (`legibility.MIN_ILLEGIBLE_LENGTH`), so it is not judged.
            text = drawn.rendered_as
            if text not in judged:
                judged[text] = legibility.may_be_illegible(text)
            quad = location["quad"]
            if judged[text]:
                verdict = legibility.legible_cut(
                    legibility.cut(clean, pixels, quad, level.dpi, height, covered),
                    blur=level.blur,
                    motion=level.motion,
                    glyph_pixels=legibility.quad_height(quad) * level.dpi / 72.0,
                )
                location["legible"] = verdict.legible
            else:
                location["legible"] = True
            location["legible_from_dpi"] = (
                resolution.legible_from(
                    location.get("glyph_pt"),
                    file_dpi=level.dpi,
                    blur=level.blur,
                    motion=level.motion,
                    ladder=ladder if judged[text] else None,
                    quad=quad,
                    page_height=height,
                )
                if location["legible"]
                else None
            )

    def _emit_pages(
        self,
        pages: list[list[Op]],
        raw_images: bool = False,
        sizes: list[tuple[float, float]] | None = None,
    ) -> bytes:
        """The PDF of `pages`, each of the document's page size or of its own (`sizes`: the
        sheets of a document printed two pages to a sheet)."""
        # A document with scanned pages embeds their JPEGs as they are; reportlab would
        # otherwise wrap every stream in ASCII85 (a quarter larger, and slower). It reads the
        # setting as each stream is made, so it holds for the whole emission.
        before = rl_config.useA85
        rl_config.useA85 = 0 if raw_images else before
        try:
            buffer = io.BytesIO()
            canvas = Canvas(buffer, pagesize=self.pagesize, invariant=1, pageCompression=1)
            canvas.setTitle(self.title)
            canvas.setAuthor("packetbench generator")
            canvas.setSubject("Synthetic document; all data is fictional")
            canvas.setCreator("packetbench")
            for number, ops in enumerate(pages):
                if sizes is not None:
                    canvas.setPageSize(sizes[number])
                for op in ops:
                    if isinstance(op, TextOp):
                        fonts.ensure(op.font)
                self._emit_loose(canvas, [op for op in ops if op.layer == UNDER])
                self._emit(canvas, [op for op in ops if op.layer == CONTENT])
                self._emit_loose(canvas, [op for op in ops if op.layer == OVER])
                canvas.showPage()
            canvas.save()
        finally:
            rl_config.useA85 = before
        return buffer.getvalue()

    def save(self, path: Path) -> int:
        path.write_bytes(self.render())
        return len(self.pages)

    @staticmethod
    def _emit(canvas: Canvas, ops: list[Op]) -> None:
        """The content layer: fills, then rules, then images, then one text object."""
        fills = [op for op in ops if isinstance(op, RectOp) and op.fill is not None]
        for fill in fills:
            if fill.color is not None:
                canvas.setFillColorRGB(*fill.color)
            else:
                canvas.setFillGray(fill.fill)
            canvas.rect(fill.x, fill.y, fill.w, fill.h, stroke=0, fill=1)
        canvas.setFillGray(0)
        current_width = -1.0
        for op in ops:
            if isinstance(op, LineOp | RectOp) and not (
                isinstance(op, RectOp) and op.fill is not None
            ):
                if op.width != current_width:
                    canvas.setLineWidth(op.width)
                    current_width = op.width
                if op.color is not None:
                    canvas.setStrokeColorRGB(*op.color)
                if isinstance(op, LineOp):
                    canvas.line(op.x0, op.y0, op.x1, op.y1)
                else:
                    canvas.rect(op.x, op.y, op.w, op.h, stroke=1, fill=0)
                if op.color is not None:
                    canvas.setStrokeGray(0)
        for op in ops:
            if isinstance(op, ImageOp):
                _image(canvas, op)
            elif isinstance(op, PathOp):
                canvas.saveState()
                _path(canvas, op)
                canvas.restoreState()
        text = canvas.beginText()
        font: tuple[str, float] | None = None
        for op in ops:
            if isinstance(op, TextOp):
                if font != (op.font, op.size):
                    text.setFont(op.font, op.size)
                    font = (op.font, op.size)
                if op.color is not None:
                    text.setFillColorRGB(*op.color)
                if op.angle:
                    text.setTextTransform(*_rotation(op.x, op.y, op.angle))
                else:
                    text.setTextOrigin(op.x, op.y)
                text.textOut(op.text)
                if op.color is not None:
                    text.setFillGray(0)
        canvas.drawText(text)
        for op in ops:
            if isinstance(op, DrawOp):
                canvas.saveState()
                op.draw(canvas)
                canvas.restoreState()

    @staticmethod
    def _emit_loose(canvas: Canvas, ops: list[Op]) -> None:
        """An overlay layer, in drawing order, each operation in its own graphics state."""
        for op in ops:
            canvas.saveState()
            if isinstance(op, RectOp):
                if op.alpha is not None:
                    canvas.setFillAlpha(op.alpha)
                    canvas.setStrokeAlpha(op.alpha)
                if op.fill is not None:
                    if op.color is not None:
                        canvas.setFillColorRGB(*op.color)
                    else:
                        canvas.setFillGray(op.fill)
                    canvas.rect(op.x, op.y, op.w, op.h, stroke=0, fill=1)
                else:
                    canvas.setLineWidth(op.width)
                    if op.color is not None:
                        canvas.setStrokeColorRGB(*op.color)
                    canvas.rect(op.x, op.y, op.w, op.h, stroke=1, fill=0)
            elif isinstance(op, LineOp):
                canvas.setLineWidth(op.width)
                if op.color is not None:
                    canvas.setStrokeColorRGB(*op.color)
                canvas.line(op.x0, op.y0, op.x1, op.y1)
            elif isinstance(op, ImageOp):
                _image(canvas, op)
            elif isinstance(op, DrawOp):
                op.draw(canvas)
            elif isinstance(op, PathOp):
                _path(canvas, op)
            else:
                if op.alpha is not None:
                    canvas.setFillAlpha(op.alpha)
                if op.color is not None:
                    canvas.setFillColorRGB(*op.color)
                text = canvas.beginText()
                text.setFont(op.font, op.size)
                if op.angle:
                    text.setTextTransform(*_rotation(op.x, op.y, op.angle))
                else:
                    text.setTextOrigin(op.x, op.y)
                text.textOut(op.text)
                canvas.drawText(text)
            canvas.restoreState()


def _rotation(x: float, y: float, angle: float) -> tuple[float, float, float, float, float, float]:
    import math

    radians = math.radians(angle)
    cos, sin = round(math.cos(radians), 6), round(math.sin(radians), 6)
    return cos, sin, -sin, cos, x, y


class _KnownPixels(ImageReader):  # type: ignore[misc]
    """An image whose gray pixels are known: reportlab names every image by the md5 of its
    decoded pixels, and would decode a scanned page again for that alone. A JPEG is still
    embedded as it is; an image with no encoded form is compressed from its pixels as
    reportlab compresses a PNG's (what a lossless image decodes to is its pixels)."""

    def __init__(self, encoded: bytes, pixels: Any) -> None:
        from PIL import Image

        super().__init__(io.BytesIO(encoded) if encoded else Image.fromarray(pixels))
        if self._image.mode != "L" or self._image.size != pixels.shape[::-1]:
            raise ValueError(f"{self._image.mode} {self._image.size}: not the pixels given")
        self._known: bytes = pixels.tobytes()

    def getRGBData(self) -> bytes:
        self._dataA = None
        self.mode = "L"
        return self._known


def _image(canvas: Canvas, op: ImageOp) -> None:
    reader = (
        ImageReader(io.BytesIO(op.png)) if op.pixels is None else _KnownPixels(op.png, op.pixels)
    )
    canvas.drawImage(reader, op.x, op.y, op.w, op.h, mask=None if op.jpeg else "auto")


def _path(canvas: Canvas, op: PathOp) -> None:
    """Outlines filled by the non-zero rule (how fonts fill their glyphs)."""
    if op.alpha is not None:
        canvas.setFillAlpha(op.alpha)
        canvas.setStrokeAlpha(op.alpha)
    canvas.setFillColorRGB(*op.color)
    path = canvas.beginPath()
    for command in op.commands:
        kind = command[0]
        if kind == "M":
            path.moveTo(*command[1:])
        elif kind == "L":
            path.lineTo(*command[1:])
        elif kind == "C":
            path.curveTo(*command[1:])
        else:
            path.close()
    if op.stroke > 0:
        canvas.setStrokeColorRGB(*op.color)
        canvas.setLineWidth(op.stroke)
        canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=1 if op.stroke > 0 else 0, fill=1, fillMode=1)


# Points between a blot's edge and any other value's box, beyond the margin the legibility
# rule judges a box with (`legibility.BOX_MARGIN`): JPEG ringing and anti-aliasing.
BLOT_CLEARANCE = 1.5


def _blot_clear(bbox: list[float], boxes: Any, paths: Any, path: str) -> bool:
    """Whether a blot over native `bbox`, the box of `path` (grown as `damage.blot_corners`
    grows it, at the coarsest scan: BLOT_GROW_MIN pixels at 100 dpi) stays BLOT_CLEARANCE
    points clear of the margin of every box of another path among `boxes` (an array of
    x0, y0, x1, y1 rows; `paths`, an array of the path of each row)."""
    from packetbench.generator.render import damage
    from packetbench.legibility import BOX_MARGIN

    x0, y0, x1, y1 = bbox
    grow = max(damage.BLOT_GROW * (y1 - y0), damage.BLOT_GROW_MIN * 72 / 100)
    reach = grow + BOX_MARGIN + BLOT_CLEARANCE
    clear = (
        (boxes[:, 2] <= x0 - reach)
        | (boxes[:, 0] >= x1 + reach)
        | (boxes[:, 3] <= y0 - reach)
        | (boxes[:, 1] >= y1 + reach)
    )
    return bool((clear | (paths == path)).all())
