"""Comparative financial statements as a workbook: an income statement and a balance sheet."""

from __future__ import annotations

from collections.abc import Sequence

from openpyxl.styles import Alignment, Border, Font, Side

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.financial_statement.lines import BALANCE, INCOME, Line
from packetbench.generator.doctypes.financial_statement.model import FinancialStatement
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.xlsx import Sheet, XlsxBook

# Accounting formats: digits aligned, negatives in parentheses, zero as a dash.
DOLLARS = '_("$"* #,##0_);_("$"* (#,##0);_("$"* "-"_);_(@_)'
PLAIN = '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)'
DOLLARS_CENTS = '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)'
PLAIN_CENTS = '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)'

THIN = Side(style="thin")
TOTAL = Border(top=THIN)
GRAND = Border(top=THIN, bottom=Side(style="double"))
HEAD_ROW = 7
FIRST_ROW = HEAD_ROW + 2
LABEL_WIDTH = 40
AMOUNT_WIDTH = 16


def _format(line: Line, value: float) -> str:
    if float(value).is_integer():
        return DOLLARS if line.dollar else PLAIN
    return DOLLARS_CENTS if line.dollar else PLAIN_CENTS


def _sheet(
    book: XlsxBook, doc: FinancialStatement, name: str, title: str, head: str, lines: Sequence[Line]
) -> None:
    sheet = book.sheet(name)
    sheet.field(1, 1, "company_name", bold=True)
    sheet.cell(1, 1).font = Font(bold=True, size=13)
    sheet.put(2, 1, title, bold=True)
    for row, (label, path) in enumerate(
        (
            ("Statement basis:", "statement_basis"),
            ("Prepared by:", "preparer_firm"),
            ("Report date:", "report_date"),
        ),
        start=3,
    ):
        sheet.put(row, 1, label)
        sheet.field(row, 2, path)
        sheet.cell(row, 2).alignment = Alignment(horizontal="left")
    sheet.put(HEAD_ROW + 1, 1, "(Amounts in U.S. dollars)")
    periods = range(len(doc.periods))
    for index in periods:
        col = 2 + index
        sheet.put(HEAD_ROW, col, head, header=True)
        sheet.cell(HEAD_ROW, col).alignment = Alignment(horizontal="right")
        sheet.field(HEAD_ROW + 1, col, f"periods[{index}].fiscal_year_end", bold=True)
        sheet.cell(HEAD_ROW + 1, col).border = Border(bottom=THIN)
    for offset, line in enumerate(lines):
        _line(sheet, FIRST_ROW + offset, line, periods)
    sheet.widths([LABEL_WIDTH, *(AMOUNT_WIDTH for _ in periods)])
    sheet.freeze(f"B{FIRST_ROW}")


def _line(sheet: Sheet, row: int, line: Line, periods: range) -> None:
    strong = line.role != "item"
    sheet.put(row, 1, line.label, bold=strong)
    sheet.cell(row, 1).alignment = Alignment(indent=2 * line.indent)
    if line.key is None:
        return
    for index in periods:
        col = 2 + index
        path = f"periods[{index}].{line.key}"
        sheet.field(row, col, path, bold=strong)
        value, _ = sheet.recorder.leaf(path)
        cell = sheet.cell(row, col)
        if value is not None:
            cell.number_format = _format(line, value)
        if line.role == "total":
            cell.border = TOTAL
        elif line.role == "grand":
            cell.border = GRAND


def render(doc: FinancialStatement, rec: Recorder) -> Output:
    book = XlsxBook(rec, "Financial Statements")
    _sheet(book, doc, "Income Statement", "STATEMENTS OF INCOME", "Year ended", INCOME)
    _sheet(book, doc, "Balance Sheet", "BALANCE SHEETS", "As of", BALANCE)
    return Output(book.render(), len(book.sheets))
