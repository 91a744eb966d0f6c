"""The remarks as our own PB-101 form: identification, the form continued, the holder's
status, the schedule of forms and the schedule of premises."""

from __future__ import annotations

from packetbench.generator.doctypes._parties import identification_rows
from packetbench.generator.doctypes.acord_75.pdf import FORM_COLUMNS, LINE_LEGEND
from packetbench.generator.doctypes.acord_101.model import RemarksSchedule
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-101 Additional Remarks Schedule"
PREMISES_COLUMNS = (
    Column("Loc #", "location_number", 0.6, "right"),
    Column("Street", "address.street", 4.0),
    Column("City", "address.city", 2.4),
    Column("State", "address.state", 0.6),
    Column("ZIP", "address.zip", 1.0),
)


def render(doc: RemarksSchedule, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Additional Remarks Schedule", TITLE)

    def header(flow: Flow, page: int) -> float:
        title = "ADDITIONAL REMARKS SCHEDULE" + (" (CONTINUED)" if page else "")
        flow.y = title_block(flow, page, title, "PB-101")
        identification_rows(flow, page)
        return flow.y - 4

    flow = Flow(pdf, header)
    flow.boxes(
        [Cell("Form number continued", "form_number", 1), Cell("Form title", "form_title", 3)]
    )
    flow.band("Additional remarks", keep_with=60)
    flow.boxes(
        [
            Cell("Certificate holder", "holder_name", 3),
            Cell("Additional insured (Y/N)", "additional_insured", 1, align="center"),
            Cell("Subrogation waived (Y/N)", "subrogation_waived", 1, align="center"),
        ]
    )
    flow.paragraph("Remarks", "remarks", size=7.0)
    flow.band("Schedule of forms and endorsements of the lines certified", keep_with=40)
    draw_table(flow, "forms", len(doc.forms), FORM_COLUMNS)
    flow.note(LINE_LEGEND)
    flow.band("Schedule of premises of the named insured", keep_with=40)
    draw_table(flow, "premises", len(doc.premises), PREMISES_COLUMNS)
    return Output(pdf.render(), len(pdf.pages))
