"""Where a visible string is drawn on a scanned page: found in its native page's text layer.

A rendered universe lists each visible string with its page, not its box. The pixel rule
judges boxes, so a scanned page's strings are looked up in the text layer of the same page
as drawn before the scan (the native PDF the audit rebuilds, `audit.native`), read by pdfium
like any PDF the audit reads (`pdftext.PageText`), and each occurrence's character boxes are
moved by the scan's recorded transform onto the scanned page. A string is matched as whole
words: its characters in order, spaces aside (a kerned run carries none), never starting or
ending inside a word (a letter or digit on both sides of its edge, drawn side by side with no
space between: "No" is not found inside "Notes", "720" is found in "720,"). Both sides are
compared as a reader reads them (NFKC: a ligature reads as its letters). A string the text
layer does not hold (drawn as outlines, an image) is not found, and OCR reads it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import numpy as np

from packetbench.core.text import folded
from packetbench.reading.pdftext import PageText

Box = list[float]  # [x0, y0, x1, y1], PDF points, origin bottom-left


class DrawnText:
    """The characters of one native page and their boxes, to find strings in."""

    def __init__(self, layer: PageText) -> None:
        chars: list[str] = []
        owners: list[int] = []  # compact position -> character index of the page
        starts: set[int] = set()
        gap = True
        for index, ch in enumerate(layer.text):
            if ch.isspace() or ch == "\0":
                gap = True
                continue
            if gap:
                starts.add(len(chars))
                gap = False
            for piece in unicodedata.normalize("NFKC", ch):
                if not piece.isspace():
                    chars.append(piece)
                    owners.append(index)
        self.compact = "".join(chars)
        self.owners = owners
        self.starts = starts
        self.ends = {s for s in starts if s} | {len(self.compact)}
        self.boxes = np.stack([layer.left, layer.bottom, layer.right, layer.top], axis=1).astype(
            np.float64
        )

    def find(self, text: str, limit: int = 8) -> list[Box]:
        """Where `text` is drawn, at most `limit` places, each the box of its characters (PDF
        points of the native page; a string turned or on two lines has the box around all of
        it); empty when the page does not hold it."""
        form = folded(text)
        found: list[Box] = []
        if not form:
            return found
        at = self.compact.find(form)
        while at >= 0 and len(found) < limit:
            end = at + len(form)
            if self._edge(at, at in self.starts) and self._edge(end, end in self.ends):
                box = self._box(sorted(set(self.owners[at:end])))
                if box is not None:
                    found.append(box)
            at = self.compact.find(form, at + 1)
        return found

    def line(self, text: str) -> list[float] | None:
        """The first place `text` is drawn as the rectangle along its line (8 numbers: four
        corners, PDF points of the native page, in order along the line and back), however it
        is turned: a watermark drawn across the page diagonally has a narrow band of its own,
        where `find`'s upright box covers most of the page. None when the page does not hold
        it."""
        form = folded(text)
        at = self.compact.find(form) if form else -1
        while at >= 0:
            end = at + len(form)
            if self._edge(at, at in self.starts) and self._edge(end, end in self.ends):
                boxes = self.boxes[sorted(set(self.owners[at:end]))]
                boxes = boxes[(boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])]
                if len(boxes):
                    return _along(boxes)
            at = self.compact.find(form, at + 1)
        return None

    def _edge(self, at: int, spaced: bool) -> bool:
        """Whether a match may start or end at compact position `at`: a space is there, it
        is not between two letters or digits, or the two characters are drawn apart (a gap
        of a quarter of their height, or not on one line: two cells' words the text layer
        runs together)."""
        text = self.compact
        if spaced or not (0 < at < len(text) and text[at - 1].isalnum() and text[at].isalnum()):
            return True
        _, y0, x1, y1 = self.boxes[self.owners[at - 1]]
        u0, v0, _, v1 = self.boxes[self.owners[at]]
        height = max(y1 - y0, v1 - v0)
        overlap = min(y1, v1) - max(y0, v0)
        return bool(u0 - x1 > 0.25 * height or overlap < 0.5 * min(y1 - y0, v1 - v0))

    def _box(self, indices: list[int]) -> Box | None:
        """The box around the characters `indices` that have an extent (None: none has)."""
        boxes = self.boxes[indices]
        boxes = boxes[(boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])]
        if not len(boxes):
            return None
        return [
            float(boxes[:, 0].min()),
            float(boxes[:, 1].min()),
            float(boxes[:, 2].max()),
            float(boxes[:, 3].max()),
        ]


def _along(boxes: np.ndarray[Any, Any]) -> list[float]:
    """The rectangle along the line from the first box's centre to the last's that holds
    every box: four corners, the first two along the line's lower edge."""
    centres = np.stack([boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]], axis=1) / 2
    step = centres[-1] - centres[0]
    span = float(np.hypot(*step))
    along = step / span if span > 1e-6 else np.array([1.0, 0.0])
    normal = np.array([-along[1], along[0]])
    corners = np.concatenate(
        [boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], axis=0
    )
    a, b = corners @ along, corners @ normal
    out: list[float] = []
    for u, v in ((a.min(), b.min()), (a.max(), b.min()), (a.max(), b.max()), (a.min(), b.max())):
        x, y = u * along + v * normal
        out += [float(x), float(y)]
    return out


def drawn_text(pdf: Any, index: int) -> DrawnText | None:
    """The text of page `index` (0-based) of an open pypdfium2 document, None when pdfium
    cannot read it."""
    import pypdfium2.raw as raw

    page = raw.FPDF_LoadPage(pdf.raw, index)
    if not page:
        return None
    textpage = raw.FPDFText_LoadPage(page)
    try:
        return DrawnText(PageText(textpage)) if textpage else None
    finally:
        if textpage:
            raw.FPDFText_ClosePage(textpage)
        raw.FPDF_ClosePage(page)
