"""A schedule workbook (drivers, vehicles): a title block of facts, a header row, one row per
record, and the totals the caller writes below the records."""

from __future__ import annotations

from collections.abc import Sequence

from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.xlsx import Sheet, XlsxBook

# (header, leaf of a record, column width)
Header = tuple[str, str, float]


def schedule_sheet(
    rec: Recorder,
    book_title: str,
    sheet_name: str,
    heading: str,
    facts: Sequence[tuple[str, str]],
    value_column: int,
    records: str,
    count: int,
    headers: Sequence[Header],
) -> tuple[XlsxBook, Sheet, int]:
    """The book and its one sheet: `heading` in A1, each (label, path) of `facts` on its own
    row from row 2 (label in column A, value in `value_column`), a blank row, the header row
    of `headers` and one row for each of the `count` records of the list `records`. Returns the
    book, the sheet and the first row below the records (where the totals go)."""
    book = XlsxBook(rec, book_title)
    sheet = book.sheet(sheet_name)
    sheet.put(1, 1, heading, bold=True)
    for row, (label, path) in enumerate(facts, start=2):
        sheet.put(row, 1, label)
        sheet.field(row, value_column, path)
    header_row = 2 + len(facts) + 1
    for col, (title, key, _) in enumerate(headers, start=1):
        sheet.header(header_row, col, title, f"{records}[].{key}")
    for index in range(count):
        for col, (_, key, _) in enumerate(headers, start=1):
            sheet.field(header_row + 1 + index, col, f"{records}[{index}].{key}")
    sheet.widths([width for _, _, width in headers])
    sheet.freeze(f"A{header_row + 1}")
    return book, sheet, header_row + 1 + count
