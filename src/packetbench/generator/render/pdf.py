"""A small PDF engine on reportlab: display lists per page, values placed and located at once.

Pages are laid out first as lists of drawing operations (`ops`) and only then emitted (`emit`),
so footers can say "Page 2 of 5" and presentation patterns can draw over finished pages
(`after_layout`). Every visible string goes to the recorder's universe as it is laid out, and
every field value is located with the same geometry that draws it (`metrics`); nothing is
measured back afterwards. Pages a scan pattern asked for are scanned once emitted and emitted
again as their images, each location judged legible or not on them; while documents are built
again for the audit (`rebuild.REBUILD`), scanned pages are placed without their pixels.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.pagesizes import landscape, letter

from packetbench.generator.errors import LayoutError
from packetbench.generator.render import faxheader
from packetbench.generator.render.emit import emit_pdf
from packetbench.generator.render.metrics import (
    BOLD,
    MARGIN,
    REGULAR,
    _check_drawable,
    fit,
    text_bbox,
    width_of,
)
from packetbench.generator.render.ops import CONTENT, Color, ImageOp, LineOp, Op, RectOp, TextOp
from packetbench.generator.render.presentation import Presentation
from packetbench.generator.render.rebuild import REBUILD
from packetbench.generator.render.recorder import Drawn, Placement, Recorder
from packetbench.reading.resolution import Verdict

if TYPE_CHECKING:
    from packetbench.generator.render.scan_levels import Level

PageHook = Callable[["PdfDocument"], None]


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
        location: Placement = {
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
        data = emit_pdf(self.title, self.pagesize, self.pages)
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
                data = emit_pdf(self.title, self.pagesize, pages, raw_images=True, sizes=sizes)
            else:
                data = emit_pdf(
                    self.title, self.pagesize, self._scanned(data, scans), raw_images=True
                )
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
        from packetbench.generator.render import scan_levels

        ups = {scan_levels.LEVELS[level].up for level, _ in scans.values()}
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
        from packetbench.generator.render import scan, scan_levels

        pages = list(self.pages)
        targets = self._blot_targets(scans)
        # What was drawn where, looked up once: scanning a page moves its boxes, never a box
        # from one page to another.
        boxed = self.recorder.boxed_by_page()
        pdf = scan.open_pdf(native)
        try:
            for index, (level, seed) in sorted(scans.items()):
                blots = [box for page, box in targets.values() if page == index + 1]
                found = scan_levels.LEVELS[level]
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
                    values=(
                        self._value_boxes(index + 1) if header is not None or found.rows else None
                    ),
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
        from packetbench.generator.render import scan, scan_levels, twoup

        look = self.recorder.presentation
        targets = self._blot_targets(scans)
        pages: list[list[Op]] = []
        sizes: list[tuple[float, float]] = []
        pdf = scan.open_pdf(native)
        try:
            for first in range(0, len(self.pages), 2):
                indices = [i for i in (first, first + 1) if i < len(self.pages)]
                level, seed = scans[first]
                found = scan_levels.LEVELS[level]
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
        from packetbench.generator.render import scan, scan_levels, twoup

        self._blot_targets(scans)
        look = self.recorder.presentation
        up = self._up(scans)
        pdf = scan.open_pdf(native)
        try:
            for index, (level, seed) in sorted(scans.items()):
                found = scan_levels.LEVELS[level]
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

        from packetbench.generator.render import scan_levels
        from packetbench.reading import legibility

        count, seed = self.recorder.presentation.blots
        if not count:
            return {}
        on_scans = {index + 1: scan_levels.LEVELS[level].dpi for index, (level, _) in scans.items()}
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
        boxed: list[tuple[Drawn | None, Placement]] | None = None,
    ) -> None:
        """Mark every location on scanned `page` legible or not by the legibility rule, on its
        box as scanned (`packetbench.reading.legibility.legible_cut`, on the box as
        `legibility.cut` cuts it, as the audit cuts it again): `clean` and `pixels` are the
        image the page landed on (the page's own, or its sheet's), `height` that image's
        height in points, `covered` its pixels under something printed over it (or None).
        `boxed`: the page's boxes (`Recorder.boxed_by_page`), or None to find them here."""
        from packetbench.reading import legibility, resolution

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

    def save(self, path: Path) -> int:
        path.write_bytes(self.render())
        return len(self.pages)


# Points between a blot's edge and any other value's box, beyond the margin the legibility
# rule judges a box with (`legibility.BOX_MARGIN`): JPEG ringing and anti-aliasing.
BLOT_CLEARANCE = 1.5


def _blot_clear(bbox: list[float], boxes: Any, paths: Any, path: str) -> bool:
    """Whether a blot over native `bbox`, the box of `path` (grown as `damage.blot_corners`
    grows it, at the coarsest scan: BLOT_GROW_MIN pixels at 100 dpi) stays BLOT_CLEARANCE
    points clear of the margin of every box of another path among `boxes` (an array of
    x0, y0, x1, y1 rows; `paths`, an array of the path of each row)."""
    from packetbench.generator.render import damage
    from packetbench.reading.legibility import BOX_MARGIN

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
