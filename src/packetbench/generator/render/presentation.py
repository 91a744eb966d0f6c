"""How presentation patterns ask a document to be drawn.

A renderer lays out a document model; patterns never reach into it. Instead, before layout they
fill a `Presentation` that the shared drawing machinery consults: the recorder (shown text,
fonts, redactions), `Flow` widgets (labels) and the table engine (table looks), and after
layout they draw over the finished pages (`after_layout`). An empty presentation is the
document's plain look.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from packetbench.generator.render.csvlook import CsvLook
from packetbench.generator.render.sheetlook import SheetLook

if TYPE_CHECKING:
    from packetbench.generator.render.table_look import TableLook

_FIRST_INDEX = re.compile(r"^([^\[]*\[\d+\])")


def section_of(path: str) -> str:
    """The record a path belongs to: ``policies[2].claims[0].paid`` -> ``policies[2]``
    (the path itself when it has no list index)."""
    match = _FIRST_INDEX.match(path)
    return match.group(1) if match else path


@dataclass
class Presentation:
    # Path -> the text drawn instead of the formatted value (value stays canonical).
    shown: dict[str, str] = field(default_factory=dict)
    # Path -> the font drawing it (a script the standard fonts cannot draw).
    fonts: dict[str, str] = field(default_factory=dict)
    # Path -> the glyphs drawn for its shown text when they differ from its reading order
    # (right-to-left text is drawn in visual order; a reader reads the shown text).
    glyphs: dict[str, str] = field(default_factory=dict)
    # Paths drawn, then covered (a redaction): never truth, their text goes to `hidden`.
    redacted: set[str] = field(default_factory=set)
    # (label, section) -> the label drawn; section "" applies everywhere.
    labels: dict[tuple[str, str], str] = field(default_factory=dict)
    # Table name ("policies[].claims", "buildings") -> its look.
    tables: dict[str, TableLook] = field(default_factory=dict)
    # Section path ("policies[2]") -> look fields that differ in that section.
    section_looks: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Called with the PdfDocument after layout and footers, before emission, in order.
    after_layout: list[Callable[[Any], None]] = field(default_factory=list)
    # What the drawing machinery did that a pattern asked for: (event, table or label,
    # 1-based page). Patterns confirm their effect from these ("split", "continued", ...).
    events: list[tuple[str, str, int]] = field(default_factory=list)
    # Things drawn once per document (the first table's preamble, the amounts' unit).
    done: set[str] = field(default_factory=set)
    # Path -> the pen that writes its value by hand instead of drawing it as text
    # (generator.patterns.hand): called as ink(pdf, page, x, baseline, text, lines, font, size,
    # align, room) before the value is drawn; it draws and returns the bbox it covered, or
    # None to leave the value to the type. A written value has no text layer.
    inked: dict[str, Callable[..., list[float] | None]] = field(default_factory=dict)
    # 0-based page -> (scan level, seed): the page is emitted as its scanned image
    # (generator.render.scan), set by scan patterns after layout.
    scans: dict[int, tuple[str, int]] = field(default_factory=dict)
    # 1-based page of the file -> how it was scanned (level, dpi, angle, scale, shift...), once
    # emitted: a page of the document, or a sheet holding two of them (`sheets`).
    scanned: dict[int, dict[str, Any]] = field(default_factory=dict)
    # The page map of a document printed two pages to a sheet (scan level `two_up`): 1-based
    # page of the document -> 1-based page of the file (its sheet). Empty when every page is
    # a page of the file. Everything is recorded in the document's own page numbers until
    # every pattern has confirmed its pages; the truth writer then maps them once
    # (`generator.truth.document_artifacts`).
    sheets: dict[int, int] = field(default_factory=dict)
    # What workbook (sheet.*) and CSV (csv.*) patterns ask of those writers.
    sheet: SheetLook = field(default_factory=SheetLook)
    csv: CsvLook = field(default_factory=CsvLook)
    # Called with (0-based page, scan transform) when a page becomes its scanned image; the
    # operations returned are drawn on the scanned page (an OCR text layer).
    on_scan: list[Callable[[int, Any], list[Any]]] = field(default_factory=list)
    # overlay.blot: (how many values, seed) to destroy on the scanned pages (damage past
    # reading, docs/patterns.md rule 3b), and the paths it chose once the pages were scanned.
    blots: tuple[int, int] = (0, 0)
    blotted: list[str] = field(default_factory=list)
    # scan.fax: the sending machine's header line (`generator.render.faxheader.FaxHeader`),
    # printed over the top of every scanned page.
    fax_header: Any = None
    # Called in order on the emitted PDF's bytes (text-layer attacks made on the file).
    post: list[Callable[[bytes], bytes]] = field(default_factory=list)
    # The applications of overlay-phase patterns (`patterns.base.Applied`): their pages are
    # the ones a reader of values reads without display lettering (the audit's overlay pages).
    overlays: list[Any] = field(default_factory=list)

    def snapshot(self) -> Presentation:
        """A copy that later changes to this one do not reach (to undo a pattern)."""
        return Presentation(
            shown=dict(self.shown),
            fonts=dict(self.fonts),
            glyphs=dict(self.glyphs),
            redacted=set(self.redacted),
            labels=dict(self.labels),
            tables={name: copy.deepcopy(look) for name, look in self.tables.items()},
            section_looks={name: dict(look) for name, look in self.section_looks.items()},
            after_layout=list(self.after_layout),
            overlays=list(self.overlays),
            events=list(self.events),
            done=set(self.done),
            inked=dict(self.inked),
            scans=dict(self.scans),
            scanned=dict(self.scanned),
            sheets=dict(self.sheets),
            sheet=copy.deepcopy(self.sheet),
            csv=copy.deepcopy(self.csv),
            on_scan=list(self.on_scan),
            post=list(self.post),
            blots=self.blots,
            blotted=list(self.blotted),
            fax_header=self.fax_header,
        )

    def label(self, text: str, path: str | None = None, page: int = 0) -> str:
        """The label drawn for `text` in the section of `path` (on 1-based `page`)."""
        if not self.labels:
            return text
        drawn = self.labels.get((text, section_of(path))) if path is not None else None
        if drawn is None:
            drawn = self.labels.get((text, ""))
        if drawn is None:
            return text
        self.events.append(("label", path or "", page))
        return drawn

    def table(self, name: str) -> TableLook | None:
        return self.tables.get(name)

    def happened(self, event: str, name: str | None = None) -> list[int]:
        """Pages (1-based) on which `event` happened (to table or label `name`)."""
        return [
            page
            for kind, subject, page in self.events
            if kind == event and (name is None or subject == name)
        ]


PLAIN_LOOK = Presentation()
