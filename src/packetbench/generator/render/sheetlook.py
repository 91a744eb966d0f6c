"""What workbook patterns (sheet.*) ask of the workbook writer.

A `SheetLook` lives in a document's `Presentation`; `generator.render.xlsx` consults it while
a renderer writes cells by path, so no document renderer knows about any pattern. Columns are
named by the path pattern of the values in them (``buildings[].tiv``); records by their path
(``buildings[3]``).

What a person sees in a spreadsheet program is the truth (docs/patterns.md rules 1 and 3):
- hidden rows, columns and sheets hold working figures beside the table, which nobody opening
  the workbook sees: a hidden row an older copy of the record above it (its amounts as they
  stood before), a hidden column last year's amounts or internal references, a hidden sheet
  last year's numbers. They are in no truth; their text is in ``rendered_universe.hidden``
  only, and every visible record stays in the truth as shown;
- a number stored as text, a date stored as a bare serial and an amount in a "$000s" column
  keep their canonical value; `rendered_as` is the cell's stored content as text (cells.py)
  and the delta's ``reading`` says how it is read ("as_text", "serial", "thousands").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from packetbench.core.leaves import Leaf, path_pattern

EXCEL_EPOCH = dt.date(1899, 12, 30)  # serial 1 = 1900-01-01 in Excel's 1900 date system
THOUSANDS_SUFFIX = " ($000s)"


def serial(iso: str) -> int:
    """The Excel serial number of an ISO date."""
    return (dt.date.fromisoformat(iso) - EXCEL_EPOCH).days


def text_number(value: float) -> str:
    """A number as an export writes it into a text cell: thousands separators, cents only
    when there are any."""
    return f"{value:,.2f}" if not float(value).is_integer() else f"{int(value):,}"


def thousands(value: float) -> float | int:
    """An amount in thousands, exact (1,234,567 -> 1234.567)."""
    scaled = round(float(value) / 1000, 3)
    return int(scaled) if scaled.is_integer() else scaled


@dataclass(frozen=True)
class Converted:
    """How one value is stored instead of its typed cell."""

    stored: Any
    number_format: str
    reading: str


@dataclass
class SheetLook:
    # Records followed by a hidden row holding an older copy of them, its amounts times the
    # factor (sheet.hidden_rows).
    hidden_after: dict[str, float] = field(default_factory=dict)
    # An extra hidden column beside a table: (header, list pattern, record path -> text).
    hidden_column: tuple[str, str, dict[str, str]] | None = None
    # An extra hidden sheet: (title, rows of cell values).
    hidden_sheet: tuple[str, list[list[Any]]] | None = None
    # Column patterns stored as text / as date serials / in thousands.
    as_text: set[str] = field(default_factory=set)
    serials: set[str] = field(default_factory=set)
    thousands: set[str] = field(default_factory=set)
    # Total columns (by leaf key: "tiv", "paid") written as SUM formulas with cached values.
    formulas: set[str] = field(default_factory=set)
    # Report lines above everything on every visible sheet (sheet.header_offset).
    title_lines: list[str] = field(default_factory=list)
    merge_title_block: bool = False
    # One sheet per record of a list of blocks (sheet.split_sheets): record path -> sheet title.
    split: dict[str, str] = field(default_factory=dict)
    # Lists whose records are grouped with a subtotal row after each group: list -> the key
    # naming the group (``buildings[]`` -> ``location_number``).
    subtotals: dict[str, str] = field(default_factory=dict)
    # Notes beside a table's records: (header, list pattern, record path -> note).
    notes: tuple[str, str, dict[str, str]] | None = None
    # Status by fill colour: column pattern -> {value: (code, RGB fill)}.
    colors: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    # What the writer did, for the patterns to confirm: path -> reading of a converted value,
    # and the paths written as formulas.
    converted: dict[str, str] = field(default_factory=dict)
    formula_paths: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any(
            (
                self.hidden_after,
                self.hidden_column,
                self.hidden_sheet,
                self.as_text,
                self.serials,
                self.thousands,
                self.formulas,
                self.title_lines,
                self.merge_title_block,
                self.notes,
                self.colors,
                self.subtotals,
                self.split,
            )
        )

    def convert(self, path: str, value: Any, leaf: Leaf) -> Converted | None:
        """How the value at `path` is stored when a pattern changes it (None: typed as usual)."""
        column = path_pattern(path)
        if column in self.as_text and leaf.kind in ("money", "number"):
            return Converted(text_number(value), "@", "as_text")
        if column in self.serials and leaf.kind == "date":
            return Converted(serial(value), "0", "serial")
        if column in self.thousands and leaf.kind == "money":
            scaled = thousands(value)
            return Converted(
                scaled, "#,##0.0##" if isinstance(scaled, float) else "#,##0", "thousands"
            )
        colors = self.colors.get(column)
        if colors is not None and value in colors:
            return Converted(colors[value][0], "General", "legend")
        return None

    def header(self, title: str, column: str | None) -> str:
        """The header drawn for a column titled `title` holding `column`."""
        if column is not None and column in self.thousands:
            return f"{title}{THOUSANDS_SUFFIX}"
        return title
