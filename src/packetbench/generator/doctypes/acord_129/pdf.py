"""The vehicle schedule as our own landscape PB-129 form, one row per vehicle."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_129.model import VehicleSchedule
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-129 Vehicle Schedule"
CODES = Style(abbreviate=True)

COLUMNS = (
    Column("Veh #", "vehicle_number", 0.55, "right"),
    Column("Year", "year", 0.55, "right"),
    Column("Make", "make", 1.1),
    Column("Model", "model", 1.2),
    Column("Body type", "body_type", 1.0),
    Column("VIN", "vin", 2.2),
    Column("GVW / GCW", "gvw", 0.85, "right"),
    Column("Cost new", "cost_new", 1.05, "right"),
    Column("Gar. loc", "garage_location", 0.55, "right"),
    Column("State", "garage_state", 0.5),
    Column("Terr.", "territory", 0.5),
    Column("Class", "class_code", 0.7),
    Column("Size", "size_class", 0.55, style=CODES),
    Column("Use", "use", 0.9),
    Column("Radius", "radius", 0.6, style=CODES),
    Column("Owned / fin. / leased", "ownership", 0.9),
    Column("Comp ded.", "comprehensive_deductible", 0.8, "right"),
    Column("Coll ded.", "collision_deductible", 0.8, "right"),
    Column("Liability premium", "liability_premium", 1.0, "right"),
    Column("Phys. damage premium", "physical_damage_premium", 1.0, "right"),
    Column("Vehicle premium", "premium", 1.0, "right"),
)
LEGEND = (
    "Size class: LT light truck (GVW to 10,000 lb), MT medium (10,001-20,000), HT heavy "
    "(20,001-45,000), XHT extra-heavy (over 45,000), HTT/XTT heavy/extra-heavy truck-tractor "
    "(by GCW). Radius: L local (to 50 miles), I intermediate (51-200), LD long distance (over "
    "200). Garaging location numbers are those of the application's premises."
)


def render(doc: VehicleSchedule, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE, wide=True)

    def header(flow: Flow, page: int) -> float:
        h = "header"
        flow.y = title_block(
            flow,
            page,
            "VEHICLE SCHEDULE" if page == 0 else "VEHICLE SCHEDULE (CONTINUED)",
            "PB-129",
            "Attachment to the business auto section" if page == 0 else "",
        )
        if page == 0:
            flow.boxes(
                [
                    Cell("Agency", f"{h}.agency_name", 3),
                    Cell("Agency customer ID", f"{h}.agency_customer_id", 1.1),
                    Cell("Carrier", f"{h}.carrier_name", 3),
                    Cell("NAIC code", f"{h}.naic_code", 0.9),
                    Cell("Expiration date", f"{h}.expiration_date", 1.1),
                ]
            )
        flow.boxes(
            [
                Cell("Named insured", f"{h}.named_insured", 4),
                Cell("Policy number", f"{h}.policy_number", 1.5),
                Cell("Effective date", f"{h}.effective_date", 1.1),
            ],
            height=19,
        )
        return flow.y - 6

    flow = Flow(pdf, header)
    flow.note(LEGEND)
    flow.boxes(
        [
            Cell("Number of vehicles scheduled", "vehicle_count", 1, align="right"),
            Cell("", None, 5),
        ],
        height=19,
    )
    flow.gap(4)
    draw_table(
        flow,
        "vehicles",
        len(doc.vehicles),
        COLUMNS,
        size=6.2,
        header_size=5.6,
        totals=(
            ("liability_premium", "totals.liability_premium"),
            ("physical_damage_premium", "totals.physical_damage_premium"),
            ("premium", "totals.total_premium"),
        ),
        totals_label="SCHEDULE TOTAL",
    )
    return Output(pdf.render(), len(pdf.pages))
