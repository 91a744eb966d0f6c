"""The umbrella section as our own PB-131 form."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_131.model import UmbrellaSection
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import (
    NOTICE,
    question_rows,
    section_title,
    signature_rows,
)
from packetbench.generator.fakers.questions import UMBRELLA_QUESTIONS
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-131 Umbrella / Excess Section"

LOCATION_COLUMNS = (
    Column("Loc #", "location_number", 0.6, "right"),
    Column("Street", "address.street", 2.8),
    Column("City", "address.city", 1.7),
    Column("State", "address.state", 0.6),
    Column("ZIP", "address.zip", 0.9),
    Column("Employees", "employees", 0.9, "right"),
    Column("Annual payroll", "annual_payroll", 1.4, "right"),
    Column("Annual gross sales", "annual_revenue", 1.5, "right"),
)


def _policy_row(flow: Flow, prefix: str, label: str) -> None:
    flow.boxes(
        [
            Cell(f"{label} - carrier", f"{prefix}.carrier", 3),
            Cell("Policy number", f"{prefix}.policy_number", 1.4),
            Cell("Effective", f"{prefix}.effective_date", 1),
            Cell("Expiration", f"{prefix}.expiration_date", 1),
            Cell("Premium", f"{prefix}.premium", 1.1, align="right"),
        ]
    )


def render(doc: UmbrellaSection, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE)

    def header(flow: Flow, page: int) -> float:
        section_title(
            flow,
            page,
            "PB-131",
            "UMBRELLA / EXCESS SECTION",
            "Umbrella terms, schedule of underlying insurance and exposures",
        )
        return flow.y

    flow = Flow(pdf, header)
    t = "terms"
    flow.band("Policy requested")
    flow.boxes(
        [
            Checks("Type", (("Umbrella", f"{t}.umbrella"), ("Excess", f"{t}.excess")), 1.3),
            Checks(
                "Coverage",
                (("Occurrence", f"{t}.occurrence"), ("Claims-made", f"{t}.claims_made")),
                1.6,
            ),
            Checks("Defense", (("First-dollar defense", f"{t}.first_dollar_defense"),), 1.3),
            Cell("Premium", f"{t}.premium", 1, align="right"),
        ]
    )
    flow.boxes(
        [
            Cell("Each occurrence", f"{t}.each_occurrence", align="right"),
            Cell("Aggregate", f"{t}.aggregate", align="right"),
            Cell("Self-insured retention", f"{t}.retention", align="right"),
        ]
    )
    flow.band("Schedule of underlying insurance", keep_with=120)
    _policy_row(flow, "underlying_gl", "General liability")
    g = "underlying_gl"
    flow.boxes(
        [
            Cell("Each occurrence", f"{g}.each_occurrence", align="right"),
            Cell("General aggregate", f"{g}.general_aggregate", align="right"),
            Cell("Products-completed ops aggregate", f"{g}.products_aggregate", 1.3, align="right"),
            Cell("Personal & advertising injury", f"{g}.personal_advertising", 1.2, align="right"),
        ]
    )
    flow.gap(4)
    _policy_row(flow, "underlying_auto", "Automobile liability")
    flow.boxes(
        [
            Cell(
                "Combined single limit (each accident)",
                "underlying_auto.combined_single_limit",
                1,
                align="right",
            ),
            Cell("", None, 2),
        ]
    )
    flow.gap(4)
    _policy_row(flow, "underlying_el", "Employers liability")
    e = "underlying_el"
    flow.boxes(
        [
            Cell("Each accident", f"{e}.each_accident", align="right"),
            Cell("Disease - policy limit", f"{e}.disease_policy_limit", align="right"),
            Cell("Disease - each employee", f"{e}.disease_each_employee", align="right"),
        ]
    )
    flow.band("Locations", keep_with=60)
    flow.boxes(
        [
            Cell("Total number of locations", "location_count", 1, align="right"),
            Cell("The first six are listed; every location is on the statement of values", None, 4),
        ],
        height=19,
    )
    draw_table(flow, "locations", len(doc.locations), LOCATION_COLUMNS, size=6.8)
    f = "fleet"
    flow.band("Owned vehicles by size class")
    flow.boxes(
        [
            Cell("Light trucks", f"{f}.light_trucks", align="right"),
            Cell("Medium trucks", f"{f}.medium_trucks", align="right"),
            Cell("Heavy trucks", f"{f}.heavy_trucks", align="right"),
            Cell("Extra-heavy trucks", f"{f}.extra_heavy_trucks", align="right"),
            Cell("Truck-tractors", f"{f}.truck_tractors", align="right"),
        ]
    )
    flow.gap(4)
    flow.band("General information", keep_with=40)
    question_rows(flow, "general_information", UMBRELLA_QUESTIONS)
    signature_rows(flow, NOTICE)
    return Output(pdf.render(), len(pdf.pages))
