"""The broker's vehicle schedule as a workbook: title block, header row, one row per unit,
totals."""

from __future__ import annotations

from packetbench.generator.doctypes._schedule import Header, schedule_sheet
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.vehicle_schedule.model import VehicleSchedule
from packetbench.generator.render.recorder import Recorder

SHEET = "Vehicles"
HEADERS: tuple[Header, ...] = (
    ("Unit #", "unit_number", 8),
    ("Year", "year", 7),
    ("Make", "make", 14),
    ("Model", "model", 16),
    ("Body Type", "body_type", 14),
    ("VIN", "vin", 21),
    ("GVW", "gvw", 9),
    ("Size Class", "size_class", 22),
    ("Garaging Street", "garaging.street", 30),
    ("Garaging City", "garaging.city", 18),
    ("State", "garaging.state", 7),
    ("ZIP", "garaging.zip", 8),
    ("Cost New", "cost_new", 12),
    ("Stated Amount", "stated_amount", 13),
    ("Use", "use", 12),
    ("Radius", "radius", 14),
    ("Ownership", "ownership", 11),
    ("Lienholder / Lessor", "lienholder", 30),
    ("Comp Deductible", "comprehensive_deductible", 12),
    ("Coll Deductible", "collision_deductible", 12),
    ("Principal Driver", "principal_driver", 22),
)
# Title-block values sit in the wide street column; each label in column A spills across
# the empty columns B to H.
VALUE_COLUMN = 9
COST_COLUMN, STATED_COLUMN = 13, 14


def render(doc: VehicleSchedule, rec: Recorder) -> Output:
    book, sheet, total_row = schedule_sheet(
        rec,
        "Vehicle Schedule",
        SHEET,
        "SCHEDULE OF VEHICLES",
        (
            ("Named Insured:", "insured_name"),
            ("Agency:", "agency_name"),
            ("Prepared By:", "prepared_by"),
            ("Policy Effective Date:", "policy_effective_date"),
            ("Schedule As Of:", "as_of_date"),
        ),
        VALUE_COLUMN,
        "units",
        len(doc.units),
        HEADERS,
    )
    sheet.put(total_row, 1, "Total Units", bold=True)
    sheet.field(total_row, 2, "totals.vehicle_count", bold=True)
    sheet.field(total_row, COST_COLUMN, "totals.cost_new", bold=True)
    sheet.field(total_row, STATED_COLUMN, "totals.stated_amount", bold=True)
    return Output(book.render(), len(book.sheets))
