"""The GL section as our own PB-126 form."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_126.model import GeneralLiabilitySection
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import (
    NOTICE,
    question_rows,
    section_title,
    signature_rows,
)
from packetbench.generator.fakers.questions import GL_QUESTIONS
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-126 Commercial General Liability Section"
CODES = Style(abbreviate=True)

HAZARD_COLUMNS = (
    Column("Loc #", "location_number", 0.9, "right"),
    Column("Haz #", "hazard_number", 0.9, "right"),
    Column("Class code", "class_code", 1.3),
    Column("Classification", "classification", 5.2),
    Column("Basis", "premium_basis", 0.9, style=CODES),
    Column("Exposure", "exposure", 2.0, "right"),
    Column("Terr.", "territory", 0.9),
    Column("Prem/ops rate", "premises_rate", 1.4, "right"),
    Column("Products rate", "products_rate", 1.4, "right"),
    Column("Prem/ops premium", "premises_premium", 1.9, "right"),
    Column("Products premium", "products_premium", 1.9, "right"),
)
INSURED_COLUMNS = (
    Column("Name", "name", 3.2),
    Column("Street", "address.street", 3.0),
    Column("City", "address.city", 1.8),
    Column("State", "address.state", 0.7),
    Column("ZIP", "address.zip", 1.0),
    Column("Interest", "interest", 1.8),
    Column("Relationship", "relationship", 1.8),
)
BASIS_LEGEND = (
    "Premium basis: S gross sales, per $1,000; P payroll, per $1,000; A area, per 1,000 sq ft; "
    "U units, per unit; C total cost of subcontracted work, per $1,000. An empty products "
    "rate means products-completed operations are included in the premises rate."
)


def render(doc: GeneralLiabilitySection, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE)

    def header(flow: Flow, page: int) -> float:
        section_title(
            flow,
            page,
            "PB-126",
            "COMMERCIAL GENERAL LIABILITY SECTION",
            "Coverages, limits, schedule of hazards and underwriting information",
        )
        return flow.y

    flow = Flow(pdf, header)
    flow.band("Coverages")
    flow.boxes(
        [
            Checks(
                "Coverage form",
                (("Occurrence", "coverage.occurrence"), ("Claims-made", "coverage.claims_made")),
                1.6,
            ),
            Cell("Retroactive date", "coverage.retroactive_date", 1.0),
            Cell("Deductible", "coverage.deductible", 1.0, align="right"),
            Checks(
                "Deductible applies",
                (
                    ("Per claim", "coverage.deductible_per_claim"),
                    ("Per occurrence", "coverage.deductible_per_occurrence"),
                ),
                1.8,
            ),
        ]
    )
    flow.band("Limits of insurance")
    flow.boxes(
        [
            Cell("Each occurrence", "limits.each_occurrence", align="right"),
            Cell("General aggregate", "limits.general_aggregate", align="right"),
            Checks(
                "Aggregate applies per",
                (
                    ("Policy", "limits.aggregate_per_policy"),
                    ("Project", "limits.aggregate_per_project"),
                    ("Location", "limits.aggregate_per_location"),
                ),
                1.8,
            ),
        ]
    )
    flow.boxes(
        [
            Cell(
                "Products-completed operations aggregate",
                "limits.products_completed_operations",
                1.4,
                align="right",
            ),
            Cell(
                "Personal & advertising injury", "limits.personal_advertising_injury", align="right"
            ),
            Cell(
                "Damage to rented premises (each occurrence)",
                "limits.damage_to_rented_premises",
                1.3,
                align="right",
            ),
            Cell("Medical expense (any one person)", "limits.medical_expense", align="right"),
        ]
    )
    flow.band("Schedule of hazards", keep_with=60)
    flow.note(BASIS_LEGEND)
    draw_table(flow, "hazards", len(doc.hazards), HAZARD_COLUMNS, size=6.6)
    flow.boxes(
        [
            Cell("Premises/operations premium", "premiums.premises_operations", align="right"),
            Cell(
                "Products-completed operations premium",
                "premiums.products_completed_operations",
                align="right",
            ),
            Cell("Total premium", "premiums.total_premium", align="right"),
        ]
    )
    flow.gap(6)
    flow.band("Additional insureds", keep_with=40)
    if doc.additional_insureds:
        draw_table(
            flow, "additional_insureds", len(doc.additional_insureds), INSURED_COLUMNS, size=6.6
        )
    else:
        flow.note("None requested.")
    flow.band("General information", keep_with=40)
    question_rows(flow, "general_information", GL_QUESTIONS)
    signature_rows(flow, NOTICE)
    return Output(pdf.render(), len(pdf.pages))
