"""The statement of values as a broker workbook: title block, header row, rows, total."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.sov.model import StatementOfValues
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.xlsx import XlsxBook

HEADERS = (
    ("Loc #", "location_number", 7),
    ("Bldg #", "building_number", 7),
    ("Street Address", "address.street", 32),
    ("City", "address.city", 18),
    ("State", "address.state", 7),
    ("ZIP", "address.zip", 9),
    ("Occupancy", "occupancy", 20),
    ("Construction", "construction", 24),
    ("Year Built", "year_built", 10),
    ("Stories", "stories", 8),
    ("Square Feet", "square_feet", 12),
    ("Sprinklered %", "sprinklered_percent", 12),
    ("Protection Class", "protection_class", 11),
    ("Building Value", "building_value", 16),
    ("Contents Value", "contents_value", 16),
    ("BI / EE (12 mo)", "business_income_value", 16),
    ("Total Insured Value", "tiv", 18),
)
FIRST_ROW = 6


def render(doc: StatementOfValues, rec: Recorder) -> Output:
    book = XlsxBook(rec, "Statement of Values")
    sheet = book.sheet("SOV")
    sheet.put(1, 1, "STATEMENT OF VALUES", bold=True)
    sheet.put(2, 1, "Named Insured:")
    sheet.field(2, 3, "insured_name")
    sheet.put(3, 1, "Prepared By:")
    sheet.field(3, 3, "prepared_by")
    sheet.put(4, 1, "Values As Of:")
    sheet.field(4, 3, "as_of_date")
    header_row = FIRST_ROW - 1
    for col, (title, key, _) in enumerate(HEADERS, start=1):
        sheet.header(header_row, col, title, f"buildings[].{key}")
    for index in range(len(doc.buildings)):
        row = FIRST_ROW + index
        for col, (_, key, _) in enumerate(HEADERS, start=1):
            sheet.field(row, col, f"buildings[{index}].{key}")
    total_row = FIRST_ROW + len(doc.buildings)
    sheet.put(total_row, 1, "TOTAL", bold=True)
    for col, (_, key, _) in enumerate(HEADERS, start=1):
        if key in ("building_value", "contents_value", "business_income_value", "tiv"):
            sheet.field(total_row, col, f"totals.{key}", bold=True)
    sheet.widths([w for _, _, w in HEADERS])
    sheet.freeze(f"A{FIRST_ROW}")
    return Output(book.render(), len(book.sheets))
