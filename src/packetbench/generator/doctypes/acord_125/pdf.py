"""The application as our own PB-125 form: labelled boxes, checkbox grids, Y/N rows, tables."""

from __future__ import annotations

from packetbench.core import codes
from packetbench.generator.doctypes.acord_125.model import (
    PRIOR_YEARS,
    CommercialApplication,
    code_field,
)
from packetbench.generator.doctypes.acord_125.widgets import (
    GridColumn,
    Group,
    LineCell,
    grouped_grid,
    line_row,
)
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts, title_block
from packetbench.generator.fakers.insurance import QUESTIONS
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import PAD, Cell, Checks, Flow
from packetbench.generator.render.metrics import BOLD, MARGIN
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-125 Commercial Insurance Application - Applicant Information"
ABBREVIATED = Style(abbreviate=True)

LINE_LABELS = {
    "Commercial Property": "Property",
    "General Liability": "General Liability",
    "Commercial Auto": "Commercial Auto",
    "Workers Compensation": "Workers Comp",
    "Umbrella": "Umbrella",
    "Motor Truck Cargo": "Truck Cargo",
}
PRIOR_LINE_LABELS = (
    ("commercial_property", "Property"),
    ("general_liability", "General Liability"),
    ("commercial_auto", "Auto"),
)

CONTACT_COLUMNS = (
    Column("Contact type", "role", 2),
    Column("Name", "name", 3),
    Column("Phone", "phone", 2),
    Column("E-mail", "email", 4),
)

LOSS_COLUMNS = (
    Column("Date of loss", "loss_date", 1.3),
    Column("Line", "line", 0.9, style=ABBREVIATED),
    Column("Description of loss", "description", 4.2),
    Column("Amount paid", "paid", 1.4, "right"),
    Column("Amount reserved", "reserved", 1.4, "right"),
    Column("Open", "open", 0.7),
)

PRIOR_COLUMNS = (
    GridColumn("Year", 0.7),
    GridColumn("Line", 1.4),
    GridColumn("Carrier", 4.0),
    GridColumn("Policy number", 1.9),
    GridColumn("Total premium", 1.4, "right"),
    GridColumn("Effective", 1.2),
    GridColumn("Expiration", 1.2),
)
PRIOR_KEYS = ("carrier", "policy_number", "premium", "effective_date", "expiration_date")

NOTICE = (
    "The applicant states that the information in this application is true and complete to the "
    "best of its knowledge, and understands that the carrier relies on it in deciding whether "
    "and on what terms to offer insurance. Signing does not bind coverage."
)


def _checks(group: str, code_list: codes.CodeList) -> list[tuple[str, str]]:
    return [(value, f"{group}.{code_field(value)}") for value in code_list.values]


def _header(flow: Flow, page: int) -> float:
    flow.y = title_block(
        flow, page, "COMMERCIAL INSURANCE APPLICATION", "PB-125", "Applicant information section"
    )
    if page > 0:
        flow.boxes(
            [
                Cell("Applicant (continued)", "applicant.name", 3),
                Cell("Policy number", "carrier.policy_number", 1.4),
                Cell("Effective date", "policy.effective_date", 1),
            ],
            height=19,
        )
        flow.gap(4)
    return flow.y


def _agency_carrier(flow: Flow) -> None:
    flow.band("Agency and carrier")
    flow.boxes(
        [
            Cell("Agency", "agency.name", 3),
            Cell("Agency code", "agency.agency_code"),
            Cell("Agency customer ID", "agency.customer_id"),
        ]
    )
    flow.boxes(
        [
            Cell("Agency mailing address", parts=address_parts("agency.address"), weight=3),
            Cell("Contact name", "agency.contact_name", 2),
        ]
    )
    flow.boxes(
        [
            Cell("Phone (A/C, No, Ext)", "agency.phone"),
            Cell("Fax", "agency.fax"),
            Cell("E-mail address", "agency.email", 2),
        ]
    )
    flow.boxes(
        [
            Cell("Carrier", "carrier.name", 3),
            Cell("NAIC code", "carrier.naic_code", 0.8),
            Cell("Policy number", "carrier.policy_number", 1.2),
        ]
    )
    flow.boxes(
        [
            Cell("Underwriter", "carrier.underwriter", 2),
            Cell("Underwriter office", "carrier.underwriter_office", 2),
            Cell("Date completed", "carrier.completion_date", 1),
        ]
    )


