"""The broker's vehicle schedule as a landscape PDF: one row per unit, totals at the end."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.doctypes.vehicle_schedule.model import VehicleSchedule
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import Table
from packetbench.generator.render.table_look import Column, Totals

STYLE = Style(abbreviate=True)
CODE = "PB-VEH"
TITLE = "SCHEDULE OF VEHICLES"

COLUMNS = (
    Column("Unit #", "unit_number", 0.45, "right"),
    Column("Year", "year", 0.45, "right"),
    Column("Make", "make", 0.9),
    Column("Model", "model", 1.0),
    Column("Body type", "body_type", 0.85),
    Column("VIN", "vin", 1.65),
    Column("GVW / GCW", "gvw", 0.7, "right"),
    Column("Size", "size_class", 0.45),
    Column("Garaging address", "garaging.street", 1.7),
    Column("City", "garaging.city", 1.1),
    Column("St", "garaging.state", 0.35),
    Column("ZIP", "garaging.zip", 0.55),
    Column("Cost new", "cost_new", 0.9, "right"),
    Column("Stated amount", "stated_amount", 0.9, "right"),
    Column("Use", "use", 0.95),
    Column("Radius", "radius", 0.55),
    Column("Owned / fin. / leased", "ownership", 0.7),
    Column("Lienholder / lessor", "lienholder", 1.5),
    Column("Comp ded.", "comprehensive_deductible", 0.6, "right"),
    Column("Coll ded.", "collision_deductible", 0.6, "right"),
    Column("Principal driver", "principal_driver", 1.2),
)
LEGEND = (
    "Size: LT light truck (GVW to 10,000 lb), MT medium (10,001-20,000), HT heavy "
    "(20,001-45,000), XHT extra-heavy (over 45,000), HTT/XTT heavy/extra-heavy truck-tractor. "
    "Radius: L local (to 50 miles), I intermediate (51-200), LD long distance (over 200). "
    "Stated amount = value declared for physical damage. Comp / Coll ded. blank = no "
    "physical-damage coverage on the unit."
)


def render(doc: VehicleSchedule, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Vehicle Schedule", f"{CODE} Schedule of Vehicles", wide=True)

    def header(flow: Flow, page: int) -> float:
        flow.y = title_block(
            flow, page, TITLE, CODE, "Commercial auto submission - owned units" if page == 0 else ""
        )
        flow.boxes(
            [
                Cell("Named insured", "insured_name", 3),
                Cell("Prepared by (agency)", "agency_name", 2.2),
                Cell("Policy effective date", "policy_effective_date", 0.9),
                Cell("Schedule as of", "as_of_date", 0.9),
            ]
        )
        return flow.y - 6

    flow = Flow(pdf, header)
    flow.boxes(
        [
            Cell("Schedule prepared by", "prepared_by", 2),
            Cell("Number of units", "totals.vehicle_count", 1, align="right"),
            Cell("", None, 5),
        ],
        height=19,
    )
    flow.gap(4)
    table = Table(flow, "units", COLUMNS, size=6.0, header_size=5.5)
    table.start(None, keep=True)
    table.rows("units", len(doc.units))
    table.totals(
        Totals(
            "SCHEDULE TOTAL",
            {"cost_new": "totals.cost_new", "stated_amount": "totals.stated_amount"},
            fill=0.92,
        )
    )
    table.finish(6)
    flow.note(LEGEND)
    return Output(pdf.render(), len(pdf.pages))
