"""Workbooks written with openpyxl, values placed and located at once, bytes reproducible.

Typed cells: money and numbers are numbers with a display format, dates are date cells, codes
and names are text. Each field's location is ``{"sheet", "cell"}`` and its `rendered_as` is the
cell's canonical text (`cells.cell_text`).
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from copy import copy
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

from generator.leaves import Leaf
from generator.render import fmt
from generator.render.cells import cell_text
from generator.render.record import Recorder

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


class Sheet:
    """One worksheet of an `XlsxBook`."""

    def __init__(self, book: XlsxBook, ws: Worksheet, index: int) -> None:
        self.book = book
        self.ws = ws
        self.index = index

    @property
    def recorder(self) -> Recorder:
        return self.book.recorder

    def put(self, row: int, col: int, value: Any, *, bold: bool = False,
            header: bool = False, number_format: str | None = None) -> None:
        """A literal cell (title, label, header): part of the universe, never a field."""
        cell = self.ws.cell(row=row, column=col, value=value)
        if bold or header or number_format:
            self.book.style(cell, bold=bold or header, header=header,
                            number_format=number_format or "General", wrap=header)
        self.recorder.visible(cell_text(value), self.index)

    def field(self, row: int, col: int, path: str, *, bold: bool = False,
              style: fmt.Style | None = None) -> None:
        """The value at `path` as a typed cell; a null value leaves the cell empty."""
        value, leaf = self.recorder.leaf(path)
        if value is None:
            return
        style = style or self.recorder.style
        stored = typed(value, leaf, style)
        cell = self.ws.cell(row=row, column=col, value=stored)
        self.book.style(cell, bold=bold, header=False,
                        number_format=number_format(leaf, value, style), wrap=leaf.kind == "text")
        text = cell_text(stored)
        self.recorder.visible(text, self.index)
        self.recorder.place(path, text, {"sheet": self.ws.title, "cell": cell.coordinate})

    def widths(self, widths: list[float]) -> None:
        for index, width in enumerate(widths, start=1):
            self.ws.column_dimensions[get_column_letter(index)].width = width

    def freeze(self, cell: str) -> None:
        self.ws.freeze_panes = cell


class XlsxBook:
    """A workbook for one document."""

    def __init__(self, recorder: Recorder, title: str) -> None:
        self.recorder = recorder
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

    def style(self, cell: Cell, *, bold: bool, header: bool, number_format: str,
              wrap: bool) -> None:
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

    def render(self) -> bytes:
        raw = io.BytesIO()
        with _FixedTimeZip(raw, "w", zipfile.ZIP_DEFLATED) as archive:
            ExcelWriter(self.wb, archive).save()
        return raw.getvalue()

    def save(self, path: Path) -> int:
        path.write_bytes(self.render())
        return len(self.sheets)


class _FixedTimeZip(zipfile.ZipFile):
    """A zip whose members all carry one fixed timestamp, so equal content gives equal bytes.

    openpyxl names members by string, and adds worksheets from temporary files; either would
    stamp members with the current time.
    """

    def write(self, filename: Any, arcname: Any = None, compress_type: int | None = None,
              compresslevel: int | None = None) -> None:
        with open(filename, "rb") as source:
            self.writestr(str(arcname or filename), source.read(), compress_type, compresslevel)

    def writestr(self, zinfo_or_arcname: str | zipfile.ZipInfo, data: Any,
                 compress_type: int | None = None, compresslevel: int | None = None) -> None:
        if isinstance(zinfo_or_arcname, str):
            info = zipfile.ZipInfo(zinfo_or_arcname, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            zinfo_or_arcname = info
        super().writestr(zinfo_or_arcname, data, compress_type, compresslevel)
