"""The assigned-risk section as our own PB-133 form."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_133.model import AssignedRiskSection
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import (
    address_parts,
    question_rows,
    section_title,
    signature_rows,
)
from packetbench.generator.fakers.questions import ASSIGNED_RISK_QUESTIONS
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-133 Workers Compensation Insurance Plan Section"

STATE_COLUMNS = (Column("State", "state", 1.0),)
DECLINATION_COLUMNS = (
    Column("Insurer that declined", "insurer", 3.2),
    Column("Date declined", "declined_date", 1.1),
    Column("Reason given", "reason", 4.0),
)
PLAN_NOTICE = (
    "The applicant applies for coverage under the workers compensation insurance plan, states "
    "that it has been unable to obtain coverage in the voluntary market, and agrees to pay the "
    "deposit premium shown and any premium found due on audit. Both the applicant and the "
    "producer must sign."
)


def render(doc: AssignedRiskSection, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE)

    def header(flow: Flow, page: int) -> float:
        section_title(
            flow,
            page,
            "PB-133",
            "WORKERS COMPENSATION INSURANCE PLAN SECTION",
            "Assigned-risk application, attached to the workers compensation application",
        )
        return flow.y

    flow = Flow(pdf, header)
    flow.band("Applicant")
    flow.boxes(
        [
            Cell("Applicant name", "applicant_name", 3),
            Cell("FEIN", "fein", 1),
            Cell("NCCI risk ID", "risk_id", 1),
        ]
    )
    p = "payroll_records"
    flow.boxes(
        [
            Cell("Payroll records kept by", f"{p}.contact_name", 1.6),
            Cell("Phone", f"{p}.phone", 1.1),
            Cell("Payroll records address", parts=address_parts(f"{p}.address"), weight=3.5),
        ]
    )
    flow.boxes(
        [
            Cell("State with the highest payroll", "highest_payroll_state", 1),
            Cell(
                "Estimated annual premium, all states",
                "estimated_annual_premium",
                1.3,
                align="right",
            ),
            Cell("Deposit premium submitted", "deposit_premium", 1.1, align="right"),
        ]
    )
    flow.band("States requested", keep_with=30)
    draw_table(flow, "states", len(doc.states), STATE_COLUMNS, size=7.0)
    flow.band("Offers of voluntary coverage declined", keep_with=40)
    draw_table(flow, "declinations", len(doc.declinations), DECLINATION_COLUMNS, size=7.0)
    flow.band("Plan questions", keep_with=40)
    question_rows(flow, "plan_questions", ASSIGNED_RISK_QUESTIONS)
    signature_rows(flow, PLAN_NOTICE)
    return Output(pdf.render(), len(pdf.pages))
