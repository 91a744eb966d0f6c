"""The rows a table draws beyond its data: subtotals over runs of equal values, the closing
totals row, and the totals as a table of their own (`TableLook.total_apart`). Functions of a
`render.table.Table`, kept apart from the engine that lays out the data rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from packetbench.generator.render import fmt, record_layouts
from packetbench.generator.render.layout import PAD, anchor
from packetbench.generator.render.metrics import BOLD, REGULAR, fit, width_of
from packetbench.generator.render.table_look import CELL_PAD, HEADER_LINE, Col, Totals

if TYPE_CHECKING:
    from packetbench.generator.render.table import Table


def subtotal(table: Table, items: str, start: int, stop: int, key: Any) -> None:
    """Sums of the money columns over rows start..stop, as a shaded row (not truth)."""
    pdf, flow = table.pdf, table.flow
    height = table.leading + CELL_PAD
    table.room(height)
    table.close()
    top = flow.y
    baseline = top - table.size - 1.2
    pdf.rect(
        flow.page,
        table.cols[0].left,
        top - height,
        table.right - table.cols[0].left,
        height,
        fill=0.95,
    )
    table._event("subtotal")
    label = f"{table.look.subtotal_label} {key}" if key is not None else table.look.subtotal_label
    first_money = next(
        (i for i, c in enumerate(table.cols) if is_money(table, items, c)), len(table.cols)
    )
    rows = stop - start
    pdf.text(
        flow.page,
        table.cols[0].left + PAD,
        baseline,
        f"{label} ({rows} {'row' if rows == 1 else 'rows'})",
        BOLD,
        table.size - 0.4,
    )
    for col in table.cols[first_money:]:
        if not is_money(table, items, col):
            continue
        cents = 0
        for index in range(start, stop):
            value = pdf.recorder.leaf(f"{items}[{index}].{col.key}")[0]
            cents += round((value or 0) * 100)
        text = fmt.money(cents / 100, col.column.style or pdf.recorder.style)
        pdf.text(
            flow.page,
            anchor(col.left, col.width, "right"),
            baseline,
            text,
            BOLD,
            table.size - 0.4,
            align="right",
        )
    table._rule(height)
    if table._ruled():
        inside = {c.left for c in table.cols[1:first_money]}
        for edge in table._edges():
            if edge not in inside:
                pdf.line(flow.page, edge, top, edge, flow.y, 0.3)
    table.segment_top = flow.y


def is_money(table: Table, items: str, col: Col) -> bool:
    return table.pdf.recorder.leaf(f"{items}[0].{col.key}")[1].kind == "money"


def totals(table: Table, totals: Totals) -> None:
    """The closing row; under `total_apart`, its own one-row table below this one."""
    if table.look.layout == "mainframe":
        record_layouts.mainframe_totals(table, totals)
        return
    if table.look.layout != "grid":
        record_layouts.block_totals(table, totals)
        return
    if table.look.total_apart:
        total_table(table, totals)
        return
    flow, pdf = table.flow, table.pdf
    paths = [totals.cells.get(c.key) for c in table.cols]
    cells = table._cells(
        paths, BOLD, [totals.style or c.column.style for c in table.cols], totals.allow_wrap
    )
    first = next(i for i, (p, *_) in enumerate(cells) if p is None)
    last = first
    while last + 1 < len(cells) and cells[last + 1][0] is None:
        last += 1
    lines_needed = max((len(lines) for _, _, _, lines in cells), default=1) or 1
    # The label and counts run over the empty cells before the first total; when the
    # columns leave too little room there (another carrier's column order), they take a
    # line of their own above the totals.
    label_width = (
        width_of(totals.label, BOLD, table.size)
        + PAD
        + sum(
            14
            + width_of(caption, REGULAR, table.size)
            + 3
            + width_of(pdf.recorder.text_of(path) or "", BOLD, table.size)
            + 12
            for caption, path in totals.counts
        )
    )
    room = table.cols[last].left + table.cols[last].width - table.cols[first].left
    apart = label_width > room
    height = (lines_needed + apart) * table.leading + CELL_PAD
    table.room(height)
    table.close()
    page, top = flow.page, flow.y
    baseline = top - table.size - 1.2
    if totals.fill is not None:
        pdf.rect(
            page,
            table.cols[0].left,
            top - height,
            table.right - table.cols[0].left,
            height,
            fill=totals.fill,
        )
    x = table.cols[first].left + PAD
    x += pdf.text(page, x, baseline, totals.label, BOLD, table.size)
    if totals.counts:
        x += 14
        for caption, path in totals.counts:
            x += pdf.text(page, x, baseline, caption, REGULAR, table.size) + 3
            count = pdf.recorder.text_of(path) or ""
            pdf.field(page, x, baseline, path, width=60, font=BOLD, size=table.size)
            x += width_of(count, BOLD, table.size) + 12
    table._draw_cells(cells, baseline - apart * table.leading, BOLD)
    flow.y -= height
    if table._ruled():
        inside = {table.cols[i].left for i in range(first + 1, last + 1)}
        for edge in table._edges():
            if edge not in inside:
                pdf.line(page, edge, top, edge, flow.y, 0.3)
        table._hline(flow.y, totals.rule)
    table.segment_top = flow.y


def total_table(table: Table, totals: Totals) -> None:
    """The grand total as a separate table: its own header row and one row."""
    flow, pdf = table.flow, table.pdf
    table.close()
    flow.gap(10)
    table._event("total_apart")
    keyed = [c for c in table.cols if c.key in totals.cells]
    # Each header fits its column: shrunk, then wrapped (the row grows to the deepest).
    heads = [
        fit(table.header_text(c, False).upper(), BOLD, table.header_size, c.width - 2 * PAD, True)
        for c in keyed
    ]
    depth = max((len(lines) for _, lines in heads), default=1)
    head = table.header_size * HEADER_LINE * depth + 4
    paths = [totals.cells.get(c.key) for c in table.cols]
    cells = table._cells(
        paths, BOLD, [totals.style or c.column.style for c in table.cols], totals.allow_wrap
    )
    # The row grows to its deepest cell (a long total wraps in a narrow column).
    row = (
        max([len(lines) for path, _, _, lines in cells if path is not None], default=1)
        * table.leading
        + CELL_PAD
    )
    flow.need(head + row + 4)
    page, top = flow.page, flow.y
    left = keyed[0].left if keyed else table.cols[0].left
    label_left = max(table.cols[0].left, left - 140)
    pdf.rect(page, label_left, top - head, table.right - label_left, head, fill=0.9)
    pdf.text(
        page, label_left + PAD, top - table.header_size - 1.5, "SUMMARY", BOLD, table.header_size
    )
    for col, (size, lines) in zip(keyed, heads, strict=True):
        baseline = top - table.header_size - 1.5
        for line in lines:
            pdf.text(
                page,
                anchor(col.left, col.width, "right"),
                baseline,
                line,
                BOLD,
                size,
                align="right",
            )
            baseline -= table.header_size * HEADER_LINE
    baseline = top - head - table.size - 1.2
    pdf.text(page, label_left + PAD, baseline, totals.label, BOLD, table.size)
    x = label_left + PAD + width_of(totals.label, BOLD, table.size) + 10
    for caption, path in totals.counts:
        x += pdf.text(page, x, baseline, caption, REGULAR, table.size) + 3
        pdf.field(page, x, baseline, path, width=40, font=BOLD, size=table.size)
        x += width_of(pdf.recorder.text_of(path) or "", BOLD, table.size) + 8
    table._draw_cells(cells, baseline, BOLD)
    bottom = top - head - row
    pdf.rect(page, label_left, bottom, table.right - label_left, head + row, width=0.6)
    pdf.line(page, label_left, top - head, table.right, top - head, 0.4)
    for col in keyed:
        pdf.line(page, col.left, top, col.left, bottom, 0.3)
    flow.y = bottom
    table.segment_top = flow.y
