"""The binder as our own PB-75 form: parties and binder period, the lines bound with their
premiums, a block of terms per line, the expiring policies, forms and interests."""

from __future__ import annotations

from packetbench.generator.doctypes._parties import (
    certificate_flow,
    company_row,
    insured_rows,
    producer_rows,
)
from packetbench.generator.doctypes.acord_75.model import INTEREST_ROWS, Binder
from packetbench.generator.doctypes.base import Output
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

CODES = Style(abbreviate=True)
TEMPORARY = (
    "This binder is a temporary insurance contract, subject to the conditions of the policies "
    "in current use by the company. It ends when the policies issue, at its expiration date, "
    "or on notice of cancellation from the company or the named insured."
)
INTERESTS_NOTE = (
    "The form has room for {rows} additional interests; every interest of the program is listed "
    "on the attached PB-45 Additional Interest Schedule under the same item number."
)

LINE_LEGEND = (
    "Lines: PROP property, GL general liability, AUTO commercial auto, WC workers "
    "comp, UMB umbrella, MTC truck cargo."
)

LINE_COLUMNS = (
    Column("Line of business", "line", 3.0),
    Column("Policy number", "policy_number", 2.0),
    Column("Annual premium", "premium", 1.6, "right"),
)
EXPIRING_COLUMNS = (
    Column("Line of business", "line", 2.4),
    Column("Expiring carrier", "carrier", 3.6),
    Column("Expiring policy #", "policy_number", 1.8),
    Column("Expires", "expiration_date", 1.1),
)
FORM_COLUMNS = (
    Column("Line", "line", 0.7, style=CODES),
    Column("Form number", "form_number", 1.3),
    Column("Edition", "edition", 0.7),
    Column("Title", "title", 6.0),
)
INTEREST_COLUMNS = (
    Column("Item #", "item_number", 0.7, "right"),
    Column("Interest", "interest_type", 1.8),
    Column("Name", "name", 4.0),
    Column("Loan / lease #", "loan_number", 1.6),
    Column("Line", "line", 0.8, style=CODES),
)


def _terms(flow: Flow) -> None:
    p, g, a, w, u, c = (
        "property",
        "general_liability",
        "automobile",
        "workers_comp",
        "umbrella",
        "cargo",
    )
    flow.band("Commercial property (limits of the statement of values)", keep_with=22)
    flow.boxes(
        [
            Cell("Buildings scheduled", f"{p}.premises_count", 0.8, align="right"),
            Cell("Building limits", f"{p}.building_limit", align="right"),
            Cell("Personal property limits", f"{p}.personal_property_limit", align="right"),
            Cell("Business income limits", f"{p}.business_income_limit", align="right"),
        ]
    )
    flow.band("Commercial general liability", keep_with=42)
    flow.boxes(
        [
            Cell("Coverage trigger", f"{g}.trigger"),
            Cell("Retroactive date", f"{g}.retroactive_date"),
            Cell("Deductible", f"{g}.deductible", align="right"),
            Cell("Each occurrence", f"{g}.each_occurrence", align="right"),
        ]
    )
    flow.boxes(
        [
            Cell("General aggregate", f"{g}.general_aggregate", align="right"),
            Cell("Products - comp/op agg", f"{g}.products_aggregate", align="right"),
            Cell("Personal & adv injury", f"{g}.personal_advertising", align="right"),
            Cell("Damage to rented premises", f"{g}.damage_to_premises", align="right"),
            Cell("Medical expense", f"{g}.medical_expense", align="right"),
        ]
    )
    flow.band("Business auto", keep_with=22)
    flow.boxes(
        [
            Cell("Combined single limit", f"{a}.combined_single_limit", align="right"),
            Cell("Medical payments", f"{a}.medical_payments_limit", align="right"),
            Cell("Vehicles scheduled", f"{a}.vehicle_count", 0.8, align="right"),
            Checks(
                "Liability also covers",
                (("Hired autos", f"{a}.hired_autos"), ("Non-owned autos", f"{a}.non_owned_autos")),
                1.6,
            ),
        ]
    )
    flow.band("Workers compensation and employers' liability", keep_with=22)
    flow.boxes(
        [
            Cell("E.L. each accident", f"{w}.each_accident", align="right"),
            Cell("E.L. disease - each employee", f"{w}.disease_each_employee", align="right"),
            Cell("E.L. disease - policy limit", f"{w}.disease_policy_limit", align="right"),
            Cell("Experience mod", f"{w}.experience_mod", 0.8, align="right"),
        ]
    )
    flow.band("Umbrella / excess liability", keep_with=22)
    flow.boxes(
        [
            Cell("Form", f"{u}.form"),
            Cell("Each occurrence", f"{u}.each_occurrence", align="right"),
            Cell("Aggregate", f"{u}.aggregate", align="right"),
            Cell("Retention", f"{u}.retention", align="right"),
        ]
    )
    flow.band("Motor truck cargo", keep_with=22)
    flow.boxes(
        [
            Cell("Limit any one vehicle", f"{c}.limit_per_vehicle", align="right"),
            Cell("Limit any one occurrence", f"{c}.limit_per_occurrence", align="right"),
            Cell("Deductible", f"{c}.deductible", align="right"),
        ]
    )


def render(doc: Binder, rec: Recorder) -> Output:
    flow = certificate_flow(
        rec,
        "PB-75",
        "Insurance Binder",
        lambda page: [
            Cell("Binder number", "binder_number", 1.2),
            Cell("Date issued", "issued_date", 1),
            Cell("Named insured", "insured.name", 3),
        ],
    )
    pdf = flow.pdf
    flow.note(TEMPORARY)
    flow.band("Agency", keep_with=63)
    producer_rows(flow)
    flow.band("Company and named insured", keep_with=42)
    company_row(flow)
    insured_rows(flow, label="Named insured")
    flow.paragraph("Description of operations", "description_of_operations", size=7.0)
    flow.band("Binder period", keep_with=22)
    flow.boxes(
        [
            Cell("Effective date", "effective_date"),
            Cell("Time", "effective_time", 0.7),
            Cell("Binder expires", "expiration_date"),
            Cell("Policy term expires", "policy_expiration_date"),
        ]
    )
    flow.band("Lines of business bound", keep_with=40)
    draw_table(
        flow,
        "lines",
        len(doc.lines),
        LINE_COLUMNS,
        totals=(("premium", "estimated_premium"),),
        totals_label="ESTIMATED PREMIUM",
    )
    _terms(flow)
    flow.band("Expiring policies replaced", keep_with=30)
    draw_table(flow, "expiring", len(doc.expiring), EXPIRING_COLUMNS)
    flow.band("Forms and endorsements", keep_with=40)
    draw_table(flow, "forms", len(doc.forms), FORM_COLUMNS)
    flow.note(LINE_LEGEND)
    flow.band("Additional interests", keep_with=40)
    flow.boxes([Cell("Number of additional interests on the program", "interest_count")], height=19)
    draw_table(flow, "interests", len(doc.interests), INTEREST_COLUMNS)
    flow.note(INTERESTS_NOTE.format(rows=INTEREST_ROWS))
    flow.band("Authorized representative", keep_with=30)
    flow.boxes(
        [
            Cell("Signature", None, 2),
            Cell("Authorized representative", "authorized_representative", 2),
        ],
        height=26,
    )
    return Output(pdf.render(), len(pdf.pages))
