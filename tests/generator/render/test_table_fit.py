"""Table parts that must fit their columns: a nested sub-table (table.nested's payments) in a
narrow column widens it and sizes its own columns to their text; the summary header of a
total drawn apart (table.single_row_total) shrinks and wraps in its column. No two texts
overlap, read back with pdfium."""

from __future__ import annotations

import pypdfium2 as pdfium
from pydantic import Field

from packetbench.core.leaves import DocModel, Money, Str
from packetbench.generator.render.layout import Flow
from packetbench.generator.render.metrics import MARGIN
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import Table
from packetbench.generator.render.table_look import Column, Detail, TableLook, Totals

PAYMENTS = (
    ("05/22/2024", "Expense", "$512.46"),
    ("07/04/2024", "Legal", "$3,334.37"),
    ("04/07/2025", "Indemnity", "$44,166.34"),
)


class Loss(DocModel):
    number: Str = None
    claimant: Str = None
    description: Str = None
    status: Str = None
    paid: Money = None
    reserve: Money = None
    incurred: Money = None


class Sums(DocModel):
    paid: Money = None
    shown: Str = None  # a total as a currency-code pattern shows it
    reserve: Money = None
    incurred: Money = None


class Run(DocModel):
    claims: list[Loss] = Field(default_factory=list)
    totals: Sums = Field(default_factory=Sums)


def _boxes(textpage: pdfium.PdfTextPage, text: str) -> list[tuple[float, float]]:
    """The horizontal extent of every occurrence of `text` on the page."""
    return [(left, right) for left, right, _, _ in _lines(textpage, text)]


def _lines(textpage: pdfium.PdfTextPage, text: str) -> list[tuple[float, float, float, float]]:
    """The box (left, right, bottom, top) of every occurrence of `text` on the page."""
    out: list[tuple[float, float, float, float]] = []
    search = textpage.search(text, match_case=True)
    while (found := search.get_next()) is not None:
        index, count = found
        boxes = [textpage.get_charbox(i) for i in range(index, index + count)]
        out.append(
            (
                min(b[0] for b in boxes),
                max(b[2] for b in boxes),
                min(b[1] for b in boxes),
                max(b[3] for b in boxes),
            )
        )
    return out


def test_a_narrow_detail_column_is_widened_and_its_cells_do_not_overlap() -> None:
    claims = [
        Loss(
            number=f"CL-2023-{n:05d}",
            claimant="April Moore",
            description="Slip",
            status="Open",
            paid=48_013.17,
        )
        for n in range(3)
    ]
    rec = Recorder("run", Run(claims=claims))
    pdf = PdfDocument(rec, "t", "t")
    flow = Flow(pdf, lambda flow, page: pdf.height - MARGIN)
    # The description gets a twentieth of the width: far too little for three columns.
    columns = [
        Column("CLAIM", "number", 6),
        Column("CLAIMANT", "claimant", 6),
        Column("DESC", "description", 1),
        Column("STATUS", "status", 5),
        Column("PAID", "paid", 2, "right"),
    ]
    look = TableLook(
        details={"claims[1]": Detail(("Pmt date", "Type", "Amount"), PAYMENTS)},
        detail_column="description",
    )
    table = Table(flow, "claims", columns, look=look)
    table.start()
    table.rows("claims", len(claims))
    table.finish()
    page = pdfium.PdfDocument(pdf.render())[0]
    textpage = page.get_textpage()
    for row in PAYMENTS:
        spans = [_boxes(textpage, cell) for cell in row]
        assert all(len(found) == 1 for found in spans), (row, spans)
        (date, kind, amount) = (found[0] for found in spans)
        assert date[1] + 2 < kind[0] and kind[1] + 2 < amount[0], (row, spans)
    # The sub-table stays inside its column: left of the status values.
    status = _boxes(textpage, "Open")
    assert max(_boxes(textpage, "$44,166.34")[0]) < min(left for left, _ in status)


def test_a_summary_header_apart_fits_its_columns() -> None:
    """Long headers over narrow money columns ("OUTSTANDING", "TOTAL INCURRED LOSS") wrap in
    their own column instead of running into the next one."""
    claims = [Loss(number="CL-1", claimant="A", reserve=2.0, incurred=3.0)]
    rec = Recorder(
        "run",
        Run(claims=claims, totals=Sums(paid=26_905.04, reserve=11_640.64, incurred=38_545.68)),
    )
    pdf = PdfDocument(rec, "t", "t")
    flow = Flow(pdf, lambda flow, page: pdf.height - MARGIN)
    columns = [
        Column("CLAIM", "number", 20),
        Column("CLAIMANT", "claimant", 20),
        Column("OUTSTANDING", "reserve", 2.6, "right"),
        Column("TOTAL INCURRED LOSS", "incurred", 2.6, "right"),
    ]
    table = Table(flow, "claims", columns, look=TableLook(total_apart=True))
    table.start()
    table.rows("claims", 1)
    table.totals(
        Totals("POLICY TOTAL", {"reserve": "totals.reserve", "incurred": "totals.incurred"})
    )
    table.finish()
    textpage = pdfium.PdfDocument(pdf.render())[0].get_textpage()
    assert len(_boxes(textpage, "SUMMARY")) == 1
    # Both headers (the table's and the summary's) keep every word clear of its neighbours.
    words = [
        box
        for word in ("OUTSTANDING", "TOTAL", "INCURRED", "LOSS")
        for box in _lines(textpage, word)
    ]
    assert len(words) >= 8  # and "POLICY TOTAL"
    for i, (left, right, bottom, top) in enumerate(words):
        for other in words[i + 1 :]:
            beside = min(top, other[3]) > max(bottom, other[2])  # on one line
            assert not (beside and min(right, other[1]) > max(left, other[0]) - 1), (
                (left, right, bottom, top),
                other,
            )


def test_a_total_apart_that_wraps_grows_its_row() -> None:
    """A grand total too wide for its column wraps onto a second line inside its row: what
    follows the table starts below it."""
    claims = [Loss(number="CL-1", claimant="A", reserve=2.0, incurred=3.0)]
    rec = Recorder(
        "run", Run(claims=claims, totals=Sums(shown="USD 302,529,000.00", incurred=38_545.68))
    )
    pdf = PdfDocument(rec, "t", "t")
    flow = Flow(pdf, lambda flow, page: pdf.height - MARGIN)
    columns = [
        Column("CLAIM", "number", 30),
        Column("CLAIMANT", "claimant", 30),
        Column("RESERVE", "reserve", 2, "right"),
        Column("INCURRED", "incurred", 4, "right"),
    ]
    table = Table(flow, "claims", columns, look=TableLook(total_apart=True))
    table.start()
    table.rows("claims", 1)
    table.totals(Totals("GRAND TOTAL", {"reserve": "totals.shown", "incurred": "totals.incurred"}))
    table.finish()
    after = Table(flow, "claims", [Column("NEXT SECTION", "number", 1)])
    after.start()
    after.finish()
    textpage = pdfium.PdfDocument(pdf.render())[0].get_textpage()
    (total,) = _lines(textpage, "302,529,000.00")  # wrapped under its "USD"
    (below,) = _lines(textpage, "NEXT SECTION")
    # Below the wrapped line: the row's padding, its frame, and the 6 pt after a table (in
    # a row one line high, the second line hangs out of the frame and the gap is ~6.6 pt).
    assert total[2] - below[3] > 10, (total, below)
