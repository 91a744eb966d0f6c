"""What a table is and how it looks, apart from the engine that draws it (`render.table`):
the columns as placed (`Col`), a closing totals row, a nested detail table, the look that
presentation patterns set per table or per section, and the name a table's look is keyed by.
The record layouts (`render.record_layouts`) draw the same rows from these."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from packetbench.generator.render import fmt
from packetbench.generator.render.metrics import BOLD, REGULAR, width_of
from packetbench.generator.render.presentation import section_of

HEADER_LINE = 1.15  # header leading, in header font sizes
CELL_PAD = 3.5  # vertical padding of a row
DETAIL_SIZE = 5.4  # font size of a nested sub-table
DETAIL_GAP = 4.0  # points between its columns, and at its edges


@dataclass(frozen=True)
class Column:
    """A table column: header text, the item-relative leaf key, relative width, alignment."""

    header: str
    key: str
    width: float
    align: str = "left"
    style: fmt.Style | None = None


@dataclass(frozen=True)
class Totals:
    """A closing row: a label over the leading empty columns, values under their columns.

    `counts` are (caption, path) pairs drawn after the label ("Claims: 3"); `fill` shades the
    row; `rule` is the width of the line under it.
    """

    label: str
    cells: Mapping[str, str]  # column key -> leaf path
    counts: Sequence[tuple[str, str]] = ()
    fill: float | None = None
    rule: float = 0.2
    style: fmt.Style | None = None
    allow_wrap: bool = True


@dataclass(frozen=True)
class Detail:
    """A small table drawn inside one cell under its value (e.g. payments of a claim)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @cached_property
    def widths(self) -> tuple[float, ...]:
        """Each column's widest text (its header in bold), in points."""
        return tuple(
            max(
                [width_of(head, BOLD, DETAIL_SIZE - 0.4)]
                + [width_of(row[i], REGULAR, DETAIL_SIZE) for row in self.rows]
            )
            for i, head in enumerate(self.headers)
        )

    @property
    def room(self) -> float:
        """The width the sub-table needs: its columns with a gap between them."""
        return sum(self.widths) + DETAIL_GAP * (len(self.headers) + 1)


@dataclass
class TableLook:
    """How a table is drawn. The defaults are the plain ruled grid."""

    layout: str = "grid"  # grid | records | blocks | mainframe
    rules: str = "grid"  # grid | none
    header_fill: float | None = 0.9
    shading: float | None = None  # fill of every other row
    headers: dict[str, str] = field(default_factory=dict)  # column key -> header text
    continued: dict[str, str] | None = None  # header texts on continuation pages
    # Merged header: column key -> group label; adjacent columns of one label share a cell.
    group_of: dict[str, str] = field(default_factory=dict)
    top_group_of: dict[str, str] = field(default_factory=dict)  # a third row above
    stacked: bool = False  # one word per header line, uneven depths, bottom aligned
    rotated: bool = False  # headers drawn at 90 degrees
    shift: tuple[float, ...] = ()  # header edge offsets from the data columns, per edge
    fixed: dict[str, float] = field(default_factory=dict)  # column key -> width in points
    order: tuple[str, ...] = ()  # column keys in drawing order (others keep theirs)
    row_rules: bool = True
    split_rows: bool = False  # a tall row may continue on the next page
    subtotal_by: str | None = None  # column key whose runs of equal values get subtotals
    subtotal_label: str = "Subtotal"
    interrupt_every: int = 0  # a notice block breaks the table after every n rows
    notices: tuple[str, ...] = ()
    preamble: tuple[str, ...] = ()  # metadata lines that push the first header down
    caption: str | None = None  # one line above the first header (e.g. the amounts' unit)
    total_apart: bool = False  # the totals row as its own one-row table
    split_fraction: float | None = None  # two tables side by side: this share of columns left
    details: dict[str, Detail] = field(default_factory=dict)  # row path -> nested table
    detail_column: str | None = None

    def merged(self, overrides: Mapping[str, Any]) -> TableLook:
        return dataclasses.replace(self, **overrides)


PLAIN = TableLook()


@dataclass
class Col:
    column: Column
    left: float
    width: float
    head_left: float  # the header cell's own edges (they differ under `shift`)
    head_width: float

    @property
    def key(self) -> str:
        return self.column.key


def table_name(items: str) -> str:
    """The name a table's looks are keyed by: its item path with indices erased."""
    return re.sub(r"\[\d+\]", "[]", items)


def record_section(items: str) -> str | None:
    """The section a table drawn from `items` belongs to (the record holding it), if any."""
    section = section_of(items)
    return section if section != items else None
