"""What a renderer drew, and where: the raw material of every truth artifact.

Renderers never write truth themselves. They draw values by path through a `Recorder`, which
formats each value, remembers every location it was drawn at, and collects every visible
string for the rendered universe. The document truth is then the document model *projected
onto what was drawn*: a leaf with a value that was not drawn becomes null, but only where the
variant declares that omission, so a renderer that forgets a field fails loudly instead of
shrinking the truth silently.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from packetbench.core.leaves import (
    DocModel,
    Leaf,
    leaf_index,
    leaf_patterns,
    path_pattern,
    set_path,
)
from packetbench.generator.errors import LayoutError
from packetbench.generator.render import fmt
from packetbench.generator.render.presentation import Presentation
from packetbench.reading import resolution

Placement = dict[str, Any]


@dataclass
class Drawn:
    rendered_as: str
    locations: list[Placement] = field(default_factory=list)


class Recorder:
    """Formats, locates and remembers everything drawn for one document."""

    def __init__(
        self,
        doc_id: str,
        doc: DocModel,
        style: fmt.Style = fmt.PLAIN,
        presentation: Presentation | None = None,
        wording: int = 0,
    ) -> None:
        self.doc_id = doc_id
        self.doc = doc
        self.style = style
        self.presentation = presentation or Presentation()
        # Seeds the choice of words in prose documents (generator.render.prose); it comes
        # from the packet seed, never from a fact, so changing a fact changes no wording.
        self.wording = wording
        self._leaves = leaf_index(doc)
        self.drawn: dict[str, Drawn] = {}
        self.strings: list[dict[str, Any]] = []
        self.hidden: list[dict[str, Any]] = []
        # Redacted values as drawn under their cover: path -> locations (never truth).
        self.covered: dict[str, list[Placement]] = {}
        # Strings drawn as ink with no text layer (handwriting, stamps): (page, text, the
        # native box they cover). Never truth: the audit's rebuild reads where to judge them.
        self.inked: list[tuple[int, str, list[float]]] = []

    def leaf(self, path: str) -> tuple[Any, Leaf]:
        """The value and leaf marker at `path`; a bad path is a renderer bug."""
        try:
            return self._leaves[path]
        except KeyError:
            raise LayoutError(f"{self.doc_id}: no leaf at path {path!r}") from None

    def paths(self) -> list[str]:
        """Every leaf path of the document, in model order."""
        return list(self._leaves)

    def text_of(self, path: str, style: fmt.Style | None = None) -> str | None:
        """The string to draw for the leaf at `path`, or None when its value is null.

        A pattern's shown text (`Presentation.shown`) wins over the formatted value.
        """
        value, leaf = self.leaf(path)
        if value is None:
            return None
        shown = self.presentation.shown.get(path)
        if shown is not None:
            return shown
        return fmt.render(value, leaf, style or self.style)

    def shown(self, path: str, rendered: str | None) -> str | None:
        """The text a layout draws for `path` when it passes its own `rendered` text."""
        if rendered is None:
            return self.text_of(path)
        if self.leaf(path)[0] is None:
            return None
        return self.presentation.shown.get(path, rendered)

    def font_for(self, path: str, font: str) -> str:
        """The font that draws `path`: a pattern's choice (another script), else `font`."""
        return self.presentation.fonts.get(path, font)

    def seen(self, path: str, text: str, page: int, text_layer: bool = True) -> None:
        """A drawn line of the value at `path`: visible, or hidden under a redaction."""
        if path in self.presentation.redacted:
            self.invisible(text, page)
        else:
            self.visible(text, page, text_layer, path)

    def place(self, path: str, rendered_as: str, location: Placement) -> None:
        """Record that the value at `path` was drawn as `rendered_as` at `location`."""
        value, _ = self.leaf(path)
        if value is None:
            raise LayoutError(f"{self.doc_id}: {path} is null but was drawn")
        if path in self.presentation.redacted:
            self.covered.setdefault(path, []).append(location)
            return
        drawn = self.drawn.get(path)
        if drawn is None:
            self.drawn[path] = Drawn(rendered_as, [location])
        elif drawn.rendered_as != rendered_as:
            raise LayoutError(
                f"{self.doc_id}: {path} drawn as {drawn.rendered_as!r} and {rendered_as!r}"
            )
        else:
            drawn.locations.append(location)

    def visible(
        self,
        text: str,
        page: int,
        text_layer: bool = True,
        path: str | None = None,
        box: list[float] | None = None,
    ) -> None:
        """A string a reader sees on `page`; `text_layer` False when no text extractor can
        read it there (pixels only: an image, outlines), so only OCR can confirm it. `path`
        names the truth leaf a value's line shows (labels and other page text have none), so
        the audit can tell a value the truth lost from a label. `box`: where ink with no text
        layer was drawn (`inked`)."""
        if text.strip() and box is not None:
            self.inked.append((page, text, list(box)))
        if text.strip():
            entry: dict[str, Any] = {"text": text, "page": page}
            if path is not None:
                entry["path"] = path
            if not text_layer:
                entry["text_layer"] = False
            self.strings.append(entry)

    def boxed_by_page(self) -> dict[int, list[tuple[Drawn | None, Placement]]]:
        """Every location with a box (drawn, or drawn and covered: None for its `Drawn`), by
        page, in the order `scanned` meets them: a document scanning many pages looks its
        values up once, not once per page."""
        pages: dict[int, list[tuple[Drawn | None, Placement]]] = {}
        for drawn in self.drawn.values():
            for location in drawn.locations:
                if "bbox" in location and "page" in location:
                    pages.setdefault(location["page"], []).append((drawn, location))
        for locations in self.covered.values():
            for location in locations:
                if "bbox" in location and "page" in location:
                    pages.setdefault(location["page"], []).append((None, location))
        return pages

    def scanned(
        self,
        page: int,
        quad: Callable[[list[float]], list[float]],
        boxed: list[tuple[Drawn | None, Placement]] | None = None,
    ) -> None:
        """Page `page` became an image: what was drawn on it moved with the scan (`quad` maps a
        native bbox to its corners; its bbox becomes the smallest upright box holding them)
        and only OCR of the image can read it now. Text that was drawn invisibly there is gone
        (an image has no hidden layer). `boxed`: the page's entry of `boxed_by_page` (made
        before any of its pages was scanned), or None to find them here."""
        if boxed is None:
            boxed = self.boxed_by_page().get(page, [])
        for _, location in boxed:
            native = location["bbox"]
            moved = quad(native)
            xs, ys = moved[0::2], moved[1::2]
            location["bbox"] = [min(xs), min(ys), max(xs), max(ys)]
            location["quad"] = moved
            location["text_layer"] = False
            glyph = location.get("glyph_pt")
            if glyph is not None and native[3] > native[1]:
                # Its type as tall as the scan drew it: the box's height on the scanned page
                # over its height as drawn (a photo's page is a share of its frame).
                tall = math.hypot(moved[6] - moved[0], moved[7] - moved[1])
                location["glyph_pt"] = round(glyph * tall / (native[3] - native[1]), 2)
        for entry in self.strings:
            if entry["page"] == page:
                entry["text_layer"] = False
        self.hidden = [entry for entry in self.hidden if entry["page"] != page]

    def map_pages(self, sheets: dict[int, int]) -> None:
        """Every page number recorded moved through a page map (`Presentation.sheets`: page of
        the document -> page of the file): locations, covered values, visible and hidden
        strings. `inked` keeps the document's pages: its boxes are native boxes, which the
        audit's rebuild reads with the native page's own map."""
        for locations in [d.locations for d in self.drawn.values()] + list(self.covered.values()):
            for location in locations:
                if "page" in location:
                    location["page"] = sheets.get(int(location["page"]), location["page"])
        for entry in [*self.strings, *self.hidden]:
            entry["page"] = sheets.get(int(entry["page"]), entry["page"])

    def illegible_paths(self) -> list[str]:
        """Paths drawn on a PDF page none of whose locations is legible (docs/patterns.md rule 3b:
        the legibility rule judged every box on a scanned page, `PdfDocument._mark_legible`)."""
        paths = []
        for path, drawn in self.drawn.items():
            if not drawn.locations:
                continue
            for location in drawn.locations:  # (a loop: called several times a document)
                if "page" not in location or location.get("legible", True):
                    break
            else:
                paths.append(path)
        return paths

    def illegible(self) -> list[dict[str, Any]]:
        """`rendered_universe.illegible`: each illegible value's text as rendered, its
        canonical value and the page it is on (its first location's)."""
        return [
            {
                "path": path,
                "text": self.drawn[path].rendered_as,
                "value": self.leaf(path)[0],
                "page": self.drawn[path].locations[0]["page"],
            }
            for path in self.illegible_paths()
        ]

    def universe_strings(self) -> list[dict[str, Any]]:
        """`rendered_universe.strings` without the illegible values' text: one string of the
        same text on the same page per illegible location."""
        gone: dict[tuple[int, str], int] = {}
        for path in self.illegible_paths():
            drawn = self.drawn[path]
            for location in drawn.locations:
                key = (int(location["page"]), drawn.rendered_as)
                gone[key] = gone.get(key, 0) + 1
        kept = []
        for entry in self.strings:
            key = (int(entry["page"]), str(entry["text"]))
            if gone.get(key):
                gone[key] -= 1
                continue
            kept.append(entry)
        return kept

    def invisible(self, text: str, page: int) -> None:
        if text.strip():
            self.hidden.append({"text": text, "page": page})

    # --- artifacts --------------------------------------------------------------------------

    def truth(self, omits: frozenset[str]) -> dict[str, Any]:
        """The document truth: the model with undrawn, declared-omitted leaves set to null."""
        data = self.doc.model_dump(mode="json")
        missing: list[str] = []
        for path in self.illegible_paths():
            set_path(data, path, None)  # damaged past reading everywhere: abstention expected
        for path, (value, _) in self._leaves.items():
            if value is None or path in self.drawn:
                continue
            if path in self.covered:
                set_path(data, path, None)  # redacted: a reader sees a black box
            elif path_pattern(path) in omits:
                set_path(data, path, None)
            else:
                missing.append(path)
        if missing:
            raise LayoutError(
                f"{self.doc_id}: {len(missing)} value(s) were never drawn, first {missing[0]}"
            )
        unknown = sorted(omits - leaf_patterns(type(self.doc)))
        if unknown:
            raise LayoutError(f"{self.doc_id}: omission {unknown[0]!r} matches no leaf")
        return data

    def field_truth(self) -> list[dict[str, Any]]:
        """One entry per drawn non-null leaf, in model order."""
        fields = []
        illegible = set(self.illegible_paths())
        for path, (value, leaf) in self._leaves.items():
            drawn = self.drawn.get(path)
            if drawn is None:
                continue
            for location in drawn.locations:
                if "page" in location and "legible" not in location:
                    # A native page is read as drawn, and drawn at any resolution: only its
                    # type's size decides the rungs it is legible from.
                    location["legible"] = True
                    location["legible_from_dpi"] = resolution.legible_from(location.get("glyph_pt"))
            entry: dict[str, Any] = {
                "path": path,
                "value": value,
                "kind": leaf.kind,
                "rendered_as": drawn.rendered_as,
                "locations": drawn.locations,
            }
            if path in illegible:
                entry["illegible"] = True
            fields.append(entry)
        return fields
