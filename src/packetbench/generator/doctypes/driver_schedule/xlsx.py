"""The driver schedule as a workbook: title block, header row, one row per driver, total."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.driver_schedule.model import DriverSchedule
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.xlsx import XlsxBook

SHEET = "Drivers"
HEADERS = (
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
HEADER_ROW = 7
# Title-block and total values go in the wide "Last Name" column: a date in a narrow column
# shows as "####", and each label in column A spills across the empty columns B and C.
VALUE_COLUMN = 4


def render(doc: DriverSchedule, rec: Recorder) -> Output:
    book = XlsxBook(rec, "Driver Schedule")
    sheet = book.sheet(SHEET)
    sheet.put(1, 1, "DRIVER SCHEDULE", bold=True)
    for row, (label, path) in enumerate(
        (
            ("Named Insured:", "insured_name"),
            ("Agency:", "agency_name"),
            ("Policy Effective Date:", "policy_effective_date"),
            ("Schedule As Of:", "as_of_date"),
        ),
        start=2,
    ):
        sheet.put(row, 1, label)
        sheet.field(row, VALUE_COLUMN, path)
    for col, (title, key, _) in enumerate(HEADERS, start=1):
        sheet.header(HEADER_ROW, col, title, f"drivers[].{key}")
    for index in range(len(doc.drivers)):
        row = HEADER_ROW + 1 + index
        for col, (_, key, _) in enumerate(HEADERS, start=1):
            sheet.field(row, col, f"drivers[{index}].{key}")
    total_row = HEADER_ROW + 1 + len(doc.drivers)
    sheet.put(total_row, 1, "Total Drivers", bold=True)
    sheet.field(total_row, VALUE_COLUMN, "driver_count", bold=True)
    sheet.widths([w for _, _, w in HEADERS])
    sheet.freeze(f"A{HEADER_ROW + 1}")
    return Output(book.render(), len(book.sheets))
