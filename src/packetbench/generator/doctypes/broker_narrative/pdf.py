"""The cover letter as a PDF: letterhead, addressee, then sections of running prose.

Every sentence comes from `templates/prose/broker_narrative/` in the wording the packet's
seed chooses; the requested program is also set out as a table.
"""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.broker_narrative.model import BrokerNarrative
from packetbench.generator.doctypes.common import address_parts
from packetbench.generator.render import prose
from packetbench.generator.render.layout import Flow, Lit
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

NAME = "broker_narrative"
LINE_COLUMNS = (
    Column("Line of business", "line", 3.2),
    Column("Limit requested", "requested_limit", 2.4, "right"),
    Column("Deductible", "deductible", 1.8, "right"),
    Column("Expiring carrier", "expiring_carrier", 4.6),
    Column("Expiring policy #", "expiring_policy_number", 2.6),
    Column("Expiring premium", "expiring_premium", 2.2, "right"),
)


def heading(flow: Flow, text: str) -> None:
    """A bold section title, kept with the first lines below it."""
    flow.need(48)
    flow.gap(4)
    flow.pdf.text(flow.page, MARGIN + 2.5, flow.y - 10, text, BOLD, 10)
    flow.y -= 16


def paragraphs(flow: Flow, rec: Recorder, name: str, font: str = REGULAR) -> None:
    for paragraph in prose.write(rec, f"{NAME}/{name}"):
        flow.prose(paragraph, font=font)


def bullets(flow: Flow, paths: list[str], after: float = 2.0) -> None:
    for path in paths:
        flow.need(12)
        flow.pdf.text(flow.page, MARGIN + 8, flow.y - 8.5, "-", REGULAR, 8.5)
        flow.prose((path,), indent=14, after=after)


def render(doc: BrokerNarrative, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Submission letter", "Submission cover letter - confidential")

    def header(flow: Flow, page: int) -> float:
        top = pdf.height - MARGIN
        if page == 0:
            pdf.field(
                page,
                MARGIN + 2.5,
                top - 14,
                "letter.agency_name",
                width=flow.cw,
                font=BOLD,
                size=15,
            )
            flow.y = top - 22
            flow.prose(
                (*address_parts("letter.agency_address"), Lit(" | Tel. "), "letter.phone"),
                size=8,
                after=0,
            )
            pdf.line(page, MARGIN, flow.y - 2, MARGIN + flow.cw, flow.y - 2, 1.0)
            return flow.y - 14
        pdf.text(page, MARGIN + 2.5, top - 10, "Submission letter (continued)", BOLD, 9)
        pdf.line(page, MARGIN, top - 15, MARGIN + flow.cw, top - 15, 0.6)
        return top - 26

    flow = Flow(pdf, header)
    flow.prose(("letter.letter_date",), after=10)
    for path in ("letter.underwriter_name", "letter.carrier_name", "letter.underwriter_office"):
        flow.prose((path,), after=0.5)
    flow.gap(10)
    paragraphs(flow, rec, "subject", font=BOLD)
    flow.gap(4)
    paragraphs(flow, rec, "greeting")
    heading(flow, "Account overview")
    paragraphs(flow, rec, "overview")
    heading(flow, "Operations")
    flow.prose(("account.operations",))
    heading(flow, "Program requested")
    paragraphs(flow, rec, "program")
    draw_table(flow, "program.lines", len(doc.program.lines), LINE_COLUMNS)
    paragraphs(flow, rec, "target")
    heading(flow, "Loss history")
    paragraphs(flow, rec, "losses")
    heading(flow, "Marketing")
    paragraphs(flow, rec, "marketing")
    heading(flow, "Account highlights")
    bullets(flow, [f"highlights[{i}].text" for i in range(len(doc.highlights))])
    heading(flow, "Enclosures")
    bullets(flow, [f"attachments[{i}].title" for i in range(len(doc.attachments))], after=0.5)
    flow.gap(8)
    paragraphs(flow, rec, "closing")
    flow.need(70)
    flow.pdf.text(flow.page, MARGIN + 2.5, flow.y - 9, "Sincerely,", REGULAR, 8.5)
    flow.y -= 40
    for path in ("letter.producer_name", "letter.agency_name", "letter.email"):
        flow.prose((path,), after=0.5)
    return Output(pdf.render(), len(pdf.pages))
