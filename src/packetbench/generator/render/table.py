"""Paginated tables on a `Flow`: one engine for every table of every document.

A renderer declares a table (its columns, its rows by path, its sections, banners and totals
rows); how the table looks is a `TableLook` that presentation patterns set per table or per
section (`Presentation.table`). The plain look is a ruled grid whose header repeats on every
page the table reaches. Every value is drawn through `PdfDocument.lines`, so it is located as
it is drawn, whatever the look.

What a table is and how it looks (`Totals`, `TableLook`, ...) is `render.table_look`; the
rows beyond the data (subtotals, totals) are `render.table_totals`. Alternative layouts of the
same rows (label/value records, claim blocks, a fixed-width mainframe listing) live in
`render.record_layouts` and share this interface.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from packetbench.generator.render import fmt, record_layouts, table_totals
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import BOTTOM, PAD, Flow, anchor
from packetbench.generator.render.metrics import BOLD, MARGIN, MIN_FONT, REGULAR, fit, width_of
from packetbench.generator.render.table_look import (
    CELL_PAD,
    DETAIL_GAP,
    DETAIL_SIZE,
    HEADER_LINE,
    PLAIN,
    Col,
    Column,
    Detail,
    TableLook,
    Totals,
    record_section,
    table_name,
)

Continued = Callable[["Table", str | None], None]  # draws a caption on a continuation page


class Table:
    """One table of a document: `start`, then `rows` / `banner`, `totals`, `finish`.

    A document with several sections of one table (a loss run's policy terms) calls `start`
    once per section; `continued(table, section)` draws what a continuation page shows above
    the repeated header (e.g. "POLICY 123 (CONTINUED)").
    """

    def __init__(
        self,
        flow: Flow,
        name: str,
        columns: Sequence[Column],
        *,
        size: float = 7.0,
        header_size: float = 6.0,
        continued: Continued | None = None,
        look: TableLook | None = None,
    ) -> None:
        self.flow = flow
        self.pdf = flow.pdf
        self.name = name
        self.base_columns = tuple(columns)
        self.size = size
        self.header_size = header_size
        self.leading = size * 1.18
        self.continued = continued
        self.base_look = look
        self.section: str | None = None
        self.look = PLAIN
        self.cols: list[Col] = []
        self.segment_top = flow.y
        self.started_pages: set[int] = set()
        self.first_header = True
        self.row_count = 0  # data rows drawn in this section (for shading)
        self.drawn_pages: set[int] = set()
        self._configure(None)

    # --- configuration ----------------------------------------------------------------------

    def _configure(self, section: str | None) -> None:
        look = self.base_look or self.pdf.look.table(self.name) or PLAIN
        overrides = self.pdf.look.section_looks.get(section) if section is not None else None
        self.look = look.merged(overrides) if overrides else look
        columns = list(self.base_columns)
        if self.look.order:
            rank = {key: i for i, key in enumerate(self.look.order)}
            columns.sort(key=lambda c: rank.get(c.key, len(rank) + self.base_columns.index(c)))
        self.split_after: int | None = None
        if self.look.split_fraction is not None and len(columns) > 3:
            self.split_after = max(1, round(len(columns) * self.look.split_fraction)) - 1
        gap = 12.0 if self.split_after is not None else 0.0
        fixed = {c.key: self.look.fixed[c.key] for c in columns if c.key in self.look.fixed}

        def shared() -> list[float]:
            """Fixed columns at their width, the others sharing the rest by weight."""
            room = self.flow.cw - gap - sum(fixed.values())
            flexible = sum(c.width for c in columns if c.key not in fixed)
            return [fixed.get(c.key, c.width * room / flexible) for c in columns]

        widths = shared()
        # The column holding nested tables is widened to the widest of them.
        keys = [c.key for c in columns]
        if self.look.details and self.look.detail_column in keys:
            at = keys.index(self.look.detail_column)
            need = max(d.room for d in self.look.details.values()) + 2 * PAD + 4
            if widths[at] < need:
                fixed[keys[at]] = need
                widths = shared()
        # A header edge moves at most a fifth of the narrower column beside it.
        shifts = (
            [0.0]
            + [
                max(-limit, min(limit, self._shift(edge)))
                for edge in range(1, len(columns))
                for limit in (0.2 * min(widths[edge - 1], widths[edge]),)
            ]
            + [0.0]
        )
        self.cols = []
        x = MARGIN
        for index, (column, width) in enumerate(zip(columns, widths, strict=True)):
            shift = shifts[index]
            head_left = x + shift
            next_shift = shifts[index + 1]
            self.cols.append(Col(column, x, width, head_left, width - shift + next_shift))
            x += width
            if index == self.split_after:
                x += gap
        self.right = x

    def _shift(self, edge: int) -> float:
        shifts = self.look.shift
        if not shifts or edge == 0 or edge >= len(self.base_columns):
            return 0.0
        return shifts[(edge - 1) % len(shifts)]

    # --- geometry helpers -------------------------------------------------------------------

    def _groups_of_columns(self) -> list[list[Col]]:
        """Runs of columns drawn as one ruled block (two when the table is split)."""
        if self.split_after is None:
            return [self.cols]
        cut = self.split_after + 1
        return [self.cols[:cut], self.cols[cut:]]

    def _edges(self) -> list[float]:
        edges: list[float] = []
        for block in self._groups_of_columns():
            edges += [c.left for c in block] + [block[-1].left + block[-1].width]
        return edges

    def _hline(self, y: float, width: float) -> None:
        for block in self._groups_of_columns():
            self.pdf.line(
                self.flow.page, block[0].left, y, block[-1].left + block[-1].width, y, width
            )

    def _ruled(self) -> bool:
        return self.look.layout == "grid" and self.look.rules == "grid"

    def header_text(self, col: Col, continuation: bool) -> str:
        texts = self.look.continued if continuation and self.look.continued else self.look.headers
        return self.pdf.look.label(
            texts.get(col.key, col.column.header), self.section or self.name, self.flow.page + 1
        )

    def _header_lines(self, continuation: bool) -> list[tuple[float, list[str]]]:
        out = []
        for col in self.cols:
            text = self.header_text(col, continuation).upper()
            if self.look.stacked:
                # One word a line, each within its column: a word wider than the column
                # shrinks the column's header (as `fit` shrinks a line), so it never runs
                # into the next column's ("BUILTSTORIES"); a word too wide even at the
                # smallest size leaves the column the renderer's own header.
                width = col.head_width - 2 * PAD
                if not _fits_words(text, width):
                    text = self.pdf.look.label(col.column.header, self.section or self.name).upper()
                words = text.split() or [""]
                widest = max(width_of(word, BOLD, 1.0) for word in words)
                size = self.header_size
                if widest * size > width:
                    size = max(MIN_FONT, width / widest)
                out.append((size, words))
            elif self.look.rotated:
                out.append((self.header_size, [text]))
            else:
                width = col.head_width - 2 * PAD
                if not _fits_words(text, width):
                    # A look's header too wide for its column even at the smallest size
                    # would be illegible: the column keeps the renderer's own header.
                    text = self.pdf.look.label(col.column.header, self.section or self.name).upper()
                out.append(fit(text, BOLD, self.header_size, width, True))
        return out

    def _header_height(self, heads: list[tuple[float, list[str]]]) -> float:
        if self.look.rotated:
            return (
                max(
                    width_of(lines[0], BOLD, _rotated_size(lines[0], size)) for size, lines in heads
                )
                + 8
            )
        return max(len(lines) for _, lines in heads) * self.header_size * HEADER_LINE + 4

    def _group_rows(self) -> list[tuple[tuple[str, int, int], ...]]:
        """Merged header rows as (label, first column, last column) spans."""
        rows = []
        for mapping in (self.look.top_group_of, self.look.group_of):
            if not mapping:
                continue
            spans: list[tuple[str, int, int]] = []
            for index, col in enumerate(self.cols):
                label = mapping.get(col.key, "")
                joined = (
                    spans
                    and spans[-1][0] == label
                    and spans[-1][2] == index - 1
                    and index - 1 != self.split_after
                )
                if joined:
                    spans[-1] = (label, spans[-1][1], index)
                else:
                    spans.append((label, index, index))
            rows.append(tuple(self._absorb_narrow(spans)))
        return rows

    def _absorb_narrow(self, spans: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
        """A group whose label is wider than its columns joins the group before it."""
        out: list[tuple[str, int, int]] = []
        for label, first, last in spans:
            width = sum(c.head_width for c in self.cols[first : last + 1]) - 2 * PAD
            narrow = width_of(label.upper(), BOLD, self.header_size) > width
            if out and narrow and out[-1][2] == first - 1 and first - 1 != self.split_after:
                out[-1] = (out[-1][0], out[-1][1], last)
            else:
                out.append((label, first, last))
        return out

    def header_height(self, continuation: bool = False) -> float:
        if self.look.layout == "mainframe":
            return record_layouts.mono_size(self) * 1.15 * 4
        if self.look.layout != "grid":
            return 0.0
        heads = self._header_lines(continuation)
        group_height = self.header_size * HEADER_LINE + 4
        return self._header_height(heads) + group_height * len(self._group_rows())

    def start_height(self) -> float:
        """Room a section needs on its first page: header, one row and a totals row."""
        return self.header_height() + 2 * (self.leading + CELL_PAD) + 2

    # --- sections ---------------------------------------------------------------------------

    def start(self, section: str | None = None, *, keep: bool = False) -> None:
        """Begin a section: its look, the preamble (first section only) and the header.

        `keep` first moves to a new page unless the header and two rows fit.
        """
        self.section = section
        self._configure(section)
        self.row_count = 0
        done = self.pdf.look.done
        if self.first_header and self.look.preamble and "preamble" not in done:
            done.add("preamble")  # a report's metadata block heads its first table only
            self._event("preamble")
            self._preamble()
        if self.first_header and self.look.caption and "caption" not in done:
            done.add("caption")  # the unit is stated once
            self.flow.need(12 + self.header_height() + 2 * self.leading)
            self.pdf.text(
                self.flow.page,
                self.cols[0].left + PAD,
                self.flow.y - 8,
                self.look.caption,
                BOLD,
                7.0,
            )
            self.flow.y -= 12
        if keep:
            self.flow.need(self.header_height() + 2 * self.leading + 4)
        self.draw_header(continuation=False)
        self.first_header = False

    def _preamble(self) -> None:
        flow, pdf = self.flow, self.pdf
        size = 7.0
        leading = size * 1.45
        flow.need(leading * len(self.look.preamble) + 40)
        baseline = flow.y - size - 2
        for line in self.look.preamble:
            label, sep, rest = line.partition(":")
            if sep:
                width = pdf.text(flow.page, MARGIN + PAD, baseline, f"{label}:", BOLD, size)
                pdf.text(
                    flow.page,
                    MARGIN + PAD + max(width + 4, 110),
                    baseline,
                    rest.strip(),
                    REGULAR,
                    size,
                )
            else:
                pdf.text(flow.page, MARGIN + PAD, baseline, line, REGULAR, size)
            baseline -= leading
        flow.y -= leading * len(self.look.preamble) + 10

    def draw_header(self, continuation: bool) -> None:
        if self.look.layout == "mainframe":
            record_layouts.mainframe_header(self)
            return
        if self.look.layout != "grid":
            self.segment_top = self.flow.y
            return
        flow, pdf = self.flow, self.pdf
        page = flow.page
        heads = self._header_lines(continuation)
        group_rows = self._group_rows()
        group_height = self.header_size * HEADER_LINE + 4
        own_height = self._header_height(heads)
        height = own_height + group_height * len(group_rows)
        top = flow.y
        self.segment_top = top
        if self.split_after is not None:
            self._event("dual")
        if self.look.header_fill is not None and self._ruled():
            for block in self._groups_of_columns():
                pdf.rect(
                    page,
                    block[0].left,
                    top - height,
                    block[-1].left + block[-1].width - block[0].left,
                    height,
                    fill=self.look.header_fill,
                )
        y = top
        for row in group_rows:
            self._group_row(row, y, group_height)
            y -= group_height
        for (hsize, lines), col in zip(heads, self.cols, strict=True):
            self._header_cell(col, hsize, lines, y, own_height)
        flow.y = top - height
        if self._ruled():
            self._hline(flow.y, 0.5)
            if group_rows or self.look.shift:
                # The header has its own vertical rules; the data rules start below it.
                self._header_rules(top, y, group_rows, group_height)
                self.segment_top = flow.y
        elif self.look.rules == "none":
            self.segment_top = flow.y

    def _header_cell(
        self, col: Col, hsize: float, lines: list[str], top: float, height: float
    ) -> None:
        pdf, page = self.pdf, self.flow.page
        align = col.column.align
        if self.look.rotated:
            size = _rotated_size(lines[0], hsize)
            x = col.head_left + col.head_width / 2 + size * 0.35
            pdf.text(page, x, top - height + 4, lines[0], BOLD, size, angle=90.0)
            return
        if self.look.stacked:
            # Bottom-aligned: a shallow header sits on the rule, a deep one reaches the top.
            baseline = top - height + 3.5 + (len(lines) - 1) * hsize * HEADER_LINE
        else:
            baseline = top - hsize - 1.5
        x = anchor(col.head_left, col.head_width, align)
        for line in lines:
            pdf.text(page, x, baseline, line, BOLD, hsize, align=align)
            baseline -= hsize * HEADER_LINE

    def _group_row(self, row: tuple[tuple[str, int, int], ...], top: float, height: float) -> None:
        pdf, page = self.pdf, self.flow.page
        for label, first, last in row:
            left = self.cols[first].head_left
            right = self.cols[last].head_left + self.cols[last].head_width
            pdf.text(
                page,
                (left + right) / 2,
                top - self.header_size - 1.5,
                label.upper(),
                BOLD,
                self.header_size,
                align="center",
            )
            if self._ruled():
                pdf.line(page, left + 2, top - height, right - 2, top - height, 0.4)

    def _header_rules(
        self,
        top: float,
        own_top: float,
        group_rows: list[tuple[tuple[str, int, int], ...]],
        group_height: float,
    ) -> None:
        pdf, page, bottom = self.pdf, self.flow.page, self.flow.y
        heads = [c.head_left for c in self.cols] + [
            self.cols[-1].head_left + self.cols[-1].head_width
        ]
        outer = {heads[0], heads[-1]}
        y = top
        for row in group_rows:
            for label, first, last in row:
                del label
                for x in (
                    self.cols[first].head_left,
                    self.cols[last].head_left + self.cols[last].head_width,
                ):
                    pdf.line(page, x, y, x, y - group_height, 0.3)
            y -= group_height
        for x in heads:
            pdf.line(page, x, own_top if x not in outer else top, x, bottom, 0.3)

    def close(self) -> None:
        """Draw the column rules of the rows drawn since the last header or totals row."""
        flow = self.flow
        if self.segment_top > flow.y and self._ruled():
            for x in self._edges():
                self.pdf.line(flow.page, x, self.segment_top, x, flow.y, 0.3)
        self.segment_top = flow.y

    def room(self, height: float) -> None:
        """Continue on a new page (caption, header again) unless `height` fits."""
        flow = self.flow
        if flow.y - height >= BOTTOM:
            return
        self.close()
        flow.new_page()
        self._event("continued")
        if self.continued is not None:
            self.continued(self, self.section)
        self.draw_header(continuation=True)

    # --- rows -------------------------------------------------------------------------------

    def _cells(
        self,
        paths: Sequence[str | None],
        font: str,
        styles: Sequence[fmt.Style | None],
        allow_wrap: bool = True,
    ) -> list[tuple[str | None, str, float, list[str]]]:
        out: list[tuple[str | None, str, float, list[str]]] = []
        for path, style, col in zip(paths, styles, self.cols, strict=True):
            text = self.pdf.recorder.text_of(path, style) if path else None
            if text is None:
                out.append((None, "", self.size, []))
                continue
            cell_font = self.pdf.recorder.font_for(path or "", font)
            fsize, lines = fit(text, cell_font, self.size, col.width - 2 * PAD, allow_wrap)
            out.append((path, text, fsize, lines))
        return out

    def _event(self, kind: str) -> None:
        self.pdf.look.events.append((kind, self.name, self.flow.page + 1))

    def _drawn(self) -> None:
        """Report once per page that this table drew a record there."""
        page = self.flow.page + 1
        if page not in self.drawn_pages:
            self.drawn_pages.add(page)
            self._event("drawn")

    def rows(self, items: str, count: int) -> None:
        """Rows ``items[0..count)``, each cell the leaf ``items[i].<column key>``."""
        look = self.look
        group_key: Any = None
        group_start = 0
        for index in range(count):
            record = f"{items}[{index}]"
            if look.subtotal_by is not None and look.layout == "grid":
                key = self.pdf.recorder.leaf(f"{record}.{look.subtotal_by}")[0]
                if index and key != group_key:
                    table_totals.subtotal(self, items, group_start, index, group_key)
                    group_start = index
                group_key = key
            self.row(record)
            every = look.interrupt_every
            if every and look.notices and (index + 1) % every == 0 and index < count - 1:
                self._interruption(look.notices[(index + 1) // every % len(look.notices)])
        if look.subtotal_by is not None and look.layout == "grid" and count and group_start > 0:
            table_totals.subtotal(self, items, group_start, count, group_key)

    def row(self, record: str) -> None:
        """One data row: the cells of `record` (a path such as ``buildings[3]``)."""
        if self.look.layout != "grid":
            self._record(record)
            return
        paths = [f"{record}.{c.key}" for c in self.cols]
        cells = self._cells(paths, REGULAR, [c.column.style for c in self.cols])
        detail = self.look.details.get(record)
        extra = self._detail_height(detail) if detail is not None else 0.0
        lines_needed = max((len(lines) for _, _, _, lines in cells), default=1) or 1
        height = lines_needed * self.leading + CELL_PAD + extra
        if (
            self.look.split_rows
            and detail is None
            and lines_needed > 1
            and self.flow.y - height < BOTTOM
            and self.flow.y - self.leading - CELL_PAD >= BOTTOM
        ):
            self._split_row(cells)
            return
        self.room(height)
        top = self.flow.y
        if self.look.shading is not None and self.row_count % 2 == 1:
            for block in self._groups_of_columns():
                self.pdf.rect(
                    self.flow.page,
                    block[0].left,
                    top - height,
                    block[-1].left + block[-1].width - block[0].left,
                    height,
                    fill=self.look.shading,
                )
        self._draw_cells(cells, top - self.size - 1.2, REGULAR)
        self._drawn()
        if lines_needed >= 3:
            self._event("wrapped")
        if detail is not None:
            self._detail(detail, top - lines_needed * self.leading - 2)
            self._event("detail")
        self.row_count += 1
        self._rule(height)

    def _record(self, record: str) -> None:
        self._event(self.look.layout)
        self._drawn()
        if self.look.layout == "records":
            record_layouts.record_block(self, record)
        elif self.look.layout == "blocks":
            record_layouts.claim_block(self, record)
        else:
            record_layouts.mainframe_row(
                self, record, {c.key: f"{record}.{c.key}" for c in self.cols}
            )

    def _draw_cells(
        self, cells: list[tuple[str | None, str, float, list[str]]], baseline: float, font: str
    ) -> None:
        for (path, text, fsize, lines), col in zip(cells, self.cols, strict=True):
            if path is None:
                continue
            self.pdf.lines(
                self.flow.page,
                anchor(col.left, col.width, col.column.align),
                baseline,
                path,
                text,
                lines,
                font=self.pdf.recorder.font_for(path, font),
                size=fsize,
                align=col.column.align,
            )

    def _split_row(self, cells: list[tuple[str | None, str, float, list[str]]]) -> None:
        """A tall row split at the page break: its first lines here, the rest overleaf."""
        flow = self.flow
        fitting = max(1, int((flow.y - BOTTOM - CELL_PAD) // self.leading))
        baseline = flow.y - self.size - 1.2
        rest: list[tuple[Col, str, str, float, list[str]]] = []
        for (path, text, fsize, lines), col in zip(cells, self.cols, strict=True):
            if path is None:
                continue
            x = anchor(col.left, col.width, col.column.align)
            font = self.pdf.recorder.font_for(path, REGULAR)
            if len(lines) <= fitting:
                self.pdf.lines(
                    flow.page,
                    x,
                    baseline,
                    path,
                    text,
                    lines,
                    font=font,
                    size=fsize,
                    align=col.column.align,
                )
                continue
            self.pdf.lines(
                flow.page,
                x,
                baseline,
                path,
                text,
                lines[:fitting],
                font=font,
                size=fsize,
                align=col.column.align,
                fragment=(1, 2),
            )
            rest.append((col, path, text, fsize, lines[fitting:]))
        self._event("split")
        self._drawn()
        flow.y = BOTTOM
        self.close()
        flow.new_page()
        self._event("continued")
        if self.continued is not None:
            self.continued(self, self.section)
        self.draw_header(continuation=True)
        needed = max(len(lines) for *_, lines in rest)
        baseline = flow.y - self.size - 1.2
        for col, path, text, fsize, lines in rest:
            self.pdf.lines(
                flow.page,
                anchor(col.left, col.width, col.column.align),
                baseline,
                path,
                text,
                lines,
                font=self.pdf.recorder.font_for(path, REGULAR),
                size=fsize,
                align=col.column.align,
                fragment=(2, 2),
            )
        self.row_count += 1
        self._rule(needed * self.leading + CELL_PAD)

    def _rule(self, height: float) -> None:
        self.flow.y -= height
        if self._ruled() and self.look.row_rules:
            self._hline(self.flow.y, 0.2)

    def _detail_height(self, detail: Detail) -> float:
        return (len(detail.rows) + 1) * DETAIL_SIZE * 1.3 + 4

    def _detail(self, detail: Detail, top: float) -> None:
        """A nested table in the detail column, under the row's own value."""
        col = next((c for c in self.cols if c.key == self.look.detail_column), self.cols[0])
        pdf, page = self.pdf, self.flow.page
        left, width = col.left + PAD + 4, col.width - 2 * PAD - 4
        # Each column as wide as its widest text; the room left over is shared out.
        widths = detail.widths
        spare = max(0.0, width - detail.room) / len(widths)
        edges, x = [], left + DETAIL_GAP
        for natural in widths:
            edges.append((x, x + natural + spare))  # text from x, right-aligned at the end
            x += natural + spare + DETAIL_GAP
        line = DETAIL_SIZE * 1.3
        height = (len(detail.rows) + 1) * line + 1
        pdf.rect(page, left, top - height, width, height, width=0.3)
        pdf.line(page, left, top - line, left + width, top - line, 0.3)
        baseline = top - DETAIL_SIZE
        for i, head in enumerate(detail.headers):
            pdf.text(
                page,
                edges[i][1] if i else edges[i][0],
                baseline,
                head,
                BOLD,
                DETAIL_SIZE - 0.4,
                align="right" if i else "left",
            )
        for row in detail.rows:
            baseline -= line
            for i, cell in enumerate(row):
                pdf.text(
                    page,
                    edges[i][1] if i else edges[i][0],
                    baseline,
                    cell,
                    REGULAR,
                    DETAIL_SIZE,
                    align="right" if i else "left",
                )

    # --- interjections ----------------------------------------------------------------------

    def _interruption(self, text: str) -> None:
        """A notice block breaking the table; the header is drawn again below it."""
        flow, pdf = self.flow, self.pdf
        self.close()
        self._event("interrupted")
        size = 6.4
        _, lines = fit(text, REGULAR, size, flow.cw - 4 * PAD, allow_wrap=True)
        height = len(lines) * size * 1.25 + 8
        flow.gap(4)
        flow.need(height + self.header_height(True) + 2 * self.leading)
        pdf.rect(flow.page, MARGIN, flow.y - height, flow.cw, height, fill=0.97)
        pdf.rect(flow.page, MARGIN, flow.y - height, flow.cw, height, width=0.6)
        baseline = flow.y - size - 3
        for line in lines:
            pdf.text(flow.page, MARGIN + 2 * PAD, baseline, line, REGULAR, size)
            baseline -= size * 1.25
        flow.y -= height + 4
        self.draw_header(continuation=True)

    def banner(self, text: str) -> None:
        """A full-width row holding one message (e.g. NO LOSSES REPORTED)."""
        if self.look.layout == "mainframe":
            record_layouts.mainframe_banner(self, text)
            return
        height = self.leading + CELL_PAD
        self.room(height)
        self.close()
        self.pdf.text(
            self.flow.page,
            (self.cols[0].left + self.right) / 2,
            self.flow.y - self.size - 1.2,
            text,
            BOLD,
            self.size,
            align="center",
        )
        self._rule(height)
        if self._ruled():
            for x in (self.cols[0].left, self.right):
                self.pdf.line(self.flow.page, x, self.segment_top, x, self.flow.y, 0.3)
        self.segment_top = self.flow.y

    def totals(self, totals: Totals) -> None:
        """The closing row (`render.table_totals`)."""
        table_totals.totals(self, totals)

    def finish(self, gap: float = 6.0) -> None:
        self.close()
        self.flow.gap(gap)


ROTATED_LENGTH = 90.0  # points a rotated header may rise before its lettering shrinks
ROTATED_MIN_SIZE = 5.0  # ...down to this size; a longer header makes the header row taller


def _rotated_size(text: str, size: float) -> float:
    """The size a rotated header is drawn at: its own, shrunk to rise at most ROTATED_LENGTH
    (never below ROTATED_MIN_SIZE). The header row is as tall as the longest one, so no
    lettering rises out of it."""
    length = width_of(text, BOLD, size)
    if length <= ROTATED_LENGTH:
        return size
    return max(ROTATED_MIN_SIZE, round(size * ROTATED_LENGTH / length - 0.05, 1))


def _fits_words(text: str, width: float) -> bool:
    """Whether every word of `text` fits `width` at the smallest font size."""
    return all(width_of(word, BOLD, MIN_FONT) <= width for word in text.split())


def draw_table(
    flow: Flow,
    items: str,
    count: int,
    columns: Sequence[Column],
    *,
    size: float = 7.0,
    header_size: float = 6.0,
    totals: Sequence[tuple[str, str]] = (),
    totals_label: str = "TOTAL",
    totals_style: Style | None = None,
) -> None:
    """Rows `items[0..count)` on `flow`; the header repeats on every page the table reaches.

    `totals` maps column keys to the leaf paths drawn in a bold closing row. The table's
    look is whatever presentation patterns chose for it (`Presentation.table`).
    """
    table = Table(flow, table_name(items), columns, size=size, header_size=header_size)
    table.start(record_section(items), keep=True)
    table.rows(items, count)
    if totals:
        table.totals(Totals(totals_label, dict(totals), style=totals_style))
    table.finish(6)
