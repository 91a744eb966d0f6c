"""Comparative financial statements as a portrait PDF: one column per fiscal year."""

from __future__ import annotations

from collections.abc import Sequence

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.financial_statement.lines import BALANCE, INCOME, Line
from packetbench.generator.doctypes.financial_statement.model import FinancialStatement
from packetbench.generator.render import fmt
from packetbench.generator.render.layout import BOTTOM, PAD, Cell, Flow
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR, width_of
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder

# More years than this do not fit beside the captions; they continue in a repeated statement.
MAX_COLUMNS = 4
COLUMN_WIDTH = 92.0
ROW = 11.5
SIZE = 8.0
INDENT = 12.0
HEADS = 26.0  # the "Year ended" / date column heads
CAPTION_GAP = 4.0  # space above ASSETS and LIABILITIES AND EQUITY
GRAND_GAP = 3.0  # room for the double rule under a grand total

FOOTERS = {
    "Audited": "See independent auditor's report.",
    "Reviewed": "See independent accountant's review report.",
    "Compiled": "See accountant's compilation report.",
    "Internally Prepared": "Prepared by management without audit, review or compilation.",
}


def _header(flow: Flow, page: int) -> float:
    pdf = flow.pdf
    top = pdf.height - MARGIN
    centre = MARGIN + flow.cw / 2
    if page > 0:
        pdf.field(page, MARGIN, top - 10, "company_name", width=flow.cw * 0.6, font=BOLD, size=9.0)
        pdf.text(
            page,
            MARGIN + flow.cw,
            top - 10,
            "Financial Statements (continued)",
            REGULAR,
            8,
            align="right",
        )
        pdf.line(page, MARGIN, top - 15, MARGIN + flow.cw, top - 15, 0.6)
        return top - 24
    pdf.field(
        page, centre, top - 16, "company_name", width=flow.cw, font=BOLD, size=14.0, align="center"
    )
    pdf.text(page, centre, top - 33, "FINANCIAL STATEMENTS", BOLD, 11, align="center")
    flow.y = top - 44
    flow.boxes(
        [
            Cell("Statement basis", "statement_basis", 1.2),
            Cell("Prepared by", "preparer_firm", 2.4),
            Cell("Report date", "report_date", 1),
        ]
    )
    return flow.y - 10


class _Statement:
    """One statement drawn for a group of fiscal years, its column heads repeating."""

    def __init__(self, flow: Flow, title: str, head: str, periods: Sequence[int]) -> None:
        self.flow = flow
        self.pdf = flow.pdf
        self.title = title
        self.head = head
        self.periods = periods
        right = MARGIN + flow.cw
        # Right edge of each amount column, most recent year leftmost.
        self.rights = [
            right - (len(periods) - 1 - i) * COLUMN_WIDTH - PAD for i in range(len(periods))
        ]
        # Positive amounts stop short of the edge so their digits align with negatives'.
        self.paren = width_of(")", REGULAR, SIZE)

    def draw(self, lines: Sequence[Line]) -> None:
        """The whole statement, kept on one page when it fits on a fresh one."""
        flow = self.flow
        height = HEADS + sum(_height(line) for line in lines)
        flow.band(self.title, keep_with=min(height, flow.top - BOTTOM - 40))
        self._heads()
        for position, line in enumerate(lines):
            if flow.y - _height(line) < BOTTOM:
                flow.new_page()
                flow.band(f"{self.title} (continued)", keep_with=HEADS + ROW)
                self._heads()
            self._line(line, position == 0)
        flow.gap(10)

    def _heads(self) -> None:
        flow, pdf, page = self.flow, self.pdf, self.flow.page
        pdf.text(page, MARGIN + PAD, flow.y - 19, "(Amounts in U.S. dollars)", REGULAR, 6.5)
        for index, right in zip(self.periods, self.rights, strict=True):
            pdf.text(page, right, flow.y - 9, self.head, BOLD, 7.5, align="right")
            pdf.field(
                page,
                right,
                flow.y - 19,
                f"periods[{index}].fiscal_year_end",
                width=COLUMN_WIDTH - 2 * PAD,
                font=BOLD,
                size=SIZE,
                align="right",
            )
            pdf.line(page, right - COLUMN_WIDTH + 10, flow.y - 22, right, flow.y - 22, 0.6)
        flow.y -= HEADS

    def _line(self, line: Line, first: bool) -> None:
        flow, pdf, page = self.flow, self.pdf, self.flow.page
        font = REGULAR if line.role == "item" else BOLD
        if _is_caption(line) and not first:
            flow.y -= CAPTION_GAP
        baseline = flow.y - SIZE - 1.5
        label_x = MARGIN + PAD + line.indent * INDENT
        # Section captions (ASSETS, LIABILITIES AND EQUITY) stand out from subheadings.
        label_size = SIZE + 0.5 if _is_caption(line) else SIZE
        pdf.text(page, label_x, baseline, line.label, font, label_size)
        if line.key is not None:
            style = fmt.Style(currency=line.dollar)
            for index, right in zip(self.periods, self.rights, strict=True):
                path = f"periods[{index}].{line.key}"
                value, _ = pdf.recorder.leaf(path)
                if value is None:
                    continue
                text = fmt.money(value, style)
                anchor = right if value < 0 else right - self.paren
                pdf.field(
                    page,
                    anchor,
                    baseline,
                    path,
                    width=COLUMN_WIDTH - 2 * PAD,
                    font=font,
                    size=SIZE,
                    align="right",
                    rendered=text,
                )
                if line.role in ("total", "grand"):
                    pdf.line(page, right - COLUMN_WIDTH + 10, flow.y, right, flow.y, 0.5)
                if line.role == "grand":
                    low = flow.y - ROW - 0.5
                    pdf.line(page, right - COLUMN_WIDTH + 10, low, right, low, 0.5)
                    pdf.line(page, right - COLUMN_WIDTH + 10, low - 1.6, right, low - 1.6, 0.5)
        flow.y -= ROW + (GRAND_GAP if line.role == "grand" else 0)


def _is_caption(line: Line) -> bool:
    return line.role == "heading" and line.label.isupper()


def _height(line: Line) -> float:
    """Vertical space of a line, counting the gap above a caption even where it is skipped."""
    return (
        ROW + (CAPTION_GAP if _is_caption(line) else 0) + (GRAND_GAP if line.role == "grand" else 0)
    )


def _groups(count: int) -> list[range]:
    return [range(start, min(count, start + MAX_COLUMNS)) for start in range(0, count, MAX_COLUMNS)]


def render(doc: FinancialStatement, rec: Recorder) -> Output:
    footer = FOOTERS.get(doc.statement_basis or "", "")
    pdf = PdfDocument(rec, "Financial Statements", footer)
    flow = Flow(pdf, _header)
    single = len(doc.periods) == 1
    income = "Statement of Income" if single else "Statements of Income"
    balance = "Balance Sheet" if single else "Balance Sheets"
    for group in _groups(len(doc.periods)):
        _Statement(flow, income, "Year ended", group).draw(INCOME)
    # The balance sheet starts on its own page, as an accountant's report binds them.
    flow.new_page()
    for group in _groups(len(doc.periods)):
        _Statement(flow, balance, "As of", group).draw(BALANCE)
    return Output(pdf.render(), len(pdf.pages))
