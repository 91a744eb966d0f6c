"""The BOP section as our own PB-160 form."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_160.model import BusinessownersSection
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import (
    NOTICE,
    question_rows,
    section_title,
    signature_rows,
)
from packetbench.generator.fakers.questions import BOP_QUESTIONS
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-160 Businessowners Section"
CODES = Style(abbreviate=True)

DESCRIPTION_COLUMNS = (
    Column("Loc", "location_number", 0.5, "right"),
    Column("Bldg", "building_number", 0.5, "right"),
    Column("Street", "address.street", 2.6),
    Column("City", "address.city", 1.5),
    Column("St", "address.state", 0.45),
    Column("ZIP", "address.zip", 0.8),
    Column("Occupancy", "occupancy", 1.6),
    Column("Const.", "construction", 0.6, style=CODES),
    Column("Year built", "year_built", 0.65, "right"),
    Column("Stories", "stories", 0.6, "right"),
    Column("Sq ft", "square_feet", 0.9, "right"),
    Column("Spr. %", "sprinklered_percent", 0.6, "right"),
    Column("PC", "protection_class", 0.45, "right"),
)
COVERAGE_COLUMNS = (
    Column("Loc", "location_number", 0.5, "right"),
    Column("Bldg", "building_number", 0.5, "right"),
    Column("Building limit", "building_limit", 2.0, "right"),
    Column("Business personal property limit", "bpp_limit", 2.0, "right"),
    Column("Rate per $100", "rate", 1.1, "right"),
    Column("Property premium", "premium", 1.6, "right"),
)
OPTION_COLUMNS = (
    Column("Optional coverage", "coverage", 3.2),
    Column("Limit", "limit", 1.4, "right"),
    Column("Deductible", "deductible", 1.2, "right"),
    Column("Premium", "premium", 1.2, "right"),
)
MORTGAGEE_COLUMNS = (
    Column("Mortgagee", "name", 3.4),
    Column("Loc", "location_number", 0.6, "right"),
    Column("Bldg", "building_number", 0.6, "right"),
    Column("Loan number", "loan_number", 1.8),
)
INTRO = (
    "Requested as an alternative to the commercial property and general liability package "
    "for the same premises at the values of the statement of values. Construction: F frame, "
    "JM joisted masonry, NC non-combustible, MNC masonry non-combustible, MFR modified fire "
    "resistive, FR fire resistive."
)


def render(doc: BusinessownersSection, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE)

    def header(flow: Flow, page: int) -> float:
        section_title(
            flow,
            page,
            "PB-160",
            "BUSINESSOWNERS SECTION",
            "Businessowners program: premises, property and liability coverages",
        )
        return flow.y

    flow = Flow(pdf, header)
    flow.note(INTRO)
    flow.band("Policy")
    flow.boxes(
        [
            Checks(
                "Policy form", (("Standard", "policy.standard"), ("Special", "policy.special")), 1.4
            ),
            Cell("Property deductible", "policy.property_deductible", 1, align="right"),
            Cell("Buildings in the program", "premises_count", 1, align="right"),
        ]
    )
    li = "liability"
    flow.band("Business liability limits")
    flow.boxes(
        [
            Cell("Each occurrence", f"{li}.each_occurrence", align="right"),
            Cell("General aggregate", f"{li}.general_aggregate", align="right"),
            Cell(
                "Products-completed ops aggregate", f"{li}.products_aggregate", 1.3, align="right"
            ),
        ]
    )
    flow.boxes(
        [
            Cell("Personal & advertising injury", f"{li}.personal_advertising", align="right"),
            Cell("Damage to rented premises", f"{li}.damage_to_rented_premises", align="right"),
            Cell("Medical expense", f"{li}.medical_expense", align="right"),
        ]
    )
    pr = "premiums"
    flow.band("Indicated premium")
    flow.boxes(
        [
            Cell("Property", f"{pr}.property", align="right"),
            Cell("Liability", f"{pr}.liability", align="right"),
            Cell("Optional coverages", f"{pr}.optional_coverages", align="right"),
            Cell("Total premium", f"{pr}.total_premium", align="right"),
        ]
    )
    flow.gap(4)
    flow.band("Premises", keep_with=60)
    if len(doc.premises) < (doc.premises_count or 0):
        flow.note(
            "The first buildings of the schedule are listed; the others are on the "
            "attached statement of values at the same values and rates."
        )
    draw_table(flow, "premises", len(doc.premises), DESCRIPTION_COLUMNS, size=6.4, header_size=5.6)
    flow.band("Property coverages by premises", keep_with=60)
    draw_table(flow, "premises", len(doc.premises), COVERAGE_COLUMNS, size=6.6)
    flow.band("Optional coverages", keep_with=40)
    draw_table(flow, "optional_coverages", len(doc.optional_coverages), OPTION_COLUMNS, size=6.8)
    flow.band("Mortgagees", keep_with=40)
    if doc.mortgagees:
        draw_table(flow, "mortgagees", len(doc.mortgagees), MORTGAGEE_COLUMNS, size=6.8)
    else:
        flow.note("No listed building carries a mortgage.")
    flow.band("General information", keep_with=40)
    question_rows(flow, "general_information", BOP_QUESTIONS)
    signature_rows(flow, NOTICE)
    return Output(pdf.render(), len(pdf.pages))
