"""The WC application as our own PB-130 form."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_130.model import WorkersCompApplication
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import (
    NOTICE,
    address_parts,
    question_rows,
    section_title,
    signature_rows,
)
from packetbench.generator.fakers.questions import WC_QUESTIONS
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-130 Workers Compensation Application"
CODES = Style(abbreviate=True)

LOCATION_COLUMNS = (
    Column("Loc #", "location_number", 0.6, "right"),
    Column("Street", "address.street", 3.2),
    Column("City", "address.city", 2.0),
    Column("County", "county", 1.4),
    Column("State", "address.state", 0.6),
    Column("ZIP", "address.zip", 0.9),
)

INDIVIDUAL_COLUMNS = (
    Column("Name", "name", 2.0),
    Column("Title", "title", 1.6),
    Column("Date of birth", "birth_date", 1.1),
    Column("Own. %", "ownership_percent", 0.7, "right"),
    Column("Duties", "duties", 2.6),
    Column("Incl./Excl.", "inclusion", 0.9),
    Column("State", "state", 0.6),
    Column("Class", "class_code", 0.6),
    Column("Remuneration", "remuneration", 1.3, "right"),
)
RATING_COLUMNS = (
    Column("State", "state", 0.6),
    Column("Class code", "class_code", 0.8),
    Column("Description", "description", 3.8),
    Column("FT emp.", "full_time_employees", 0.7, "right"),
    Column("PT emp.", "part_time_employees", 0.7, "right"),
    Column("Estimated annual payroll", "payroll", 1.6, "right"),
    Column("Rate per $100", "rate", 0.9, "right"),
    Column("Estimated manual premium", "manual_premium", 1.6, "right"),
)
STATE_COLUMNS = (
    Column("State", "state", 0.6),
    Column("Manual premium", "manual_premium", 1.4, "right"),
    Column("Exp. mod", "experience_mod", 0.8, "right"),
    Column("Modified premium", "modified_premium", 1.4, "right"),
    Column("Disc. %", "discount_percent", 0.7, "right"),
    Column("Premium discount", "premium_discount", 1.2, "right"),
    Column("Expense constant", "expense_constant", 1.1, "right"),
    Column("Terr. rate", "terrorism_rate", 0.8, "right"),
    Column("Terrorism premium", "terrorism_premium", 1.2, "right"),
    Column("Estimated premium", "estimated_premium", 1.4, "right"),
)
EXCLUDED_COLUMNS = (Column("State (monopolistic state fund)", "state", 1.0),)
PRIOR_COLUMNS = (
    Column("Year", "year", 0.6, "right"),
    Column("Carrier", "carrier", 3.4),
    Column("Policy number", "policy_number", 1.5),
    Column("Annual premium", "premium", 1.3, "right"),
    Column("Claims", "claim_count", 0.7, "right"),
    Column("Amount paid", "amount_paid", 1.3, "right"),
    Column("Reserve", "amount_reserved", 1.3, "right"),
)


def render(doc: WorkersCompApplication, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE)

    def header(flow: Flow, page: int) -> float:
        section_title(
            flow,
            page,
            "PB-130",
            "WORKERS COMPENSATION APPLICATION",
            "Employers liability, rating by state and class, individuals, history",
        )
        return flow.y

    flow = Flow(pdf, header)
    a = "applicant"
    flow.band("Applicant")
    flow.boxes(
        [
            Cell("Applicant name", f"{a}.name", 3),
            Cell("Mailing address", parts=address_parts(f"{a}.mailing_address"), weight=3.5),
        ]
    )
    flow.boxes(
        [
            Cell("FEIN", f"{a}.fein"),
            Cell("SIC", f"{a}.sic", 0.6),
            Cell("NAICS", f"{a}.naics", 0.7),
            Cell("Business started", f"{a}.business_start_date"),
            Cell("Legal entity", f"{a}.entity_type", 1.6),
            Cell("NCCI risk ID", f"{a}.risk_id"),
        ]
    )
    s = "status"
    flow.boxes(
        [
            Checks(
                "Market",
                (("Voluntary", f"{s}.voluntary"), ("Assigned risk", f"{s}.assigned_risk")),
                1.5,
            ),
            Checks(
                "Billing", (("Direct", f"{s}.direct_bill"), ("Agency", f"{s}.agency_bill")), 1.2
            ),
            Cell("Payment plan", f"{s}.payment_plan"),
            Cell("Audit", f"{s}.audit_frequency"),
        ]
    )
    flow.band("Locations", keep_with=40)
    draw_table(flow, "locations", len(doc.locations), LOCATION_COLUMNS, size=6.8)
    if doc.excluded_states:
        flow.note(
            "Employees at locations in these states are covered by the state fund, "
            "not by this policy:"
        )
        draw_table(flow, "excluded_states", len(doc.excluded_states), EXCLUDED_COLUMNS, size=6.8)
    e = "employers_liability"
    flow.band("Employers liability (part two) and experience rating")
    flow.boxes(
        [
            Cell("Each accident", f"{e}.each_accident", align="right"),
            Cell("Disease - policy limit", f"{e}.disease_policy_limit", align="right"),
            Cell("Disease - each employee", f"{e}.disease_each_employee", align="right"),
            Cell("Experience mod", f"{e}.experience_mod", 0.8, align="right"),
            Cell("Mod effective date", f"{e}.mod_effective_date", 0.9),
        ]
    )
    flow.band("Individuals included / excluded", keep_with=40)
    draw_table(flow, "individuals", len(doc.individuals), INDIVIDUAL_COLUMNS, size=6.6)
    flow.band("State rating worksheet", keep_with=60)
    draw_table(flow, "rating", len(doc.rating), RATING_COLUMNS, size=6.6)
    flow.band("Premium by state", keep_with=50)
    draw_table(flow, "state_premiums", len(doc.state_premiums), STATE_COLUMNS, size=6.6)
    flow.boxes(
        [
            Cell(
                "Total estimated annual premium, all states",
                "premium.estimated_annual_premium",
                1.5,
                align="right",
            ),
            Cell("Minimum premium", "premium.minimum_premium", align="right"),
            Cell("Deposit premium", "premium.deposit_premium", align="right"),
        ]
    )
    flow.gap(6)
    flow.band("Prior carrier and loss history", keep_with=40)
    if doc.prior_coverage:
        draw_table(flow, "prior_coverage", len(doc.prior_coverage), PRIOR_COLUMNS, size=6.8)
    else:
        flow.note("No prior workers compensation coverage reported.")
    flow.band("Nature of business", keep_with=40)
    flow.paragraph("Description of operations", "operations_description", size=7.0)
    flow.gap(4)
    flow.band("General information", keep_with=40)
    question_rows(flow, "general_information", WC_QUESTIONS)
    signature_rows(flow, NOTICE)
    return Output(pdf.render(), len(pdf.pages))
