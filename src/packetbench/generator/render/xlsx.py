"""Workbooks written with openpyxl, values placed and located at once, bytes reproducible.

Typed cells: money and numbers are numbers with a display format, dates are date cells, codes
and names are text. Each field's location is ``{"sheet", "cell"}`` and its `rendered_as` is the
cell's canonical text (`cells.cell_text`).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import io
import re
import zipfile
from copy import copy
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import coordinate_from_string
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer import excel
from openpyxl.writer.excel import ExcelWriter

from packetbench.core.leaves import Leaf, path_pattern
from packetbench.generator.render import fmt
from packetbench.generator.render.cells import cell_text
from packetbench.generator.render.recorder import Recorder

FIXED_TIME = dt.datetime(2000, 1, 1, 0, 0, 0)
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
BOLD = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="D9E1F2")
WRAP = Alignment(wrap_text=True, vertical="top")


def number_format(leaf: Leaf, value: Any, style: fmt.Style) -> str:
    if leaf.kind == "money":
        cents = style.cents or not float(value).is_integer()
        return '"$"#,##0.00;("$"#,##0.00)' if cents else '"$"#,##0;("$"#,##0)'
    if leaf.kind == "percent":
        return '0"%"'
    if leaf.kind == "number":
        if leaf.fmt == "year":
            return "0"
        return "#,##0" if float(value).is_integer() else "#,##0.0#"
    if leaf.kind == "date":
        return "mm/dd/yyyy"
    return "General"


def typed(value: Any, leaf: Leaf, style: fmt.Style) -> Any:
    """The value as it is stored in the cell."""
    if leaf.kind in ("money", "number", "percent"):
        return int(value) if float(value).is_integer() else float(value)
    if leaf.kind == "date":
        return dt.date.fromisoformat(value)
    if leaf.kind in ("checkbox", "enum"):
        return fmt.render(value, leaf, style)
    return value


# An open group of records: (list, last record, group value, column -> sum, its last row).
Subtotal = tuple[str, str, Any, dict[int, float], int]


class Sheet:
    """One worksheet of an `XlsxBook`.

    Renderers address rows as they lay them out; a title block a pattern adds above them
    (`SheetLook.title_lines`) shifts every row, so renderers reach cells only through `cell`,
    `put`, `header` and `field`. The sheet remembers where each record and header landed, so
    that patterns acting beside a table (notes, a hidden column, a legend) can find it.
    """

    def __init__(self, book: XlsxBook, ws: Worksheet, index: int, hidden: bool = False) -> None:
        self.book = book
        self.ws = ws
        self.index = index
        self.hidden = hidden  # a hidden sheet: everything on it is invisible
        self.look = book.look
        self.top = 0
        self.hidden_rows: set[int] = set()
        self.record_rows: dict[str, int] = {}  # record path -> row
        self.header_rows: dict[str, list[int]] = {}  # list pattern -> rows of its headers
        self.first_header = 0
        self.thousand_columns: set[int] = set()  # columns headed "... ($000s)"
        self._inserted: list[int] = []  # layout rows a subtotal row was inserted before
        self._subtotal: Subtotal | None = None  # the open group of records
        self._copied: dict[str, list[tuple[int, Any, str]]] = {}  # record -> cells to copy
        self.legend: dict[str, tuple[str, str]] = {}  # code -> (value, fill) drawn here
        # Per column, numeric data cells since the last total, and the totals since: what a
        # total's SUM formula adds up.
        self._pending: dict[int, list[tuple[str, int, str, float]]] = {}
        self._totals: dict[int, list[tuple[str, str, float]]] = {}
        if not hidden and self.look.title_lines:
            for number, line in enumerate(self.look.title_lines, start=1):
                self.put(number, 1, line, bold=number == 1)
            self.top = len(self.look.title_lines) + 1  # and a blank row
            self.event("sheet.header_offset")

    @property
    def recorder(self) -> Recorder:
        return self.book.recorder

    def event(self, name: str) -> None:
        self.recorder.presentation.events.append((name, self.ws.title, self.index))

    def row_of(self, row: int) -> int:
        """The worksheet row of layout row `row` (below any title block, and below every
        subtotal row inserted before it)."""
        return row + self.top + sum(1 for before in self._inserted if before <= row)

    def _group(self, path: str, row: int) -> None:
        """Before layout row `row` is written for `path` ("" for a literal cell): close the
        open group of records with a subtotal row when this is not another record of that
        group (sheet.subtotal_rows), and open or extend a group for a grouped record."""
        record = _record_of(path) if path else None
        for copied in [r for r in self._copied if r != record]:
            last = self.record_rows.get(copied)
            if last is not None and self.row_of(row) > last:
                self._inserted.append(row)
                self._hidden_copy(self.row_of(row) - 1, copied)
        name = path_pattern(record) if record is not None else None
        grouped = record is not None and name in self.look.subtotals and name in self.header_rows
        group = self._group_of(record, name) if grouped else None
        pending = self._subtotal
        if (
            pending is not None
            and row > pending[4]
            and not (grouped and name == pending[0] and group == pending[2])
        ):
            self._inserted.append(row)
            self._write_subtotal(self.row_of(row) - 1, pending)
            self._subtotal = pending = None
        if grouped and record is not None and name is not None:
            sums = pending[3] if pending is not None else {}
            last = max(row, pending[4]) if pending is not None else row
            self._subtotal = (name, record, group, sums, last)

    def _hidden_copy(self, row: int, record: str) -> None:
        """A hidden row after `record` holding an older copy of it (sheet.hidden_rows): the
        amounts as they stood before, the rest as it is. Nobody sees it, so it is in no truth;
        its text is hidden."""
        cells = self._copied.pop(record)
        if self.hidden or path_pattern(record) not in self.header_rows:
            return
        factor = self.look.hidden_after[record]
        self.ws.row_dimensions[row].hidden = True
        self.hidden_rows.add(row)
        for col, stored, kind in cells:
            value = stored
            if kind == "money" and isinstance(stored, int | float):
                value = round(stored * factor)
            self._literal(row, col, value)
        self.event("sheet.hidden_rows")

    def _group_of(self, record: str | None, name: str | None) -> Any:
        if record is None or name is None or name not in self.look.subtotals:
            return None
        value, _ = self.recorder.leaf(f"{record}.{self.look.subtotals[name]}")
        return value

    def _write_subtotal(self, row: int, pending: Subtotal) -> None:
        name, _, group, sums, _ = pending
        key = self.look.subtotals[name].removesuffix("_number").replace("_", " ").title()
        self._literal(row, 1, f"{key} {group} Subtotal", bold=True)
        for col, total in sorted(sums.items()):
            value = round(total, 2)
            self._literal(
                row,
                col,
                int(value) if value.is_integer() else value,
                bold=True,
                number_format="#,##0" if value.is_integer() else "#,##0.00",
            )
        self.event("sheet.subtotal_rows")

    def cell(self, row: int, col: int) -> Cell:
        """The cell at layout position (row, col), to style it."""
        return self.ws.cell(row=self.row_of(row), column=col)

    def _seen(self, text: str, row: int, path: str | None = None) -> None:
        """Record a cell's text: hidden (a hidden sheet or row) or visible, naming the truth
        leaf `path` when the cell shows a value."""
        if self.hidden or row in self.hidden_rows:
            self.recorder.invisible(text, self.index)
        else:
            self.recorder.visible(text, self.index, path=path)

    def put(
        self,
        row: int,
        col: int,
        value: Any,
        *,
        bold: bool = False,
        header: bool = False,
        number_format: str | None = None,
    ) -> None:
        """A literal cell (title, label, header): part of the universe, never a field."""
        self._group("", row)
        self._literal(
            self.row_of(row), col, value, bold=bold, header=header, number_format=number_format
        )

    def _literal(
        self,
        row: int,
        col: int,
        value: Any,
        *,
        bold: bool = False,
        header: bool = False,
        number_format: str | None = None,
    ) -> Cell:
        cell = self.ws.cell(row=row, column=col, value=value)
        if bold or header or number_format:
            self.book.style(
                cell,
                bold=bold or header,
                header=header,
                number_format=number_format or "General",
                wrap=header,
            )
        self._seen(cell_text(value), row)
        return cell

    def header(self, row: int, col: int, title: str, column: str | None = None) -> None:
        """A column header; `column` names the path pattern of the values below it
        (``buildings[].tiv``), which lets patterns relabel or find the table."""
        self.put(row, col, self.look.header(title, column), header=True)
        if column is not None and column in self.look.thousands:
            self.thousand_columns.add(col)
        if column is not None and "[]" in column:
            rows = self.header_rows.setdefault(column[: column.rindex("[]") + 2], [])
            if self.row_of(row) not in rows:
                rows.append(self.row_of(row))
            self.first_header = self.first_header or self.row_of(row)

    def field(
        self, row: int, col: int, path: str, *, bold: bool = False, style: fmt.Style | None = None
    ) -> None:
        """The value at `path` as a typed cell; a null value leaves the cell empty."""
        value, leaf = self.recorder.leaf(path)
        if value is None:
            return
        style = style or self.recorder.style
        self._group(path, row)
        row = self.row_of(row)
        record = _record_of(path)
        if record is not None:
            self.record_rows.setdefault(record, row)
        converted = self.look.convert(path, value, leaf) if self.look else None
        if (
            converted is not None
            and converted.reading == "thousands"
            and (col not in self.thousand_columns)
        ):
            converted = None  # an amount in thousands needs a header that says so
        if converted is not None:
            stored, number = converted.stored, converted.number_format
            self.look.converted[path] = converted.reading
            self.event(f"sheet.{converted.reading}")
        else:
            stored, number = typed(value, leaf, style), number_format(leaf, value, style)
        cell = self.ws.cell(row=row, column=col, value=stored)
        formula = self._formula(path, cell, stored)
        if formula is not None:
            cell.value = formula
            self.book.cached[(self.ws.title, cell.coordinate)] = stored
            self.look.formula_paths.append(path)
        self.book.style(
            cell, bold=bold, header=False, number_format=number, wrap=leaf.kind == "text"
        )
        if converted is not None and converted.reading == "legend":
            fill = next(
                f for code, f in self.look.colors[path_pattern(path)].values() if code == stored
            )
            cell.fill = PatternFill("solid", fgColor=fill)
            self.legend[str(stored)] = (str(value), fill)
        if (
            self._subtotal is not None
            and leaf.kind == "money"
            and record == self._subtotal[1]
            and isinstance(stored, int | float)
        ):
            sums = self._subtotal[3]
            sums[col] = sums.get(col, 0.0) + float(stored)
        if record is not None and record in self.look.hidden_after:
            self._copied.setdefault(record, []).append((col, stored, leaf.kind))
        text = cell_text(stored)
        if path in self.recorder.presentation.redacted:
            self.recorder.invisible(text, self.index)
        else:
            self._seen(text, row, path)
        self.recorder.place(path, text, {"sheet": self.ws.title, "cell": cell.coordinate})

    def _formula(self, path: str, cell: Cell, stored: Any) -> str | None:
        """A SUM formula for a total cell whose value is the sum of the data cells above it
        in its column (sheet.formulas), else None. The sum is checked, so the cached value
        is what the formula computes."""
        if not isinstance(stored, int | float) or isinstance(stored, bool):
            return None
        key = path.rsplit(".", 1)[-1]
        column = cell.column
        if "total" not in path:
            if _record_of(path) is not None:
                self._pending.setdefault(column, []).append(
                    (key, int(cell.row), str(cell.coordinate), float(stored))
                )
            return None
        if key not in self.look.formulas:
            return None
        pending = [c for c in self._pending.pop(column, []) if c[0] == key]
        totals = self._totals.setdefault(column, [])
        if pending:
            rows = [c[1] for c in pending]
            refs = (
                f"{pending[0][2]}:{pending[-1][2]}"
                if rows == list(range(rows[0], rows[0] + len(rows)))
                else ",".join(c[2] for c in pending)
            )
            parts = [c[3] for c in pending]
            totals.append((key, str(cell.coordinate), float(stored)))
        elif totals:
            refs = ",".join(c[1] for c in totals if c[0] == key)
            parts = [c[2] for c in totals if c[0] == key]
            self._totals[column] = []
        else:
            return None
        if not refs or abs(sum(parts) - float(stored)) > 1e-6 * max(1.0, abs(float(stored))):
            return None
        self.event("sheet.formulas")
        return f"=SUM({refs})"

    def widths(self, widths: list[float]) -> None:
        for index, width in enumerate(widths, start=1):
            self.ws.column_dimensions[get_column_letter(index)].width = width

    def freeze(self, cell: str) -> None:
        letters, row = coordinate_from_string(cell)
        self.ws.freeze_panes = f"{letters}{self.row_of(row)}"

    # --- what patterns add beside the table, once the renderer is done -------------------------

    def finish(self) -> None:
        if self.hidden:
            return
        # When nothing follows the table: the last record's hidden copy, the last subtotal.
        for record in list(self._copied):
            self._hidden_copy(self.ws.max_row + 1, record)
        if self._subtotal is not None:
            self._write_subtotal(self.ws.max_row + 1, self._subtotal)
            self._subtotal = None
        width = self.ws.max_column
        look = self.look
        if look.notes is not None:
            width = self._beside(width + 1, look.notes, hide=False) or width
        if look.hidden_column is not None:
            self._beside(width + 1, look.hidden_column, hide=True)
        if self.legend:
            self._legend(width + 2)
        if look.merge_title_block:
            self._merge(width)

    def _beside(self, col: int, spec: tuple[str, str, dict[str, str]], hide: bool) -> int:
        """A column of texts beside the records of list `spec[1]`; its column or 0."""
        title, rows_of, texts = spec
        records = {
            r: row
            for r, row in self.record_rows.items()
            if path_pattern(r) == rows_of and r in texts
        }
        if not records or rows_of not in self.header_rows:  # a table drawn one row a record
            return 0
        letter = get_column_letter(col)
        if hide:
            self.ws.column_dimensions[letter].hidden = True
        self.ws.column_dimensions[letter].width = 28
        for row in self.header_rows.get(rows_of, []):
            self._beside_cell(row, col, title, hide, header=True)
        for record, row in records.items():
            self._beside_cell(row, col, texts[record], hide)
        self.event("sheet.hidden_columns" if hide else "sheet.notes_column")
        return col

    def _beside_cell(self, row: int, col: int, text: str, hide: bool, header: bool = False) -> None:
        cell = self.ws.cell(row=row, column=col, value=text)
        if header:
            self.book.style(cell, bold=True, header=True, number_format="General", wrap=True)
        if hide:
            self.recorder.invisible(text, self.index)
        else:
            self._seen(text, row)

    def _legend(self, col: int) -> None:
        """The key to the status colours, at the top right of the sheet."""
        self._literal(1, col, "Status key", bold=True)
        for row, (code, (value, fill)) in enumerate(sorted(self.legend.items()), start=2):
            swatch = self._literal(row, col, code)
            swatch.fill = PatternFill("solid", fgColor=fill)
            self._literal(row, col + 1, value)
        self.ws.column_dimensions[get_column_letter(col + 1)].width = 22
        self.event("sheet.color_status")

    def _merge(self, width: int) -> None:
        """Merge each title-block cell with the empty cells to its right (the value stays in
        the top-left cell, which is what a reader and openpyxl see)."""
        last = (self.first_header or self.ws.max_row + 1) - 1
        merged = 0
        for row in range(1, last + 1):
            if row in self.hidden_rows:
                continue
            col = 1
            while col <= width:
                if self.ws.cell(row=row, column=col).value is None:
                    col += 1
                    continue
                end = col
                while end + 1 <= width and self.ws.cell(row=row, column=end + 1).value is None:
                    end += 1
                end = min(end, col + 3)  # a label spans a few columns, not the sheet
                if end > col:
                    self.ws.merge_cells(
                        start_row=row, start_column=col, end_row=row, end_column=end
                    )
                    merged += 1
                col = end + 1
        if merged:
            self.event("sheet.merged_cells")


def _record_of(path: str) -> str | None:
    """The innermost record holding `path` (``policies[0].claims[2]``), None outside lists."""
    end = path.rfind("]")
    return path[: end + 1] if end >= 0 else None


class XlsxBook:
    """A workbook for one document."""

    def __init__(self, recorder: Recorder, title: str) -> None:
        self.recorder = recorder
        self.look = recorder.presentation.sheet
        self.wb = Workbook()
        self.wb.remove(self.wb.active)
        props = self.wb.properties
        props.title = title
        props.creator = "packetbench generator"
        props.lastModifiedBy = "packetbench generator"
        props.subject = "Synthetic document; all data is fictional"
        props.created = FIXED_TIME
        props.modified = FIXED_TIME
        self.sheets: list[Sheet] = []
        self._styles: dict[tuple[bool, bool, str, bool], StyleArray] = {}
        # (sheet title, cell) -> the value a formula cell shows (written as its cached value).
        self.cached: dict[tuple[str, str], Any] = {}
        self._resume: dict[int, int] = {}  # sheet -> the row its content continues at

    def style(
        self, cell: Cell, *, bold: bool, header: bool, number_format: str, wrap: bool
    ) -> None:
        """Give `cell` a style, reusing the style array of an identical earlier cell.

        Assigning font or fill objects makes openpyxl hash them on every cell; copying the
        array of indices it produced once is what a second identical assignment would yield.
        """
        key = (bold, header, number_format, wrap)
        prototype = self._styles.get(key)
        if prototype is not None:
            cell._style = copy(prototype)
            return
        if bold:
            cell.font = BOLD
        if header:
            cell.fill = HEADER_FILL
        if wrap:
            cell.alignment = WRAP
        cell.number_format = number_format
        self._styles[key] = copy(cell._style)

    def sheet(self, title: str) -> Sheet:
        ws = self.wb.create_sheet(title)
        sheet = Sheet(self, ws, len(self.sheets) + 1)
        self.sheets.append(sheet)
        self.recorder.visible(title, sheet.index)  # a tab name is visible text
        return sheet

    def part(self, sheet: Sheet, row: int, record: str | None) -> tuple[Sheet, int]:
        """Where the block of `record` (``policies[2]``) starts: on `sheet` at `row`, or on a
        sheet of its own when sheet.split_sheets asks (at its top); `record` None: back to the
        first sheet, below what it holds (a grand total after the blocks)."""
        if not self.look.split:
            return sheet, row
        first = self.sheets[0]
        if record is None:
            return first, self._resume.get(first.index, row)
        title = self.look.split.get(record)
        if title is None:
            return sheet, row
        self._resume.setdefault(first.index, row)
        new = self.sheet(title)
        new.event("sheet.split_sheets")
        return new, 1

    def _hidden_sheet(self) -> None:
        """A sheet nobody sees (sheet.hidden_sheet): its tab and cells are hidden text."""
        if self.look.hidden_sheet is None:
            return
        title, rows = self.look.hidden_sheet
        ws = self.wb.create_sheet(title)
        ws.sheet_state = "hidden"
        sheet = Sheet(self, ws, len(self.sheets) + 1, hidden=True)
        self.sheets.append(sheet)
        self.recorder.invisible(title, sheet.index)
        for number, values in enumerate(rows, start=1):
            for col, value in enumerate(values, start=1):
                if value is not None:
                    sheet.put(number, col, value, bold=number == 1)
        sheet.event("sheet.hidden_sheet")

    def render(self) -> bytes:
        if self.look:
            for sheet in self.sheets:
                sheet.finish()
            widths = self.wb.worksheets[0].column_dimensions
            for sheet in self.sheets[1:]:
                if self.look.split and not sheet.ws.column_dimensions:
                    for letter, dim in widths.items():  # split sheets read like the first
                        sheet.ws.column_dimensions[letter].width = dim.width
            self._hidden_sheet()
        cached: dict[str, dict[str, str]] = {}
        for number, ws in enumerate(self.wb.worksheets, start=1):
            values = {
                ref: cell_text(value)
                for (title, ref), value in self.cached.items()
                if title == ws.title
            }
            if values:
                cached[f"xl/worksheets/sheet{number}.xml"] = values
        raw = io.BytesIO()
        with _FixedTimeZip(raw, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.cached = cached
            _MemoryWriter(self.wb, archive).save()
        return raw.getvalue()

    def save(self, path: Path) -> int:
        path.write_bytes(self.render())
        return len(self.sheets)


_FORMULA_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"([^>]*)><f>([^<]*)</f><v\s*/?>(?:</v>)?')


# openpyxl builds a workbook's stylesheet from its style lists at every save, though our
# workbooks hold few sets of styles (see docs/measurements.md#a-workbooks-stylesheet). While
# `_MemoryWriter` writes, the stylesheet of a set already met is the one openpyxl built for
# it. openpyxl (pinned) takes `write_stylesheet` from its module's globals; outside our writer
# the stock function runs.
_STOCK_STYLESHEET = excel.write_stylesheet
_KEPT_STYLESHEETS: dict[tuple[Any, ...], Any] = {}
_KEEPING = contextvars.ContextVar("xlsx_keeping_stylesheets", default=False)


def _style_key(wb: Workbook) -> tuple[Any, ...]:
    """Every list `write_stylesheet` (openpyxl 3.1.5) reads from `wb`, as tuples of openpyxl's
    style objects, which compare and hash by value: equal keys, the same stylesheet. A named
    style is keyed by what its entries are made of (`as_name`, `as_xf`), not itself: it
    holds its workbook, which the kept key would keep alive."""
    named = tuple(
        (n.name, n.builtinId, n.hidden, tuple(n._style), n.alignment, n.protection)
        for n in wb._named_styles
    )
    return (
        tuple(wb._fonts),
        tuple(wb._fills),
        tuple(wb._borders),
        tuple(wb._differential_styles.styles),
        tuple(wb._colors) if wb._colors else wb._colors,
        tuple(wb._number_formats),
        tuple(tuple(style) for style in wb._cell_styles),
        tuple(wb._alignments),
        tuple(wb._protections),
        named,
        wb._table_styles,
    )


def _stylesheet(wb: Workbook) -> Any:
    if not _KEEPING.get():
        return _STOCK_STYLESHEET(wb)
    key = _style_key(wb)
    tree = _KEPT_STYLESHEETS.get(key)
    if tree is None:
        if len(_KEPT_STYLESHEETS) >= 64:
            _KEPT_STYLESHEETS.clear()
        tree = _KEPT_STYLESHEETS[key] = _STOCK_STYLESHEET(wb)
    return tree  # only serialized by openpyxl (`tostring`), never changed


excel.write_stylesheet = _stylesheet


class _MemoryWriter(ExcelWriter):  # type: ignore[misc]
    """openpyxl's writer with each worksheet written into memory: openpyxl writes it to a
    temporary file, reads that back into the archive and removes it (a quarter of a
    workbook's writing, three system calls and a file a sheet). The same bytes: the
    archive took the temporary file's content as it takes this. (XlsxBook's workbooks are
    never write-only, whose sheets openpyxl streams to files of their own.) A stylesheet
    already met is reused (`_stylesheet`)."""

    def write_data(self) -> None:
        token = _KEEPING.set(True)
        try:
            super().write_data()
        finally:
            _KEEPING.reset(token)

    def write_worksheet(self, ws: Worksheet) -> None:
        ws._drawing = SpreadsheetDrawing()
        ws._drawing.charts = ws._charts
        ws._drawing.images = ws._images
        writer = WorksheetWriter(ws, out=io.BytesIO())
        writer.write()
        ws._rels = writer._rels
        self._archive.writestr(ws.path[1:], writer.read())
        self.manifest.append(ws)


class _FixedTimeZip(zipfile.ZipFile):
    """A zip whose members all carry one fixed timestamp, so equal content gives equal bytes.

    openpyxl names members by string, and its own writer adds worksheets from temporary
    files (`write`; `_MemoryWriter` does not); either would stamp members with the current
    time.
    """

    def write(
        self,
        filename: Any,
        arcname: Any = None,
        compress_type: int | None = None,
        compresslevel: int | None = None,
    ) -> None:
        with open(filename, "rb") as source:
            self.writestr(str(arcname or filename), source.read(), compress_type, compresslevel)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cached: dict[str, dict[str, str]] = {}  # member -> cell -> cached formula value

    def writestr(
        self,
        zinfo_or_arcname: str | zipfile.ZipInfo,
        data: Any,
        compress_type: int | None = None,
        compresslevel: int | None = None,
    ) -> None:
        values = self.cached.get(zinfo_or_arcname) if isinstance(zinfo_or_arcname, str) else None
        if values:
            # openpyxl writes a formula with an empty value; Excel and every reader that
            # does not recalculate show the cached value, so it is written beside the formula.
            raw = data.encode() if isinstance(data, str) else bytes(data)

            def fill(match: re.Match[bytes]) -> bytes:
                value = values.get(match.group(1).decode())
                if value is None:
                    return match.group(0)
                return (
                    b'<c r="'
                    + match.group(1)
                    + b'"'
                    + match.group(2)
                    + b"><f>"
                    + match.group(3)
                    + b"</f><v>"
                    + value.encode()
                    + b"</v>"
                )

            data = _FORMULA_CELL.sub(fill, raw)
        if isinstance(zinfo_or_arcname, str):
            info = zipfile.ZipInfo(zinfo_or_arcname, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            zinfo_or_arcname = info
        super().writestr(zinfo_or_arcname, data, compress_type, compresslevel)
