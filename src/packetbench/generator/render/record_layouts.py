"""Table rows drawn without a grid: label/value records, claim blocks, a mainframe listing.

These are the layouts a `TableLook.layout` other than "grid" selects. They draw the same rows,
banners and totals rows as the grid, through the same `PdfDocument.lines`, so every value is
located wherever it lands.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from packetbench.generator.render.layout import BOTTOM, PAD
from packetbench.generator.render.metrics import (
    BOLD,
    MARGIN,
    MONO,
    MONO_BOLD,
    REGULAR,
    fit,
    width_of,
    wrap,
)

if TYPE_CHECKING:
    from packetbench.generator.render.table import Table
    from packetbench.generator.render.table_look import Col, Totals

LABEL_SIZE = 5.8
MAINFRAME_COLUMNS = 132
MONO_ADVANCE = 0.6  # Courier's advance width, in font sizes


# --- label/value records ------------------------------------------------------------------------


def _pairs_per_line(table: Table) -> int:
    return 4 if table.flow.cw > 600 else 3


def _pair_grid(table: Table, record: str, cols: list[Col], top: float, dry: bool = False) -> float:
    """Label/value pairs of `cols` in a grid from `top`; returns the height used."""
    pdf, page = table.pdf, table.flow.page
    per_line = _pairs_per_line(table)
    cell = (table.flow.cw - 2 * PAD) / per_line
    leading = table.leading
    y = top
    for start in range(0, len(cols), per_line):
        height = 1
        for offset, col in enumerate(cols[start : start + per_line]):
            path = f"{record}.{col.key}"
            text = pdf.recorder.text_of(path, col.column.style)
            label = table.header_text(col, False)
            label_width = width_of(f"{label}:", BOLD, LABEL_SIZE) + 3
            x = MARGIN + 2 * PAD + offset * cell
            value_width = max(cell - label_width - 2 * PAD, 24.0)
            lines = (
                fit(text, pdf.recorder.font_for(path, REGULAR), table.size, value_width, True)[1]
                if text
                else []
            )
            height = max(height, len(lines))
            if dry:
                continue
            pdf.text(page, x, y - table.size - 1, f"{label}:", BOLD, LABEL_SIZE)
            if text:
                font = pdf.recorder.font_for(path, REGULAR)
                size, lines = fit(text, font, table.size, value_width, True)
                pdf.lines(
                    page,
                    x + label_width,
                    y - table.size - 1,
                    path,
                    text,
                    lines,
                    font=font,
                    size=size,
                )
        y -= height * leading + 2
    return top - y


def record_block(table: Table, record: str) -> None:
    """One record as a boxed block of label/value pairs (table.vertical_records)."""
    cols = table.cols
    height = _pair_grid(table, record, cols, table.flow.y - 3, dry=True) + 6
    _room(table, height)
    flow, pdf = table.flow, table.pdf
    top = flow.y
    _pair_grid(table, record, cols, top - 3)
    pdf.rect(flow.page, MARGIN, top - height, flow.cw, height, width=0.5)
    flow.y = top - height - 4
    table.row_count += 1


def claim_block(table: Table, record: str) -> None:
    """A key/value block with the money columns as a one-row sub-table (table.claim_blocks)."""
    money = [c for c in table.cols if _money(table, record, c)]
    first, others = table.cols[0], [c for c in table.cols[1:] if c not in money]
    strip = table.size + 6
    sub = (table.header_size + 5) + (table.leading + 4) if money else 0.0
    pairs = _pair_grid(table, record, others, 0, dry=True)
    height = strip + pairs + sub + 8
    _room(table, height)
    flow, pdf = table.flow, table.pdf
    page, top = flow.page, flow.y
    pdf.rect(page, MARGIN, top - strip, flow.cw, strip, fill=0.88)
    label = table.header_text(first, False).upper()
    x = (
        MARGIN
        + PAD
        + pdf.text(page, MARGIN + PAD, top - strip + 3, f"{label}:", BOLD, table.size)
        + 4
    )
    path = f"{record}.{first.key}"
    if pdf.recorder.text_of(path) is not None:
        pdf.field(page, x, top - strip + 3, path, width=flow.cw / 2, font=BOLD, size=table.size)
    y = top - strip - 2
    y -= _pair_grid(table, record, others, y)
    if money:
        _money_table(table, record, money, y - 2)
    pdf.rect(page, MARGIN, top - height, flow.cw, height, width=0.6)
    flow.y = top - height - 5
    table.row_count += 1


def _money(table: Table, record: str, col: Col) -> bool:
    return table.pdf.recorder.leaf(f"{record}.{col.key}")[1].kind == "money"


def _money_table(table: Table, record: str, cols: list[Col], top: float) -> None:
    pdf, page = table.pdf, table.flow.page
    left = MARGIN + 2 * PAD
    width = min(table.flow.cw - 4 * PAD, 95.0 * len(cols))
    step = width / len(cols)
    head = table.header_size + 5
    row = table.leading + 4
    pdf.rect(page, left, top - head, width, head, fill=0.93)
    pdf.rect(page, left, top - head - row, width, head + row, width=0.4)
    for index, col in enumerate(cols):
        right = left + step * (index + 1) - PAD
        pdf.text(
            page,
            right,
            top - table.header_size - 1.5,
            table.header_text(col, False).upper(),
            BOLD,
            table.header_size,
            align="right",
        )
        path = f"{record}.{col.key}"
        text = pdf.recorder.text_of(path, col.column.style)
        if text is not None:
            pdf.field(
                page,
                right,
                top - head - table.size - 1.5,
                path,
                width=step - 2 * PAD,
                size=table.size,
                align="right",
                rendered=text,
            )
        if index:
            pdf.line(page, left + step * index, top, left + step * index, top - head - row, 0.3)


def block_totals(table: Table, totals: Totals) -> None:
    """A totals row as a shaded strip of label, counts and amounts (records and blocks)."""
    flow, pdf = table.flow, table.pdf
    height = table.leading + 8
    _room(table, height)
    page, top = flow.page, flow.y
    pdf.rect(page, MARGIN, top - height, flow.cw, height, fill=totals.fill or 0.92)
    baseline = top - height + 4
    x = MARGIN + PAD + pdf.text(page, MARGIN + PAD, baseline, totals.label, BOLD, table.size) + 12
    for caption, path in totals.counts:
        x += pdf.text(page, x, baseline, caption, REGULAR, table.size) + 3
        pdf.field(page, x, baseline, path, width=40, font=BOLD, size=table.size)
        x += width_of(pdf.recorder.text_of(path) or "", BOLD, table.size) + 10
    for col in table.cols:
        cell = totals.cells.get(col.key)
        if cell is None:
            continue
        text = pdf.recorder.text_of(cell, totals.style or col.column.style)
        if text is None:
            continue
        caption = f"{table.header_text(col, False)}:"
        x += pdf.text(page, x, baseline, caption, REGULAR, table.size) + 3
        pdf.field(page, x, baseline, cell, width=110, font=BOLD, size=table.size, rendered=text)
        x += width_of(text, BOLD, table.size) + 12
    flow.y = top - height - 4


def _room(table: Table, height: float) -> None:
    flow = table.flow
    if flow.y - height >= BOTTOM:
        return
    flow.new_page()
    if table.continued is not None:
        table.continued(table, table.section)
    table.draw_header(continuation=True)


# --- mainframe listing --------------------------------------------------------------------------


_TOTALLED = ("money", "number", "percent")  # kinds a totals row sums under a column


def _grid(table: Table) -> tuple[float, list[tuple[int, int]]]:
    """Courier size and (first character, width) of every column, from the table's content.

    A column is as wide as its longest value (text columns wrap beyond 30 characters) or the
    longest word of its header; the listing fills the content width at up to
    MAINFRAME_COLUMNS characters, in a smaller size when it needs more.
    """
    cached: tuple[list[str], tuple[float, list[tuple[int, int]]]] | None = getattr(
        table, "_mono_grid", None
    )
    if cached is not None and cached[0] == [c.key for c in table.cols]:
        return cached[1]
    rows = re.compile(re.escape(table.name).replace(r"\[\]", r"\[\d+\]") + r"\[\d+\]\.(.+)")
    longest: dict[str, int] = {}
    styles = {c.key: c.column.style for c in table.cols}
    recorder = table.pdf.recorder
    for path in recorder.paths():
        match = rows.match(path)
        key = match.group(1) if match else path.rsplit(".", 1)[-1]
        if key not in styles:
            continue
        if match is None and recorder.leaf(path)[1].kind not in _TOTALLED:
            continue
        # A row's value, or an amount of the same name outside the rows (the totals and
        # subtotal rows drawn under this column, in bold Courier of the same advance).
        text = recorder.text_of(path, styles[key]) or ""
        longest[key] = max(longest.get(key, 0), len(text))
    widths = []
    for col in table.cols:
        header = max((len(w) for w in _headers(table, col) for w in w.split()), default=1)
        value = longest.get(col.key, 1)
        if value > 30 and recorder.leaf(
            next(p for p in recorder.paths() if p.endswith(f".{col.key}"))
        )[1].kind in ("string", "text"):
            value = 30
        widths.append(max(header, value, 2))
    total = sum(widths) + len(widths) - 1
    size = round(table.flow.cw / (max(total, MAINFRAME_COLUMNS) * MONO_ADVANCE), 2)
    grid, start = [], 0
    for width in widths:
        grid.append((start, width))
        start += width + 1
    result = (size, grid)
    table._mono_grid = ([c.key for c in table.cols], result)  # type: ignore[attr-defined]
    return result


def _headers(table: Table, col: Col) -> set[str]:
    """Every header the listing may draw over `col`: its own, and each label a section of the
    table gives it (terminology varies by section, and the grid is set once for them all)."""
    own = table.look.headers.get(col.key, col.column.header)
    return {own} | {drawn for (text, _), drawn in table.pdf.look.labels.items() if text == own}


def mono_size(table: Table) -> float:
    """The Courier size of the listing (MAINFRAME_COLUMNS characters fill the width)."""
    return _grid(table)[0]


def char_columns(table: Table) -> list[tuple[int, int]]:
    """(first character, width in characters) of every column on the character grid."""
    return _grid(table)[1]


def mainframe_header(table: Table) -> None:
    flow, pdf = table.flow, table.pdf
    size = mono_size(table)
    advance = size * MONO_ADVANCE
    grid = char_columns(table)
    heads = [
        wrap(table.header_text(c, False).upper(), MONO, size, w * advance)
        for c, (_, w) in zip(table.cols, grid, strict=True)
    ]
    depth = max(len(h) for h in heads)
    leading = size * 1.15
    flow.need(leading * (depth + 3))
    baseline = flow.y - size
    for row in range(depth):
        for lines, (start, width), col in zip(heads, grid, table.cols, strict=True):
            offset = depth - len(lines)  # bottom-aligned, as a print spooler pads them
            if row < offset:
                continue
            x = MARGIN + start * advance
            text = lines[row - offset]
            if col.column.align == "right":
                x += (width - len(text)) * advance
            pdf.text(flow.page, x, baseline, text, MONO_BOLD, size)
        baseline -= leading
    pdf.text(flow.page, MARGIN, baseline, "-" * MAINFRAME_COLUMNS, MONO, size)
    flow.y = baseline - leading * 0.6
    table.segment_top = flow.y


def mainframe_row(
    table: Table, record: str | None, cells: dict[str, str], font: str = MONO, prefix: str = ""
) -> None:
    """One listing line (or several when a value wraps) on the character grid.

    `cells` maps column keys to leaf paths; `prefix` is literal text at column 0.
    """
    flow, pdf = table.flow, table.pdf
    size = mono_size(table)
    advance = size * MONO_ADVANCE
    leading = size * 1.15
    placed: list[tuple[Col, int, int, str, str, list[str]]] = []
    for col, (start, width) in zip(table.cols, char_columns(table), strict=True):
        path = cells.get(col.key)
        if path is None:
            continue
        text = pdf.recorder.text_of(path, col.column.style)
        if text is None:
            continue
        lines = [text] if len(text) <= width else wrap(text, MONO, size, width * advance)
        placed.append((col, start, width, path, text, lines))
    depth = max((len(p[5]) for p in placed), default=1)
    if flow.y - depth * leading < BOTTOM:
        flow.new_page()
        if table.continued is not None:
            table.continued(table, table.section)
        table.draw_header(continuation=True)
    baseline = flow.y - size
    if prefix:
        pdf.text(flow.page, MARGIN, baseline, prefix, font, size)
    for col, start, width, path, text, lines in placed:
        right = col.column.align == "right"
        x = MARGIN + (start + width) * advance if right else MARGIN + start * advance
        pdf.lines(
            flow.page,
            x,
            baseline,
            path,
            text,
            lines,
            font=pdf.recorder.font_for(path, font) if font == MONO else font,
            size=size,
            align="right" if right else "left",
            leading=1.15,
        )
    flow.y -= depth * leading + size * 0.25
    if record is not None:
        table.row_count += 1


def mainframe_totals(table: Table, totals: Totals) -> None:
    flow, pdf = table.flow, table.pdf
    size = mono_size(table)
    pdf.text(flow.page, MARGIN, flow.y - size, "=" * MAINFRAME_COLUMNS, MONO, size)
    flow.y -= size * 1.2
    baseline = flow.y - size
    x = MARGIN + pdf.text(flow.page, MARGIN, baseline, f"** {totals.label} **", MONO_BOLD, size)
    for caption, path in totals.counts:
        x += size * MONO_ADVANCE
        x += pdf.text(flow.page, x, baseline, caption.upper(), MONO, size) + size * MONO_ADVANCE
        pdf.field(flow.page, x, baseline, path, width=60, font=MONO_BOLD, size=size)
        x += width_of(pdf.recorder.text_of(path) or "", MONO_BOLD, size)
    if x + size * MONO_ADVANCE > _leftmost(table, dict(totals.cells)):
        flow.y -= size * 1.15  # the amounts would run into the label: a line of their own
    mainframe_row(table, None, dict(totals.cells), MONO_BOLD)


def _leftmost(table: Table, cells: dict[str, str]) -> float:
    """The left edge of the leftmost value a listing row of `cells` draws."""
    advance = mono_size(table) * MONO_ADVANCE
    edges = [float("inf")]
    for col, (start, width) in zip(table.cols, char_columns(table), strict=True):
        path = cells.get(col.key)
        text = None if path is None else table.pdf.recorder.text_of(path, col.column.style)
        if text is None:
            continue
        shown = min(len(text), width)  # a longer value wraps within its column
        offset = width - shown if col.column.align == "right" else 0
        edges.append(MARGIN + (start + offset) * advance)
    return min(edges)


def mainframe_banner(table: Table, text: str) -> None:
    size = mono_size(table)
    table.pdf.text(
        table.flow.page,
        MARGIN + 20 * size * MONO_ADVANCE,
        table.flow.y - size,
        f"*** {text} ***",
        MONO,
        size,
    )
    table.flow.y -= size * 1.4
