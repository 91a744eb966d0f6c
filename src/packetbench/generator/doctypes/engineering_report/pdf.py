"""The loss-control survey report as a PDF: identification boxes, a written summary, a COPE
table of the buildings, a section of prose per building, and the recommendations table.

Prose comes from `templates/prose/engineering_report/` in the wording the packet's seed
chooses; tables go through `render.table.draw_table`, so the table patterns reach them.
"""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts, title_block
from packetbench.generator.doctypes.engineering_report.model import EngineeringReport
from packetbench.generator.render import prose
from packetbench.generator.render.layout import Cell, Flow, Lit
from packetbench.generator.render.metrics import BOLD, MARGIN
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

NAME = "engineering_report"
COPE = (
    Column("Prem #", "premises_number", 0.8, "right"),
    Column("Bldg #", "building_number", 0.8, "right"),
    Column("Construction", "construction", 2.6),
    Column("Yr built", "year_built", 1, "right"),
    Column("Stories", "stories", 0.9, "right"),
    Column("Sq ft", "square_feet", 1.2, "right"),
    Column("Occupancy", "occupancy", 2.2),
    Column("PC", "protection_class", 0.6, "right"),
    Column("Sprinklered", "sprinklered_percent", 1.2, "right"),
    Column("Flood zone", "flood_zone", 1, "center"),
)

RECOMMENDATIONS = (
    Column("No.", "number", 0.9),
    Column("Prem", "premises_number", 0.7, "right"),
    Column("Bldg", "building_number", 0.7, "right"),
    Column("Priority", "priority", 1.2),
    Column("Category", "category", 1.6),
    Column("Recommendation", "description", 6.2),
    Column("Due date", "due_date", 1.3),
    Column("Status", "status", 1),
)
DISCLAIMER = (
    "This report reflects conditions observed on the date of the survey. It is "
    "provided to assist the insurer in evaluating the risk and the insured in "
    "controlling loss; it is not a guarantee that all hazards have been found, nor a "
    "statement that the premises comply with any code or standard."
)
GRADES = (
    "Risk grades, best to worst: Superior, Above Average, Average, Below Average, Poor. "
    "Priorities: critical items need prompt action; important items should be completed "
    "by the due date; advisory items are good practice."
)


def _write(flow: Flow, rec: Recorder, name: str, key: str = "", i: int = 0) -> None:
    """Paragraphs of `name` (about building `i`, keyed apart by `key`)."""
    for paragraph in prose.write(rec, f"{NAME}/{name}", key, i=i):
        flow.prose(paragraph, size=8.2)


def render(doc: EngineeringReport, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Loss control survey report", "Loss control survey report")

    def header(flow: Flow, page: int) -> float:
        r = "report"
        if page == 0:
            flow.y = title_block(
                flow,
                page,
                "PROPERTY LOSS CONTROL SURVEY REPORT",
                "LOSS CONTROL",
                "Construction, occupancy, protection and exposure",
            )
            flow.boxes(
                [
                    Cell("Prepared by", f"{r}.firm", 3),
                    Cell("Report number", f"{r}.report_number", 1.5),
                    Cell("Survey type", f"{r}.survey_type", 2),
                ]
            )
            flow.boxes(
                [
                    Cell("Named insured", f"{r}.named_insured", 3),
                    Cell("Prepared for", f"{r}.carrier_name", 3),
                    Cell("Policy number", f"{r}.policy_number", 1.5),
                ]
            )
            flow.boxes(
                [
                    Cell("Surveyor", f"{r}.surveyor_name", 2),
                    Cell("Credentials", f"{r}.surveyor_credentials", 1),
                    Cell("Survey date", f"{r}.survey_date", 1.1),
                    Cell("Report date", f"{r}.report_date", 1.1),
                    Cell("Overall risk grade", f"{r}.risk_grade", 1.4),
                ]
            )
            return flow.y - 8
        flow.y = title_block(flow, page, "LOSS CONTROL SURVEY REPORT (CONTINUED)", "LOSS CONTROL")
        flow.boxes(
            [
                Cell("Named insured", f"{r}.named_insured", 3),
                Cell("Report number", f"{r}.report_number", 1.5),
                Cell("Report date", f"{r}.report_date", 1),
            ],
            height=19,
        )
        return flow.y - 8

    flow = Flow(pdf, header)
    flow.band("Summary")
    flow.gap(3)
    _write(flow, rec, "summary")
    flow.note(GRADES)
    flow.gap(4)
    flow.band("Buildings surveyed")
    draw_table(flow, "buildings", len(doc.buildings), COPE)
    for i, building in enumerate(doc.buildings):
        b = f"buildings[{i}]"
        flow.new_page()  # a page per building, as surveyors lay their reports out
        flow.band(f"Premises {building.premises_number} - building {building.building_number}")
        flow.gap(3)
        flow.prose((Lit("Address: "), *address_parts(f"{b}.address")), size=8.2, font=BOLD)
        for section in (
            "construction",
            "occupancy",
            "protection",
            "exposure",
            "valuation",
            "recommendations",
        ):
            _write(flow, rec, section, key=str(i), i=i)
        flow.gap(4)
    flow.band("Recommendations")
    draw_table(flow, "recommendations", len(doc.recommendations), RECOMMENDATIONS)
    flow.note(DISCLAIMER)
    pdf.text(flow.page, MARGIN, max(flow.y - 12, MARGIN + 4), "End of report", BOLD, 7)
    return Output(pdf.render(), len(pdf.pages))
