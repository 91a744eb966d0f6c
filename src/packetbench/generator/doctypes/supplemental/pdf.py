"""The supplemental applications as carrier questionnaires: the policy header, the class's
own facts in labelled boxes and schedules, Y/N questions with explanations, signatures."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from packetbench.core.leaves import DocModel
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import (
    NOTICE,
    question_rows,
    section_title,
    signature_rows,
)
from packetbench.generator.doctypes.supplemental.model import (
    ContractorsSupplement,
    HabitationalSupplement,
    RestaurantSupplement,
    TruckingSupplement,
)
from packetbench.generator.fakers.insurance import Question
from packetbench.generator.fakers.supplements import (
    CONTRACTOR_QUESTIONS,
    HABITATIONAL_QUESTIONS,
    RESTAURANT_QUESTIONS,
    TRUCKING_QUESTIONS,
)
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

M = TypeVar("M", bound=DocModel)


def _page(
    code: str,
    title: str,
    subtitle: str,
    body: Callable[[Flow, M], None],
    questions: tuple[Question, ...],
) -> Callable[[M, Recorder], Output]:
    """A renderer: header on every page, the variant's body, its questions, signatures."""

    def render(doc: M, rec: Recorder) -> Output:
        pdf = PdfDocument(rec, title.title(), f"{code} {title.title()}")

        def header(flow: Flow, page: int) -> float:
            section_title(flow, page, code, title, subtitle)
            return flow.y

        flow = Flow(pdf, header)
        body(flow, doc)
        flow.band("Underwriting questions")
        question_rows(flow, "answers", questions)
        signature_rows(flow, NOTICE)
        return Output(pdf.render(), len(pdf.pages))

    return render


def _trucking(flow: Flow, doc: TruckingSupplement) -> None:
    o = "operations"
    flow.band("Operations and equipment")
    flow.boxes(
        [
            Cell("USDOT number", f"{o}.usdot_number", 1),
            Cell("MC number", f"{o}.mc_number", 1),
            Cell("Operating authority", f"{o}.authority", 1.3),
            Cell("Years in business", "years_in_business", 0.9, align="right"),
        ]
    )
    flow.boxes(
        [
            Cell("Power units", f"{o}.power_units", 1, align="right"),
            Cell("Trailers", f"{o}.trailers", 1, align="right"),
            Cell("Drivers", f"{o}.drivers", 1, align="right"),
            Cell("Owner-operators", f"{o}.owner_operators", 1, align="right"),
            Cell("Annual miles", f"{o}.annual_miles", 1.2, align="right"),
        ]
    )
    flow.boxes(
        [
            Cell("% of units local (0-50 mi)", f"{o}.local_percent", 1, align="right"),
            Cell("% intermediate (51-200 mi)", f"{o}.intermediate_percent", 1, align="right"),
            Cell("% long distance (over 200 mi)", f"{o}.long_distance_percent", 1, align="right"),
        ]
    )
    flow.gap(6)
    flow.band("Commodities hauled")
    draw_table(
        flow,
        "commodities",
        len(doc.commodities),
        (
            Column("Commodity", "commodity", 3),
            Column("% of loads", "percent_of_loads", 1, "right"),
            Column("Maximum value of one load", "max_load_value", 1.6, "right"),
        ),
    )


