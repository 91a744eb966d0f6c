"""The schedule as our own PB-45 landscape form: identification, then one table row per
interest, its header repeated on every page."""

from __future__ import annotations

from packetbench.generator.doctypes._parties import identification_rows
from packetbench.generator.doctypes.acord_45.model import InterestSchedule
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-45 Additional Interest Schedule"
CODES = Style(abbreviate=True)
NOTE = (
    "Each interest below attaches to the item of the line shown: a building (location and "
    "building number), a whole premises (location number only) or a scheduled vehicle "
    "(vehicle number). Lines: PROP property, GL general liability, AUTO commercial auto, WC "
    "workers comp, UMB umbrella, MTC truck cargo. Cert: a certificate or evidence of "
    "insurance is to be sent to the interest (Y/N)."
)

COLUMNS = (
    Column("#", "item_number", 0.45, "right"),
    Column("Interest", "interest_type", 1.5),
    Column("Name", "name", 3.0),
    Column("Mailing address", "address.street", 2.6),
    Column("City", "address.city", 1.5),
    Column("St", "address.state", 0.4),
    Column("ZIP", "address.zip", 0.7),
    Column("Loan / lease #", "loan_number", 1.3),
    Column("Line", "line", 0.6, style=CODES),
    Column("Policy #", "policy_number", 1.2),
    Column("Loc", "location_number", 0.45, "right"),
    Column("Bldg", "building_number", 0.45, "right"),
    Column("Veh", "vehicle_number", 0.45, "right"),
    Column("Cert", "certificate_required", 0.45, "center"),
)


def render(doc: InterestSchedule, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Additional Interest Schedule", TITLE, wide=True)

    def header(flow: Flow, page: int) -> float:
        title = "ADDITIONAL INTEREST SCHEDULE" + (" (CONTINUED)" if page else "")
        flow.y = title_block(
            flow,
            page,
            title,
            "PB-45",
            "" if page else "Attached to the commercial insurance application",
        )
        identification_rows(flow, page)
        return flow.y - 6

    flow = Flow(pdf, header)
    flow.note(NOTE)
    draw_table(flow, "interests", len(doc.interests), COLUMNS, size=6.8)
    return Output(pdf.render(), len(pdf.pages))
