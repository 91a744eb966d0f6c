"""The additional premises schedule as our own PB-823 form."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_823.model import AdditionalPremisesSchedule
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import section_title
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-823 Additional Premises Schedule"

COLUMNS = (
    Column("Loc #", "location_number", 0.5, "right"),
    Column("Bldg #", "building_number", 0.5, "right"),
    Column("Street", "address.street", 2.0),
    Column("City", "address.city", 1.3),
    Column("County", "county", 1.0),
    Column("St", "address.state", 0.4),
    Column("ZIP", "address.zip", 0.7),
    Column("Interest", "interest", 0.8),
    Column("FT emp.", "full_time_employees", 0.6, "right"),
    Column("PT emp.", "part_time_employees", 0.6, "right"),
    Column("Annual revenue", "annual_revenue", 1.2, "right"),
    Column("Occupied area (sq ft)", "occupied_area", 1.0, "right"),
    Column("Operations at this premises", "operations", 3.2),
)


def render(doc: AdditionalPremisesSchedule, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE, wide=True)

    def header(flow: Flow, page: int) -> float:
        section_title(
            flow,
            page,
            "PB-823",
            "ADDITIONAL PREMISES SCHEDULE",
            "Continues the premises information of the commercial application (PB-125)",
        )
        return flow.y

    flow = Flow(pdf, header)
    flow.boxes(
        [
            Cell("Total number of premises", "premises_count", 1, align="right"),
            Cell("Premises 1-4 are on the application; the others follow", None, 5),
        ],
        height=19,
    )
    flow.gap(4)
    draw_table(flow, "premises", len(doc.premises), COLUMNS, size=6.4, header_size=5.6)
    return Output(pdf.render(), len(pdf.pages))
