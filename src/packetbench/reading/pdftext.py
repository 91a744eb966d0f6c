"""The PDF text layer as pdfium reads it: each page's characters and boxes, read once.

`PdfPage.get_textpage().get_text_bounded` costs ~65 µs a call, and a canonical page carries
~250 located values, so asking pdfium once per value reads ~60 pages/s. Instead, a page's text
comes from one `FPDFText_GetText` call and its character boxes from one `FPDFText_GetCharBox`
call per character, made through a bare function pointer (pypdfium2's typed bindings convert
every argument and cost 2.5 times more). Every bbox query is then answered from those arrays
with pdfium's own rule (`CPDF_TextPage::GetTextByRect`): a character belongs to a rectangle
when its box intersects the rectangle with a non-empty area, compared in float32 as pdfium
stores them; the text is joined the way `GetTextByPredicate` joins it (a space after a matched
character, a line break before a matched character that follows unmatched text on another
baseline). A test holds this equal to `get_text_bounded` on every location of the suite.

Reading a value's box, the audit leaves out display-size characters (a font size above
`DISPLAY_SIZE`): no field is drawn that large, while watermarks and stamps drawn across a
page are, and their letters would otherwise join every value they pass over
(`bounded_many(..., display=False)`). Font sizes are read only for pages that carry such
overlays (`PdfText.page(..., sizes=True)`); elsewhere no character is that large.
"""

from __future__ import annotations

import collections
import ctypes
import itertools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pypdfium2 as pdfium
import pypdfium2.raw as raw

from packetbench.core import safe_read
from packetbench.core.errors import BadInput

F32 = npt.NDArray[np.float32]
TALL = 24.0  # characters taller than this (points) are tried against every query
DISPLAY_SIZE = 24.0  # characters drawn larger than this (points) are overlay lettering
_ROW_STRIDE = 1e7  # row key spacing: wider than any page coordinate range


def _bare(function: Any, restype: Any) -> Any:
    """The C function behind a pypdfium2 binding, called without per-argument conversion."""
    pointer = type(function)(ctypes.cast(function, ctypes.c_void_p).value)
    pointer.restype = restype
    pointer.argtypes = None
    return pointer


_GET_CHAR_BOX = _bare(raw.FPDFText_GetCharBox, ctypes.c_int)
_GET_FONT_SIZE = _bare(raw.FPDFText_GetFontSize, ctypes.c_double)


class _BoxBuffer:
    """One reusable C array of char boxes, with a pointer object per slot built once."""

    def __init__(self) -> None:
        self.capacity = 0
        self.array: Any = None
        self.slots: list[list[ctypes.c_void_p]] = []
        self.indices: list[ctypes.c_int] = []

    def ensure(self, count: int) -> None:
        if count <= self.capacity:
            return
        capacity = max(count, 2 * self.capacity, 4096)
        self.array = (ctypes.c_double * (4 * capacity))()
        base = ctypes.addressof(self.array)
        self.slots = [
            [ctypes.c_void_p(base + 32 * i + 8 * k) for i in range(capacity)] for k in range(4)
        ]
        self.indices = [ctypes.c_int(i) for i in range(capacity)]
        self.capacity = capacity

    def read(self, textpage: ctypes.c_void_p, count: int) -> npt.NDArray[np.float64]:
        """(count, 4) boxes as FPDFText_GetCharBox gives them: left, right, bottom, top."""
        if count <= 0:
            return np.zeros((0, 4), dtype=np.float64)
        self.ensure(count)
        left, right, bottom, top = self.slots
        # map() keeps the loop in C; the deque drops each call's return value.
        collections.deque(
            map(
                _GET_CHAR_BOX,
                itertools.repeat(textpage, count),
                self.indices[:count],
                left,
                right,
                bottom,
                top,
            ),
            maxlen=0,
        )
        return np.frombuffer(self.array, dtype=np.float64, count=4 * count).reshape(count, 4)


_BOXES = _BoxBuffer()


