"""The experience-rating worksheet as one sheet: header block, a block per experience policy
(classes, then claims, each with its subtotal), and the rating calculation."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.experience_mod.model import ExperienceMod
from packetbench.generator.doctypes.experience_mod.pdf import RATING_ROWS
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.xlsx import XlsxBook

SHEET = "Experience Rating"
CLASS_HEADERS = (
    ("State", "state"),
    ("Class Code", "class_code"),
    ("ELR", "elr"),
    ("D-Ratio", "d_ratio"),
    ("Payroll", "payroll"),
    ("Expected Losses", "expected_losses"),
    ("Expected Primary Losses", "expected_primary"),
)
CLAIM_HEADERS = (
    ("Claim Number", "claim_number"),
    ("Injury Type", "injury_type"),
    ("Open / Final", "status"),
    ("Actual Incurred Losses", "actual_incurred"),
    ("Actual Primary Losses", "actual_primary"),
)
WIDTHS: list[float] = [30, 24, 14, 12, 16, 18, 22]
# Labels in column A, values in column B: wide enough for a name, a date or an amount.
VALUE_COLUMN = 2
# The calculation's long labels spill over the empty columns B to D.
RATING_COLUMN = 5


def render(doc: ExperienceMod, rec: Recorder) -> Output:
    book = XlsxBook(rec, "Experience Rating Worksheet")
    sheet = book.sheet(SHEET)
    sheet.put(1, 1, "WORKERS COMPENSATION EXPERIENCE RATING WORKSHEET", bold=True)
    row = 2
    for label, path in (
        ("Rating Bureau", "bureau"),
        ("Risk Name", "risk_name"),
        ("Risk ID", "risk_id"),
        ("Rating State", "rating_state"),
        ("Rating Effective Date", "rating_effective_date"),
        ("Production Date", "production_date"),
        ("Split Point", "split_point"),
    ):
        sheet.put(row, 1, label)
        sheet.field(row, VALUE_COLUMN, path)
        row += 1
    for index, policy in enumerate(doc.policies):
        prefix = f"policies[{index}]"
        row += 1
        sheet.put(row, 1, f"EXPERIENCE POLICY {index + 1}", bold=True)
        for label, key in (
            ("Carrier", "carrier"),
            ("Policy Number", "policy_number"),
            ("Effective Date", "effective_date"),
            ("Expiration Date", "expiration_date"),
        ):
            row += 1
            sheet.put(row, 1, label)
            sheet.field(row, VALUE_COLUMN, f"{prefix}.{key}")
        row += 1
        for col, (title, key) in enumerate(CLASS_HEADERS, start=1):
            sheet.header(row, col, title, f"policies[].classes[].{key}")
        for item in range(len(policy.classes)):
            row += 1
            for col, (_, key) in enumerate(CLASS_HEADERS, start=1):
                sheet.field(row, col, f"{prefix}.classes[{item}].{key}")
        row += 1
        sheet.put(row, 1, "Policy Total", bold=True)
        for col, key in ((5, "payroll"), (6, "expected_losses"), (7, "expected_primary")):
            sheet.field(row, col, f"{prefix}.totals.{key}", bold=True)
        row += 2
        for col, (title, key) in enumerate(CLAIM_HEADERS, start=1):
            sheet.header(row, col, title, f"policies[].claims[].{key}")
        if not policy.claims:
            row += 1
            sheet.put(row, 1, "No claims reported")
        for item in range(len(policy.claims)):
            row += 1
            for col, (_, key) in enumerate(CLAIM_HEADERS, start=1):
                sheet.field(row, col, f"{prefix}.claims[{item}].{key}")
        row += 1
        sheet.put(row, 1, "Policy Total", bold=True)
        for col, key in ((4, "actual_incurred"), (5, "actual_primary")):
            sheet.field(row, col, f"{prefix}.totals.{key}", bold=True)
        row += 1
    row += 1
    sheet.put(row, 1, "EXPERIENCE RATING CALCULATION", bold=True)
    for label, path in RATING_ROWS:
        row += 1
        sheet.put(row, 1, label)
        sheet.field(row, RATING_COLUMN, path, bold=path.endswith("experience_mod"))
    sheet.widths(WIDTHS)
    return Output(book.render(), len(book.sheets))
