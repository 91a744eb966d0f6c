"""Workbooks and CSV exports as grids of cell text, for drawing truth locations on cells.

A workbook is read with openpyxl (cached values of formulas, as a spreadsheet program shows
them), every sheet with its hidden state, hidden rows and hidden columns, so the viewer can
show what a model was not sent. A CSV is read with the audit's own reader
(`truth.csvread`): rows are counted from the header (row 0), as truth locations are,
and the preamble lines before it are listed apart.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any

from packetbench.core import safe_read
from packetbench.core.errors import BadInput
from packetbench.truth.csvread import read_csv

MAX_ROWS = 2000  # rows shown per sheet (the rest are counted)
MAX_COLUMNS = 80


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def workbook_grid(path: Path) -> dict[str, Any]:
    """{kind: "xlsx", sheets: [{name, hidden, rows, hidden_rows, hidden_columns, total_rows}]}
    with rows 1-based as in A1 references (row n is rows[n - 1])."""
    import openpyxl
    from openpyxl.utils import get_column_letter

    try:
        data = safe_read.read_bytes(path, "xlsx")
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error.strerror})") from None
    safe_read.check_workbook(path, data)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a file that is not a workbook
        raise BadInput(f"{path}: not a readable workbook ({type(error).__name__})") from None
    sheets: list[dict[str, Any]] = []
    try:
        for sheet in book.worksheets:
            height = min(sheet.max_row, MAX_ROWS)
            width = min(sheet.max_column, MAX_COLUMNS)
            rows = [
                [_text(cell.value) for cell in row]
                for row in sheet.iter_rows(min_row=1, max_row=height, max_col=width)
            ]
            sheets.append(
                {
                    "name": sheet.title,
                    "hidden": sheet.sheet_state != "visible",
                    "rows": rows,
                    "columns": [get_column_letter(i) for i in range(1, width + 1)],
                    "hidden_rows": sorted(
                        n for n, d in sheet.row_dimensions.items() if d.hidden and n <= height
                    ),
                    "hidden_columns": sorted(
                        letter for letter, d in sheet.column_dimensions.items() if d.hidden
                    ),
                    "total_rows": sheet.max_row,
                }
            )
    finally:
        book.close()
    return {"kind": "xlsx", "sheets": sheets}


def csv_grid(path: Path) -> dict[str, Any]:
    """{kind: "csv", preamble, rows, total_rows, encoding, delimiter}; rows[0] is the header."""
    try:
        data = safe_read.read_bytes(path, "csv")
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error.strerror})") from None
    read = read_csv(data, path)
    return {
        "kind": "csv",
        "preamble": read.preamble,
        "rows": [row[:MAX_COLUMNS] for row in read.rows[:MAX_ROWS]],
        "total_rows": len(read.rows),
        "encoding": read.encoding,
        "delimiter": read.choices()["delimiter"],
    }


def grid(path: Path, file_format: str) -> dict[str, Any]:
    if file_format == "xlsx":
        return workbook_grid(path)
    if file_format == "csv":
        return csv_grid(path)
    raise BadInput(f"{path}: a {file_format} document has no grid")