class PageText:
    """The characters of one page, their boxes, and the text inside any rectangle."""

    def __init__(self, textpage: Any, sizes: bool = False) -> None:
        self._textpage = textpage
        count = raw.FPDFText_CountChars(textpage)
        self.text = _page_text(textpage, count)
        pointer = ctypes.c_void_p(ctypes.cast(textpage, ctypes.c_void_p).value)
        boxes = _BOXES.read(pointer, count).astype(np.float32)
        # Overlay lettering (watermarks, stamps): characters in a display font size.
        self.display = np.zeros(count, dtype=bool)
        if sizes and count:
            self.display = (
                np.fromiter(
                    map(_GET_FONT_SIZE, itertools.repeat(pointer, count), _BOXES.indices[:count]),
                    dtype=np.float64,
                    count=count,
                )
                > DISPLAY_SIZE
            )
        # Normalized [left, bottom, right, top], as CFX_FloatRect::Intersect normalizes them.
        self.left = np.minimum(boxes[:, 0], boxes[:, 1])
        self.right = np.maximum(boxes[:, 0], boxes[:, 1])
        self.bottom = np.minimum(boxes[:, 2], boxes[:, 3])
        self.top = np.maximum(boxes[:, 2], boxes[:, 3])
        # Index: characters no taller than TALL, bucketed in rows of the tallest one's height
        # by their bottom and sorted by their left edge within a row; the few taller ones are
        # tried against every query.
        height = self.top - self.bottom
        tall = height > TALL
        self._tall = np.flatnonzero(tall)
        small = np.flatnonzero(~tall)
        self._row = float(height[small].max()) + 1.0 if small.size else 1.0
        self._width = float((self.right - self.left)[small].max()) + 1.0 if small.size else 1.0
        # Rows in float64 on both sides, so a char and a query agree on row boundaries.
        keys = self._key(
            np.floor(self.bottom[small].astype(np.float64) / self._row), self.left[small]
        )
        order = np.argsort(keys, kind="stable")
        self._small = small[order]
        self._keys = keys[order]
        self._origins: dict[int, float] = {}

    def __len__(self) -> int:
        return len(self.text)

    # --- queries -----------------------------------------------------------------------------

    def bounded(self, bbox: Sequence[float]) -> str:
        """The text pdfium returns for `bbox` = [left, bottom, right, top] in PDF points."""
        return self.bounded_many([bbox])[0]

    def bounded_many(self, bboxes: Sequence[Sequence[float]], display: bool = True) -> list[str]:
        """`bounded` for many rectangles at once (one vectorized pass over the page).

        With `display` False, characters taller than TALL (watermark and stamp letters) are
        left out, as if drawn on another layer.
        """
        if not bboxes:
            return []
        rects = np.asarray(bboxes, dtype=np.float32).reshape(-1, 4)
        q_left = np.minimum(rects[:, 0], rects[:, 2])
        q_right = np.maximum(rects[:, 0], rects[:, 2])
        q_bottom = np.minimum(rects[:, 1], rects[:, 3])
        q_top = np.maximum(rects[:, 1], rects[:, 3])
        queries, chars = self._candidates(q_left, q_bottom, q_right, q_top, display)
        if not display and self.display.any():
            keep = ~self.display[chars]
            queries, chars = queries[keep], chars[keep]
        hit = (
            np.maximum(q_left[queries], self.left[chars])
            < np.minimum(q_right[queries], self.right[chars])
        ) & (
            np.maximum(q_bottom[queries], self.bottom[chars])
            < np.minimum(q_top[queries], self.top[chars])
        )
        queries, chars = queries[hit], chars[hit]
        order = np.lexsort((chars, queries))
        queries, chars = queries[order], chars[order]
        if not len(chars):
            return [""] * len(rects)
        bounds = np.searchsorted(queries, np.arange(len(rects) + 1))
        starts, stops = bounds[:-1], bounds[1:]
        found = stops > starts
        firsts = chars[np.minimum(starts, len(chars) - 1)]
        lasts = chars[np.maximum(stops - 1, 0)]
        # All characters from the first match to the last one matched: pdfium's loop appends
        # exactly those, plus one space when a space follows (a line break needs an unmatched
        # character in between, so there is none). Other queries take the full loop.
        complete = found & ((stops - starts) == (lasts - firsts + 1))
        text = self.text
        padded = text + "\0"
        out = [
            (text[first : last + 1] + (" " if padded[last + 1] == " " else "")) if whole else ""
            for first, last, whole in zip(
                firsts.tolist(), lasts.tolist(), complete.tolist(), strict=True
            )
        ]
        if "\0" in text:
            out = [s.replace("\0", "") for s in out]
        for q in np.flatnonzero(found & ~complete).tolist():
            start, stop = int(starts[q]), int(stops[q])
            out[q] = self._join(
                set(chars[start:stop].tolist()), int(chars[start]), int(chars[stop - 1])
            )
        return out

    @staticmethod
    def _key(row: npt.NDArray[np.float64], left: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        return row * _ROW_STRIDE + left.astype(np.float64)

    def _candidates(
        self, q_left: F32, q_bottom: F32, q_right: F32, q_top: F32, display: bool = True
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """(query, char) pairs that may intersect: a superset, tested exactly afterwards.

        A char meets a query only if its bottom lies within one row height below the query's
        bottom and below its top, and its left edge within one char width left of the query's
        left edge and left of its right edge.
        """
        count = len(q_left)
        first_row = np.floor((q_bottom.astype(np.float64) - self._row) / self._row)
        last_row = np.floor(q_top.astype(np.float64) / self._row)
        rows_per_query = (last_row - first_row + 1).astype(np.intp)
        query_of = np.repeat(np.arange(count), rows_per_query)
        row_offset = np.arange(int(rows_per_query.sum())) - np.repeat(
            np.cumsum(rows_per_query) - rows_per_query, rows_per_query
        )
        rows = (first_row[query_of] + row_offset).astype(np.float64)
        lo = np.searchsorted(self._keys, self._key(rows, q_left[query_of] - self._width))
        hi = np.searchsorted(self._keys, self._key(rows, q_right[query_of]), side="right")
        counts = np.maximum(hi - lo, 0)
        queries = np.repeat(query_of, counts)
        starts = np.repeat(lo - np.cumsum(counts) + counts, counts)
        chars = self._small[np.arange(int(counts.sum())) + starts]
        if self._tall.size and display:
            queries = np.concatenate([queries, np.repeat(np.arange(count), self._tall.size)])
            chars = np.concatenate([chars, np.tile(self._tall, count)])
        return queries, chars

    def _join(self, matched: set[int], first: int, last: int) -> str:
        """pdfium's GetTextByPredicate over the characters first..last, state carried in."""
        text = self.text
        # Before the first match every character is unmatched: a non-space one sets the
        # line-feed flag; spaces change nothing while no matched character precedes them.
        add_line_feed = any(ch != " " for ch in text[:first])
        contains_previous = False
        posy = 0.0
        out: list[str] = []
        for index in range(first, last + 2):
            if index >= len(text):
                break
            ch = text[index]
            if index in matched:
                if not contains_previous and add_line_feed:
                    y = self._origin_y(index)
                    if abs(posy - y) > 0:
                        posy = y
                        if out:
                            out.append("\r\n")
                contains_previous, add_line_feed = True, False
                if ch != "\0":
                    out.append(ch)
            elif ch == " ":
                if contains_previous:
                    out.append(" ")
                    contains_previous, add_line_feed = False, False
            else:
                contains_previous, add_line_feed = False, True
        return "".join(out)

    def _origin_y(self, index: int) -> float:
        if index not in self._origins:
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(self._textpage, index, x, y)
            # pdfium keeps the origin as a float and compares floats.
            self._origins[index] = float(np.float32(y.value))
        return self._origins[index]


def _page_text(textpage: Any, count: int) -> str:
    """One character per pdfium char index ("\\0" where a char has no unicode)."""
    if count <= 0:
        return ""
    buffer = (ctypes.c_ushort * (count + 1))()
    written = raw.FPDFText_GetText(textpage, 0, count, buffer)
    text = bytes(buffer)[: max(written - 1, 0) * 2].decode("utf-16-le", errors="replace")
    if len(text) == count:
        return text
    # Characters outside the BMP or without unicode break the 1:1 index mapping of
    # GetText; ask for each character instead.
    return "".join(chr(raw.FPDFText_GetUnicode(textpage, i)) for i in range(count))


class PdfText:
    """An open PDF whose pages are read through their text layer."""

    def __init__(self, path: Path, data: bytes | None = None) -> None:
        """The PDF at `path`, or with `data` the PDF those bytes are (named `path` in errors:
        a document built again, `audit.native`)."""
        self.path = path
        try:
            if data is None:
                safe_read.check_file(path, "document")
            self._pdf = pdfium.PdfDocument(path if data is None else data)
        except (pdfium.PdfiumError, OSError) as error:
            raise BadInput(f"{path}: unreadable PDF ({error})") from None
        self.pages = len(self._pdf)

    @contextmanager
    def page(self, number: int, sizes: bool = False) -> Iterator[PageText]:
        """The text of page `number` (1-based), closed when the block ends; `sizes` reads
        every character's font size (to tell overlay lettering from content)."""
        page = raw.FPDF_LoadPage(self._pdf.raw, number - 1)
        if not page:
            raise BadInput(f"{self.path}: page {number} cannot be loaded")
        textpage = raw.FPDFText_LoadPage(page)
        try:
            if not textpage:
                raise BadInput(f"{self.path}: page {number} has no readable text layer")
            yield PageText(textpage, sizes)
        finally:
            if textpage:
                raw.FPDFText_ClosePage(textpage)
            raw.FPDF_ClosePage(page)

    def text(self, number: int) -> str:
        """The whole text layer of page `number` (1-based), without character boxes."""
        page = raw.FPDF_LoadPage(self._pdf.raw, number - 1)
        if not page:
            raise BadInput(f"{self.path}: page {number} cannot be loaded")
        textpage = raw.FPDFText_LoadPage(page)
        try:
            return _page_text(textpage, raw.FPDFText_CountChars(textpage)) if textpage else ""
        finally:
            if textpage:
                raw.FPDFText_ClosePage(textpage)
            raw.FPDF_ClosePage(page)

    def document(self) -> pdfium.PdfDocument:
        """The open pypdfium2 document (to render pages for OCR)."""
        return self._pdf

    def close(self) -> None:
        self._pdf.close()

    def __enter__(self) -> PdfText:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
