"""The statement of values as a landscape PDF table."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.doctypes.sov.model import StatementOfValues
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

STYLE = Style(abbreviate=True)

COLUMNS = (
    Column("Loc #", "location_number", 3, "right"),
    Column("Bldg #", "building_number", 3, "right"),
    Column("Street Address", "address.street", 15),
    Column("City", "address.city", 8),
    Column("St", "address.state", 2.6),
    Column("ZIP", "address.zip", 4.2),
    Column("Occupancy", "occupancy", 8),
    Column("Const.", "construction", 4),
    Column("Yr Built", "year_built", 3.8, "right"),
    Column("Stories", "stories", 3.5, "right"),
    Column("Sq Ft", "square_feet", 5.2, "right"),
    Column("Spr %", "sprinklered_percent", 3.7, "right"),
    Column("PC", "protection_class", 2.6, "right"),
    Column("Building", "building_value", 7.5, "right"),
    Column("Contents", "contents_value", 7.5, "right"),
    Column("BI / EE", "business_income_value", 7, "right"),
    Column("TIV", "tiv", 8, "right"),
)


def render(doc: StatementOfValues, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Statement of Values", "PB-SOV Statement of Values", wide=True)

    def header(flow: Flow, page: int) -> float:
        flow.y = title_block(
            flow,
            page,
            "STATEMENT OF VALUES",
            "PB-SOV",
            "Values at replacement cost unless stated otherwise",
        )
        flow.boxes(
            [
                Cell("Named insured", "insured_name", 3),
                Cell("Prepared by", "prepared_by", 2),
                Cell("Values as of", "as_of_date", 1),
            ]
        )
        return flow.y - 6

    flow = Flow(pdf, header)
    draw_table(
        flow,
        "buildings",
        len(doc.buildings),
        COLUMNS,
        size=6.6,
        totals=[
            (key, f"totals.{key}")
            for key in ("building_value", "contents_value", "business_income_value", "tiv")
        ],
        totals_label="GRAND TOTAL",
    )
    flow.note(
        "Construction: F frame, JM joisted masonry, NC non-combustible, MNC masonry "
        "non-combustible, MFR modified fire resistive, FR fire resistive. PC = ISO public "
        "protection class. BI / EE = business income with extra expense, 12 months."
    )
    data = pdf.render()
    return Output(data, len(pdf.pages))