def _contractors(flow: Flow, doc: ContractorsSupplement) -> None:
    w = "work"
    flow.band("Work performed")
    flow.boxes(
        [
            Cell("Years in business", "years_in_business", 1, align="right"),
            Cell("Gross annual receipts", f"{w}.annual_receipts", 1.3, align="right"),
            Cell("Greatest height worked (stories)", f"{w}.max_stories", 1.3, align="right"),
        ]
    )
    flow.boxes(
        [
            Cell("% residential", f"{w}.residential_percent", 1, align="right"),
            Cell("% commercial", f"{w}.commercial_percent", 1, align="right"),
            Cell("% industrial", f"{w}.industrial_percent", 1, align="right"),
            Cell("% new construction", f"{w}.new_construction_percent", 1, align="right"),
            Cell("% remodel / repair", f"{w}.remodel_percent", 1, align="right"),
        ]
    )
    flow.boxes(
        [
            Cell("Cost of work subcontracted", f"{w}.subcontracted_cost", 1.3, align="right"),
            Cell(
                "Subcontracted cost as % of receipts",
                f"{w}.subcontracted_percent",
                1.3,
                align="right",
            ),
            Cell("", None, 1.4),
        ]
    )
    flow.gap(6)
    flow.band("Current and recent projects")
    draw_table(
        flow,
        "projects",
        len(doc.projects),
        (
            Column("Project", "project_name", 2.6),
            Column("Customer", "client", 1.8),
            Column("City", "city", 1.2),
            Column("St", "state", 0.4),
            Column("Contract value", "contract_value", 1.1, "right"),
            Column("Start", "start_date", 0.8),
            Column("Completion", "completion_date", 0.8),
        ),
        size=6.8,
    )


def _restaurant(flow: Flow, doc: RestaurantSupplement) -> None:
    o = "operations"
    flow.band("Operations")
    flow.boxes(
        [
            Cell("Years in business", "years_in_business", 1, align="right"),
            Cell("Seating capacity", f"{o}.seating_capacity", 1, align="right"),
            Cell("Opens", f"{o}.opening_time", 1),
            Cell("Closes", f"{o}.closing_time", 1),
        ]
    )
    flow.boxes(
        [
            Cell("Annual food sales", "sales.food_sales", 1, align="right"),
            Cell("Annual liquor sales", "sales.liquor_sales", 1, align="right"),
            Cell("Total annual sales", "sales.total_sales", 1, align="right"),
            Cell("Liquor % of sales", f"{o}.liquor_percent", 1, align="right"),
        ]
    )
    flow.gap(6)


def _habitational(flow: Flow, doc: HabitationalSupplement) -> None:
    flow.band("Schedule of units")
    flow.boxes(
        [
            Cell("Years in business", "years_in_business", 1, align="right"),
            Cell("Rental basis (monthly rent / nightly rate)", "rental_basis", 1.6),
            Cell("", None, 1.4),
        ]
    )
    flow.gap(4)
    draw_table(
        flow,
        "residences",
        len(doc.residences),
        (
            Column("Loc #", "location_number", 0.45, "right"),
            Column("Bldg #", "building_number", 0.45, "right"),
            Column("Street", "street", 2.2),
            Column("City", "city", 1.3),
            Column("St", "state", 0.35),
            Column("Year built", "year_built", 0.6, "right"),
            Column("Stories", "stories", 0.55, "right"),
            Column("Units", "units", 0.55, "right"),
            Column("% occupied", "occupancy_percent", 0.65, "right"),
            Column("Average rate", "average_rate", 0.85, "right"),
        ),
        size=6.8,
        totals=(("units", "unit_count"),),
        totals_label="TOTAL UNITS",
    )


render_trucking = _page(
    "PB-SUP-TRK",
    "MOTOR CARRIER SUPPLEMENTAL APPLICATION",
    "Supplement to the commercial auto application",
    _trucking,
    TRUCKING_QUESTIONS,
)
render_contractors = _page(
    "PB-SUP-CON",
    "CONTRACTORS SUPPLEMENTAL APPLICATION",
    "Supplement to the general liability application",
    _contractors,
    CONTRACTOR_QUESTIONS,
)
render_restaurant = _page(
    "PB-SUP-RST",
    "RESTAURANT SUPPLEMENTAL APPLICATION",
    "Supplement to the property and liability application",
    _restaurant,
    RESTAURANT_QUESTIONS,
)
render_habitational = _page(
    "PB-SUP-HAB",
    "HABITATIONAL SUPPLEMENTAL APPLICATION",
    "Apartments and lodging: supplement to the property and liability application",
    _habitational,
    HABITATIONAL_QUESTIONS,
)
