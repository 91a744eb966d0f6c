"""The general supplemental application as a carrier questionnaire: five parts (applicant,
size of operations and premises on the first page; questions and prior insurance from the
second), then the officer's declaration and signatures; the policy identification repeats on
every page."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import question_rows, section_title, signature_rows
from packetbench.generator.doctypes.supplemental_general.model import (
    PREMISES_ROWS,
    GeneralSupplement,
)
from packetbench.generator.fakers.supplements import GENERAL_QUESTIONS
from packetbench.generator.render.layout import Cell, Flow, Lit
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

CODE = "PB-SUP-GEN"
TITLE = "SUPPLEMENTAL APPLICATION - COMMERCIAL LINES"
SUBTITLE = (
    "Completed by an officer of the applicant; attached to and part of the "
    "application for every line of business submitted"
)
DECLARATION = (
    "The undersigned officer declares that the statements in this supplement are true, that "
    "no material fact has been withheld, and that the applicant will report any change to "
    "them before the policy takes effect. Knowingly giving false or misleading information "
    "to obtain insurance may be a crime and may void the coverage applied for."
)

PREMISES_NOTE = (
    f"The first {PREMISES_ROWS} buildings of the statement of values are described here; the "
    "statement of values attached to the application lists every building."
)


def render(doc: GeneralSupplement, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Supplemental Application", f"{CODE} Supplemental Application")

    def header(flow: Flow, page: int) -> float:
        section_title(flow, page, CODE, TITLE, SUBTITLE)
        return flow.y

    flow = Flow(pdf, header)
    a, m = "applicant", "applicant.mailing_address"
    flow.band("Part A - The applicant")
    flow.boxes(
        [
            Cell("Doing business as", f"{a}.dba", 2.2),
            Cell("Legal entity", f"{a}.entity_type", 1.6),
            Cell("FEIN", f"{a}.fein", 0.9),
            Cell("Business phone", f"{a}.phone", 1.1),
        ]
    )
    flow.boxes(
        [
            Cell(
                "Mailing address",
                None,
                4.5,
                parts=(
                    f"{m}.street",
                    Lit(", "),
                    f"{m}.city",
                    Lit(", "),
                    f"{m}.state",
                    Lit(" "),
                    f"{m}.zip",
                ),
            ),
            Cell("Website", f"{a}.website", 1.8),
        ]
    )
    flow.boxes(
        [
            Cell("Nature of business", f"{a}.nature_of_business", 1.1),
            Cell("Class of business", f"{a}.industry", 2),
            Cell("SIC", f"{a}.sic", 0.55),
            Cell("NAICS", f"{a}.naics", 0.65),
            Cell("Business started", f"{a}.business_start_date", 0.9),
            Cell("Years in business", f"{a}.years_in_business", 0.9, align="right"),
        ]
    )
    flow.paragraph("Description of operations", f"{a}.operations_description")
    flow.gap(4)
    e = "exposures"
    flow.band("Part B - Size of operations")
    flow.boxes(
        [
            Cell("Full-time employees", f"{e}.full_time_employees", 1, align="right"),
            Cell("Part-time employees", f"{e}.part_time_employees", 1, align="right"),
            Cell("Annual gross revenue", f"{e}.annual_revenue", 1.3, align="right"),
            Cell("Locations", f"{e}.location_count", 0.8, align="right"),
            Cell("Buildings", f"{e}.building_count", 0.8, align="right"),
        ]
    )
    flow.gap(4)
    flow.band("Part C - Premises", keep_with=60)
    flow.note(PREMISES_NOTE)
    draw_table(
        flow,
        "premises",
        len(doc.premises),
        (
            Column("Loc", "location_number", 0.4, "right"),
            Column("Bldg", "building_number", 0.4, "right"),
            Column("Street", "street", 2.1),
            Column("City", "city", 1.2),
            Column("St", "state", 0.35),
            Column("Interest", "interest", 0.6),
            Column("Occupancy", "occupancy", 1.3),
            Column("Construction", "construction", 1.4),
            Column("Built", "year_built", 0.5, "right"),
            Column("Stories", "stories", 0.5, "right"),
            Column("Sq ft", "square_feet", 0.7, "right"),
            Column("% sprinklered", "sprinklered_percent", 0.7, "right"),
        ),
        size=6.6,
    )
    # The questions and the history start the second page, as on the carrier's printed form.
    flow.new_page()
    flow.band("Part D - Underwriting questions")
    question_rows(flow, "answers", GENERAL_QUESTIONS)
    flow.band("Part E - Prior insurance history, most recent term first", keep_with=60)
    draw_table(
        flow,
        "prior_insurance",
        len(doc.prior_insurance),
        (
            Column("Year", "policy_year", 0.45, "right"),
            Column("Line of business", "line", 1.4),
            Column("Carrier", "carrier", 2.6),
            Column("Policy number", "policy_number", 1.3),
            Column("Effective", "effective_date", 0.8),
            Column("Expiration", "expiration_date", 0.8),
            Column("Premium", "premium", 0.85, "right"),
            Column("Claims", "claim_count", 0.5, "right"),
            Column("Incurred", "incurred", 0.85, "right"),
            Column("Not renewed", "non_renewed", 0.75),
        ),
        size=6.6,
    )
    flow.gap(6)
    signature_rows(flow, DECLARATION)
    return Output(pdf.render(), len(pdf.pages))
