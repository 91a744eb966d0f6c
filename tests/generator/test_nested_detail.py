"""A nested sub-table (table.nested's payments) in a narrow column: the column is widened to
the sub-table, whose columns are each as wide as their widest text, so no two cells overlap."""

from __future__ import annotations

import pypdfium2 as pdfium
from pydantic import Field

from generator.leaves import DocModel, Money, Str
from generator.render.layout import Column, Flow
from generator.render.pdf import MARGIN, PdfDocument
from generator.render.record import Recorder
from generator.render.table import Detail, Table, TableLook

PAYMENTS = (("05/22/2024", "Expense", "$512.46"), ("07/04/2024", "Legal", "$3,334.37"),
            ("04/07/2025", "Indemnity", "$44,166.34"))


class Claim(DocModel):
    number: Str = None
    claimant: Str = None
    description: Str = None
    status: Str = None
    paid: Money = None


class Run(DocModel):
    claims: list[Claim] = Field(default_factory=list)


def _boxes(textpage: pdfium.PdfTextPage, text: str) -> list[tuple[float, float]]:
    """The horizontal extent of every occurrence of `text` on the page."""
    out, search = [], textpage.search(text, match_case=True)
    while (found := search.get_next()) is not None:
        index, count = found
        boxes = [textpage.get_charbox(i) for i in range(index, index + count)]
        out.append((min(b[0] for b in boxes), max(b[2] for b in boxes)))
    return out


def test_a_narrow_detail_column_is_widened_and_its_cells_do_not_overlap() -> None:
    claims = [Claim(number=f"CL-2023-{n:05d}", claimant="April Moore", description="Slip",
                    status="Open", paid=48_013.17) for n in range(3)]
    rec = Recorder("run", Run(claims=claims))
    pdf = PdfDocument(rec, "t", "t")
    flow = Flow(pdf, lambda flow, page: pdf.height - MARGIN)
    # The description gets a twentieth of the width: far too little for three columns.
    columns = [Column("CLAIM", "number", 6), Column("CLAIMANT", "claimant", 6),
               Column("DESC", "description", 1), Column("STATUS", "status", 5),
               Column("PAID", "paid", 2, "right")]
    look = TableLook(details={"claims[1]": Detail(("Pmt date", "Type", "Amount"), PAYMENTS)},
                     detail_column="description")
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