def _lines_and_policy(flow: Flow) -> None:
    flow.band("Status of transaction", keep_with=14)
    flow.checks(_checks("transaction_status", codes.TRANSACTION_STATUS), columns=6)
    flow.band("Lines of business", keep_with=40)
    line_row(
        flow,
        [
            LineCell(
                LINE_LABELS[line],
                f"lines_of_business.{code_field(line)}.selected",
                f"lines_of_business.{code_field(line)}.premium",
            )
            for line in codes.LOSS_LINE.values
        ],
    )
    flow.checks(
        [
            ("Statement of values", "attachments.statement_of_values"),
            ("Loss runs", "attachments.loss_runs"),
            ("Driver schedule", "attachments.driver_schedule"),
            ("Financial statements", "attachments.financial_statements"),
        ],
        columns=4,
        label="Attachments",
    )
    flow.band("Policy information")
    flow.boxes(
        [
            Cell("Proposed effective date", "policy.effective_date"),
            Cell("Proposed expiration date", "policy.expiration_date"),
            Checks(
                "Billing",
                (("Direct", "policy.direct_bill"), ("Agency", "policy.agency_bill")),
                weight=1.2,
            ),
            Cell("Payment plan", "policy.payment_plan"),
            Cell("Audit", "policy.audit_frequency"),
        ]
    )
    flow.boxes(
        [
            Cell("Deposit", "policy.deposit", align="right"),
            Cell("Minimum premium", "policy.minimum_premium", align="right"),
            Cell("Total estimated premium", "policy.estimated_premium", align="right"),
        ]
    )


def _applicant(flow: Flow, doc: CommercialApplication) -> None:
    flow.band("Applicant information", keep_with=80)
    flow.boxes(
        [
            Cell("Name (first named insured)", "applicant.name", 3),
            Cell("Doing business as", "applicant.dba", 2),
        ]
    )
    flow.boxes(
        [
            Cell("Mailing address", parts=address_parts("applicant.mailing_address"), weight=3),
            Cell("Business phone", "applicant.phone", 1.1),
            Cell("Website", "applicant.website", 1.6),
        ]
    )
    flow.boxes(
        [
            Cell("FEIN", "applicant.fein", 1.2),
            Cell("SIC", "applicant.sic", 0.8),
            Cell("NAICS", "applicant.naics", 0.8),
            Cell("GL code", "applicant.gl_code", 0.8),
            Cell("Business started", "applicant.business_start_date", 1.1),
        ]
    )
    flow.checks(
        _checks("applicant.legal_entity", codes.ENTITY_TYPE), columns=4, label="Legal entity"
    )
    flow.band("Contact information", keep_with=40)
    draw_table(flow, "contacts", len(doc.contacts), CONTACT_COLUMNS, size=7.0)


def _premises(flow: Flow, doc: CommercialApplication) -> None:
    flow.band("Premises information", keep_with=70)
    truncated = (doc.premises_count or 0) > len(doc.premises)
    flow.boxes(
        [
            Cell("Total number of premises", "premises_count", 1, align="right"),
            Cell(
                "Premises beyond the first four: see attached statement of values"
                if truncated
                else "Every premises is described below",
                None,
                4,
            ),
        ],
        height=19,
    )
    for index in range(len(doc.premises)):
        p = f"premises[{index}]"
        flow.need(21 * 2 + 26)  # a premises block never splits across pages
        flow.boxes(
            [
                Cell("Loc #", f"{p}.location_number", 0.5),
                Cell("Bldg #", f"{p}.building_number", 0.5),
                Cell("Street", f"{p}.address.street", 3),
                Cell("City", f"{p}.address.city", 1.8),
                Cell("State", f"{p}.address.state", 0.5),
                Cell("ZIP", f"{p}.address.zip", 0.8),
            ]
        )
        flow.boxes(
            [
                Checks("Interest", (("Owner", f"{p}.owner"), ("Tenant", f"{p}.tenant")), 1.3),
                Cell("Full-time employees", f"{p}.full_time_employees", align="right"),
                Cell("Part-time employees", f"{p}.part_time_employees", align="right"),
                Cell("Annual revenue", f"{p}.annual_revenue", 1.2, align="right"),
                Cell("Occupied area (sq ft)", f"{p}.occupied_area", align="right"),
            ]
        )
        flow.paragraph("Operations at this premises", f"{p}.operations", size=7.0)
        flow.gap(3)


