"""Form widgets the shared `Flow` lacks: line-of-business boxes, and a grouped grid.

Each draws through `PdfDocument.field` / `checkbox`, so values are located as they are drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from packetbench.generator.render.layout import BOTTOM, PAD, Flow, anchor
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR

LABEL_SIZE = 5.5
VALUE_SIZE = 8.0
BOX_SIDE = 7.0


@dataclass(frozen=True)
class LineCell:
    """A box for one line of business: a checkbox with the line's name, and its premium."""

    label: str
    check: str
    value: str
    value_label: str = "Premium"
    weight: float = 1.0


def line_row(flow: Flow, cells: Sequence[LineCell], height: float = 24.0) -> None:
    """A row of line-of-business boxes across the content width, widths by weight."""
    pdf = flow.pdf
    flow.need(height)
    total = sum(c.weight for c in cells)
    x = MARGIN
    top = flow.y
    for cell in cells:
        w = flow.cw * cell.weight / total
        pdf.rect(flow.page, x, top - height, w, height)
        baseline = top - height + 4.6
        pdf.checkbox(flow.page, x + PAD, top - BOX_SIDE - 2.5, cell.check)
        pdf.text(flow.page, x + PAD + BOX_SIDE + 3, top - BOX_SIDE - 1.2, cell.label, BOLD, 6.5)
        pdf.text(flow.page, x + PAD, baseline, cell.value_label.upper(), REGULAR, LABEL_SIZE)
        pdf.field(
            flow.page,
            x + w - PAD,
            baseline,
            cell.value,
            width=w * 0.6,
            size=VALUE_SIZE,
            align="right",
        )
        x += w
    flow.y -= height


@dataclass(frozen=True)
class GridColumn:
    """A grid column: header, relative width, alignment."""

    header: str
    width: float
    align: str = "left"


GridCell = str | None  # a leaf path, or None for an empty cell
Group = tuple[str | None, list[tuple[str, list[GridCell]]]]  # (group path, [(row label, cells)])


def grouped_grid(
    flow: Flow, columns: Sequence[GridColumn], groups: Sequence[Group], size: float = 6.8
) -> None:
    """A table whose rows come in groups: the first column holds the group's value once, the
    second a printed row label, the rest one value per cell; groups never split across pages.
    """
    pdf = flow.pdf
    scale = flow.cw / sum(c.width for c in columns)
    widths = [c.width * scale for c in columns]
    lefts = [MARGIN + sum(widths[:i]) for i in range(len(columns))]
    row_height = size * 1.18 + 3.5
    head_height = size + 6

    def header() -> None:
        pdf.rect(flow.page, MARGIN, flow.y - head_height, flow.cw, head_height, fill=0.9)
        for col, left, w in zip(columns, lefts, widths, strict=True):
            pdf.text(
                flow.page,
                anchor(left, w, col.align),
                flow.y - size - 1.5,
                col.header.upper(),
                BOLD,
                6.0,
                align=col.align,
            )
        flow.y -= head_height

    def rules(top: float) -> None:
        for x in [*lefts, MARGIN + flow.cw]:
            pdf.line(flow.page, x, top, x, flow.y, 0.3)

    flow.need(head_height + row_height * max((len(rows) for _, rows in groups), default=0))
    segment_top = flow.y
    header()
    for group_path, rows in groups:
        if flow.y - row_height * len(rows) < BOTTOM:
            rules(segment_top)
            flow.new_page()
            segment_top = flow.y
            header()
        if group_path is not None:
            pdf.field(
                flow.page,
                lefts[0] + PAD,
                flow.y - size - 1.2,
                group_path,
                width=widths[0] - 2 * PAD,
                size=size,
                font=BOLD,
            )
        for label, cells in rows:
            baseline = flow.y - size - 1.2
            pdf.text(flow.page, lefts[1] + PAD, baseline, label, REGULAR, size)
            for path, col, left, w in zip(cells, columns[2:], lefts[2:], widths[2:], strict=True):
                if path is None:
                    continue
                pdf.field(
                    flow.page,
                    anchor(left, w, col.align),
                    baseline,
                    path,
                    width=w - 2 * PAD,
                    size=size,
                    align=col.align,
                )
            flow.y -= row_height
            pdf.line(flow.page, lefts[1], flow.y, MARGIN + flow.cw, flow.y, 0.2)
        pdf.line(flow.page, MARGIN, flow.y, MARGIN + flow.cw, flow.y, 0.5)
    rules(segment_top)
    flow.gap(6)
