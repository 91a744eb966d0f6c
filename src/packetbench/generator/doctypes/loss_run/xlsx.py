"""The loss run as a one-sheet workbook: title block, a block per policy term, grand total."""

from __future__ import annotations

from openpyxl.styles import Alignment

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.loss_run.model import LossRun
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.xlsx import Sheet, XlsxBook

STYLE = Style(cents=True)

HEADERS = (
    ("Claim Number", "claim_number", 16),
    ("Date of Loss", "loss_date", 12),
    ("Date Reported", "report_date", 12),
    ("Date Closed", "closed_date", 12),
    ("Claimant", "claimant", 30),
    ("Description of Loss", "description", 36),
    ("Location #", "location_number", 10),
    ("Status", "status", 22),
    ("Paid", "paid", 15),
    ("Outstanding Reserve", "reserve", 15),
    ("Total Incurred", "incurred", 15),
)
AMOUNTS = ("paid", "reserve", "incurred")
LEFT = Alignment(horizontal="left")
FIRST_POLICY_ROW = 7


def _totals(sheet: Sheet, row: int, label: str, prefix: str) -> None:
    """A bold totals row: label, claim and open counts, then the amounts under their columns."""
    sheet.put(row, 1, label, bold=True)
    for col, text, key in ((2, "Claims:", "claim_count"), (4, "Open Claims:", "open_claims")):
        sheet.put(row, col, text)
        sheet.field(row, col + 1, f"{prefix}.{key}", bold=True)
        # A count beside its label, not at the far edge of a wide text column.
        sheet.cell(row, col + 1).alignment = LEFT
    for col, (_, key, _) in enumerate(HEADERS, start=1):
        if key in AMOUNTS:
            sheet.field(row, col, f"{prefix}.{key}", bold=True)


def render(doc: LossRun, rec: Recorder) -> Output:
    book = XlsxBook(rec, "Loss Run")
    sheet = book.sheet("Loss Run")
    sheet.put(1, 1, "LOSS RUN / LOSS HISTORY REPORT", bold=True)
    for row, (label, path) in enumerate(
        (
            ("Named Insured:", "insured_name"),
            ("Agency:", "agency_name"),
            ("Valued As Of:", "valuation_date"),
            ("Run Date:", "run_date"),
        ),
        start=2,
    ):
        sheet.put(row, 1, label)
        sheet.field(row, 2, path)
    row = FIRST_POLICY_ROW
    for index, policy in enumerate(doc.policies):
        prefix = f"policies[{index}]"
        sheet, row = book.part(sheet, row, prefix)
        # Labels sit left of wide or empty cells so every value shows in full.
        sheet.put(row, 1, "Carrier:", bold=True)
        sheet.field(row, 2, f"{prefix}.carrier", bold=True)
        sheet.put(row, 5, "Policy Number:", bold=True)
        sheet.field(row, 6, f"{prefix}.policy_number", bold=True)
        sheet.put(row + 1, 1, "Policy Period:", bold=True)
        sheet.field(row + 1, 2, f"{prefix}.effective_date", bold=True)
        sheet.put(row + 1, 3, "to", bold=True)
        sheet.field(row + 1, 4, f"{prefix}.expiration_date", bold=True)
        sheet.put(row + 1, 5, "Line of Business:", bold=True)
        sheet.field(row + 1, 6, f"{prefix}.line_of_business", bold=True)
        row += 2
        for col, (title, key, _) in enumerate(HEADERS, start=1):
            sheet.header(row, col, title, f"policies[].claims[].{key}")
        row += 1
        if not policy.claims:
            sheet.put(row, 1, "No losses reported")
            row += 1
        for claim in range(len(policy.claims)):
            for col, (_, key, _) in enumerate(HEADERS, start=1):
                sheet.field(row, col, f"{prefix}.claims[{claim}].{key}")
            row += 1
        _totals(sheet, row, "Policy Total", f"{prefix}.totals")
        row += 2
    sheet, row = book.part(sheet, row, None)
    _totals(sheet, row, "GRAND TOTAL", "grand_totals")
    sheet.widths([w for _, _, w in HEADERS])
    return Output(book.render(), len(book.sheets))