def _nature(flow: Flow) -> None:
    flow.band("Nature of business", keep_with=60)
    flow.checks(_checks("nature_of_business", codes.NATURE_OF_BUSINESS), columns=5)
    flow.paragraph("Description of primary operations", "nature_of_business.operations_description")


def _general_information(flow: Flow) -> None:
    flow.band("General information", keep_with=40)
    pdf = flow.pdf
    flow.need(10)
    q_width = flow.cw * 0.52  # the column split of Flow.questions
    baseline = flow.y - 7
    pdf.text(flow.page, MARGIN + PAD, baseline, "QUESTION", BOLD, 5.5)
    pdf.text(flow.page, MARGIN + q_width + 11, baseline, "Y/N", BOLD, 5.5, align="center")
    pdf.text(
        flow.page, MARGIN + q_width + 22 + PAD, baseline, "EXPLANATION OF ANY YES ANSWER", BOLD, 5.5
    )
    flow.gap(10)
    pdf.line(flow.page, MARGIN, flow.y + 1, MARGIN + flow.cw, flow.y + 1, 0.4)
    flow.questions(
        [
            (
                q.text,
                f"general_information.{q.id}.answer",
                f"general_information.{q.id}.explanation",
            )
            for q in QUESTIONS
        ]
    )
    flow.gap(6)


def _prior_carriers(flow: Flow, doc: CommercialApplication) -> None:
    flow.band("Prior carrier information (three most recent policy years)", keep_with=50)
    groups: list[Group] = []
    for index in range(PRIOR_YEARS):
        present = index < len(doc.prior_carriers)
        y = f"prior_carriers[{index}]"
        groups.append(
            (
                f"{y}.year" if present else None,
                [
                    (label, [f"{y}.{line}.{key}" if present else None for key in PRIOR_KEYS])
                    for line, label in PRIOR_LINE_LABELS
                ],
            )
        )
    grouped_grid(flow, PRIOR_COLUMNS, groups)


def _losses(flow: Flow, doc: CommercialApplication) -> None:
    flow.band("Loss history (largest losses, last five years)", keep_with=50)
    flow.checks(
        [("No prior losses in the last five years", "loss_history.no_prior_losses")], columns=2
    )
    draw_table(flow, "loss_history.losses", len(doc.loss_history.losses), LOSS_COLUMNS, size=7.0)
    flow.y += 6  # close up the table's trailing gap: the total belongs to it
    # The total's box spans the amount columns it sums.
    flow.boxes(
        [
            Cell(
                "Line: PROP property, GL general liability, AUTO commercial auto, "
                "WC workers comp, UMB umbrella, MTC truck cargo",
                None,
                6.4,
            ),
            Cell(
                "Total incurred of losses listed (paid + reserved)",
                "loss_history.total_incurred",
                3.5,
                align="right",
            ),
        ],
        height=19,
    )
    flow.gap(6)


def _signatures(flow: Flow) -> None:
    flow.band("Signatures", keep_with=70)
    flow.note(NOTICE, size=6.8)
    flow.boxes(
        [
            Cell("Applicant's signature", None, 2.6),
            Cell("Printed name", "signature.applicant_signer", 2),
            Cell("Date", "signature.signature_date", 1),
        ],
        height=26,
    )
    flow.boxes(
        [
            Cell("Producer's signature", None, 2),
            Cell("Producer name", "signature.producer_name", 1.8),
            Cell("State licence #", "signature.producer_license_number", 1.1),
            Cell("National producer # (NPN)", "signature.producer_npn", 1.1),
            Cell("Date", "signature.signature_date", 0.8),
        ],
        height=26,
    )


def render(doc: CommercialApplication, rec: Recorder) -> Output:
    """Lay out every section of the form and emit the PDF."""
    pdf = PdfDocument(rec, TITLE, TITLE)
    flow = Flow(pdf, _header)
    _agency_carrier(flow)
    _lines_and_policy(flow)
    _applicant(flow, doc)
    flow.new_page()
    _premises(flow, doc)
    _nature(flow)
    flow.new_page()
    _general_information(flow)
    _prior_carriers(flow, doc)
    _losses(flow, doc)
    _signatures(flow)
    return Output(pdf.render(), len(pdf.pages))
