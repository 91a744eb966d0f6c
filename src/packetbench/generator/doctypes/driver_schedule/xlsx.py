"""The driver schedule as a workbook: title block, header row, one row per driver, total."""

from __future__ import annotations

from packetbench.generator.doctypes._schedule import Header, schedule_sheet
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.driver_schedule.model import DriverSchedule
from packetbench.generator.render.recorder import Recorder

SHEET = "Drivers"
HEADERS: tuple[Header, ...] = (
    ("Driver #", "driver_number", 9),
    ("First Name", "first_name", 14),
    ("MI", "middle_initial", 5),
    ("Last Name", "last_name", 16),
    ("Date of Birth", "birth_date", 12),
    ("Gender", "gender", 9),
    ("Marital Status", "marital_status", 16),
    ("License Number", "license_number", 14),
    ("License State", "license_state", 9),
    ("License Class", "license_class", 10),
    ("Endorsements", "endorsements", 13),
    ("Year Licensed", "year_licensed", 10),
    ("Hire Date", "hire_date", 12),
    ("Position", "position", 22),
    ("Years Experience", "years_experience", 11),
    ("Vehicle #", "vehicle_number", 9),
    ("Assigned Vehicle", "vehicle_description", 30),
    ("% Use", "percent_use", 8),
    ("Violations", "violation_count", 10),
    ("Accidents", "accident_count", 10),
    ("MVR Points", "mvr_points", 10),
    ("Excluded (Y/N)", "excluded", 10),
    ("MVR Date", "mvr_date", 12),
)
# Title-block and total values go in the wide "Last Name" column: a date in a narrow column
# shows as "####", and each label in column A spills across the empty columns B and C.
VALUE_COLUMN = 4


def render(doc: DriverSchedule, rec: Recorder) -> Output:
    book, sheet, total_row = schedule_sheet(
        rec,
        "Driver Schedule",
        SHEET,
        "DRIVER SCHEDULE",
        (
            ("Named Insured:", "insured_name"),
            ("Agency:", "agency_name"),
            ("Policy Effective Date:", "policy_effective_date"),
            ("Schedule As Of:", "as_of_date"),
        ),
        VALUE_COLUMN,
        "drivers",
        len(doc.drivers),
        HEADERS,
    )
    sheet.put(total_row, 1, "Total Drivers", bold=True)
    sheet.field(total_row, VALUE_COLUMN, "driver_count", bold=True)
    return Output(book.render(), len(book.sheets))
