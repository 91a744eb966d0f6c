"""Workbook cells as a reader of the workbook sees them, read with openpyxl.

A cell's text is `generator.render.cells.cell_text` of its stored (cached) value, the form a
field's `rendered_as` takes for XLSX. Only what a person opening the workbook can see counts:
cells of hidden sheets, hidden rows and hidden columns read as not visible.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string
from openpyxl.utils.exceptions import InvalidFileException

from packetbench.core import safe_read
from packetbench.core.errors import BadInput
from packetbench.generator.render.cells import cell_text


class Workbook:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            safe_read.check_file(path, "document")
            # data_only: a formula cell reads as its cached value, the number Excel displays.
            self._book = openpyxl.load_workbook(path, data_only=True)
        except (
            OSError,
            KeyError,
            ValueError,
            SyntaxError,
            zipfile.BadZipFile,
            InvalidFileException,
        ) as error:
            raise BadInput(f"{path}: unreadable workbook ({error})") from None
        self.sheets: list[Any] = list(self._book.worksheets)
        self._hidden: dict[str, tuple[set[int], set[int]]] = {
            ws.title: _hidden_rows_columns(ws) for ws in self.sheets
        }

    def visible(self, ws: Any) -> bool:
        return bool(ws.sheet_state == "visible")

    def cell(self, sheet: str, ref: str) -> tuple[str | None, str]:
        """(text, "") of a visible cell, or (None, why it cannot be read)."""
        if sheet not in self._book.sheetnames:
            return None, f"no sheet {sheet!r}"
        ws = self._book[sheet]
        if not self.visible(ws):
            return None, f"sheet {sheet!r} is hidden"
        try:
            letters, row = coordinate_from_string(ref)
            column = column_index_from_string(letters)
        except ValueError:
            return None, f"bad cell reference {ref!r}"
        rows, columns = self._hidden[sheet]
        if row in rows or column in columns:
            return None, f"{sheet}!{ref} is in a hidden row or column"
        return cell_text(ws.cell(row=row, column=column).value), ""

    def sheet_texts(self, index: int) -> set[str] | None:
        """Whitespace-normalized texts of the visible cells of sheet `index` (1-based, in
        workbook order) plus its tab name; None when that sheet is hidden or absent."""
        if not 1 <= index <= len(self.sheets):
            return None
        ws = self.sheets[index - 1]
        if not self.visible(ws):
            return None
        rows, columns = self._hidden[ws.title]
        texts = {" ".join(ws.title.split())}
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is None or cell.row in rows or cell.column in columns:
                    continue
                texts.add(" ".join(cell_text(cell.value).split()))
        return texts

    def visible_cells(self, index: int) -> list[tuple[str, str]]:
        """(reference, whitespace-normalized text) of every visible non-empty cell of sheet
        `index` (1-based, in workbook order), its tab name first (reference ""); empty when
        that sheet is hidden or absent."""
        if not 1 <= index <= len(self.sheets):
            return []
        ws = self.sheets[index - 1]
        if not self.visible(ws):
            return []
        rows, columns = self._hidden[ws.title]
        out = [("", " ".join(ws.title.split()))]
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is None or cell.row in rows or cell.column in columns:
                    continue
                text = " ".join(cell_text(cell.value).split())
                if text:
                    out.append((cell.coordinate, text))
        return out

    def close(self) -> None:
        self._book.close()


def _hidden_rows_columns(ws: Any) -> tuple[set[int], set[int]]:
    rows = {index for index, dim in ws.row_dimensions.items() if dim.hidden}
    columns: set[int] = set()
    for dim in ws.column_dimensions.values():
        if dim.hidden and dim.min and dim.max:
            columns.update(range(dim.min, dim.max + 1))
    return rows, columns
