"""The general supplemental application as a workbook, as carriers send it for the broker to
fill in: Applicant, Premises, Questions and Prior Insurance sheets."""

from __future__ import annotations

from collections.abc import Sequence

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.supplemental_general.model import GeneralSupplement
from packetbench.generator.fakers.supplements import GENERAL_QUESTIONS
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.xlsx import Sheet, XlsxBook

Columns = Sequence[tuple[str, str, float]]

APPLICANT: tuple[tuple[str, str], ...] = (
    ("Named Insured", "header.named_insured"),
    ("Doing Business As", "applicant.dba"),
    ("Legal Entity", "applicant.entity_type"),
    ("FEIN", "applicant.fein"),
    ("Mailing Street", "applicant.mailing_address.street"),
    ("City", "applicant.mailing_address.city"),
    ("State", "applicant.mailing_address.state"),
    ("ZIP", "applicant.mailing_address.zip"),
    ("Business Phone", "applicant.phone"),
    ("Website", "applicant.website"),
    ("Nature of Business", "applicant.nature_of_business"),
    ("Class of Business", "applicant.industry"),
    ("SIC", "applicant.sic"),
    ("NAICS", "applicant.naics"),
    ("Business Started", "applicant.business_start_date"),
    ("Years in Business", "applicant.years_in_business"),
    ("Full-Time Employees", "exposures.full_time_employees"),
    ("Part-Time Employees", "exposures.part_time_employees"),
    ("Annual Gross Revenue", "exposures.annual_revenue"),
    ("Locations", "exposures.location_count"),
    ("Buildings", "exposures.building_count"),
    ("Description of Operations", "applicant.operations_description"),
)
POLICY: tuple[tuple[str, str], ...] = (
    ("Agency", "header.agency_name"),
    ("Agency Customer ID", "header.agency_customer_id"),
    ("Carrier", "header.carrier_name"),
    ("NAIC Code", "header.naic_code"),
    ("Policy Number", "header.policy_number"),
    ("Proposed Effective", "header.effective_date"),
    ("Proposed Expiration", "header.expiration_date"),
)
SIGNATURE: tuple[tuple[str, str], ...] = (
    ("Signed By", "signature.signer_name"),
    ("Title", "signature.signer_title"),
    ("Date Signed", "signature.signature_date"),
    ("Producer", "signature.producer_name"),
)
PREMISES: Columns = (
    ("Loc #", "location_number", 7),
    ("Bldg #", "building_number", 7),
    ("Street", "street", 30),
    ("City", "city", 18),
    ("State", "state", 7),
    ("Interest", "interest", 10),
    ("Occupancy", "occupancy", 20),
    ("Construction", "construction", 24),
    ("Year Built", "year_built", 10),
    ("Stories", "stories", 8),
    ("Square Feet", "square_feet", 12),
    ("% Sprinklered", "sprinklered_percent", 13),
)
PRIOR: Columns = (
    ("Policy Year", "policy_year", 11),
    ("Line of Business", "line", 24),
    ("Carrier", "carrier", 40),
    ("Policy Number", "policy_number", 18),
    ("Effective", "effective_date", 12),
    ("Expiration", "expiration_date", 12),
    ("Premium", "premium", 14),
    ("Claims", "claim_count", 8),
    ("Incurred", "incurred", 14),
    ("Non-Renewed (Y/N)", "non_renewed", 12),
)


def _labelled(sheet: Sheet, row: int, title: str, rows: tuple[tuple[str, str], ...]) -> int:
    """A bold title, then label / value rows; returns the row after the block and a gap."""
    sheet.put(row, 1, title, bold=True)
    for offset, (label, path) in enumerate(rows, start=1):
        sheet.put(row + offset, 1, label)
        sheet.field(row + offset, 2, path)
    return row + len(rows) + 2


def _table(sheet: Sheet, items: str, count: int, columns: Columns, title: str) -> None:
    """A title row, the header row, one row per item."""
    sheet.put(1, 1, title, bold=True)
    for col, (header, key, _) in enumerate(columns, start=1):
        sheet.header(3, col, header, f"{items}[].{key}")
    for index in range(count):
        for col, (_, key, _) in enumerate(columns, start=1):
            sheet.field(index + 4, col, f"{items}[{index}].{key}")
    sheet.widths([w for _, _, w in columns])
    sheet.freeze("A4")


def render(doc: GeneralSupplement, rec: Recorder) -> Output:
    book = XlsxBook(rec, "Supplemental Application")
    applicant = book.sheet("Applicant")
    row = _labelled(applicant, 1, "SUPPLEMENTAL APPLICATION - COMMERCIAL LINES", POLICY)
    row = _labelled(applicant, row, "THE APPLICANT", APPLICANT)
    _labelled(applicant, row, "SIGNATURE", SIGNATURE)
    applicant.widths([26, 90])
    _table(
        book.sheet("Premises"),
        "premises",
        len(doc.premises),
        PREMISES,
        "PREMISES (FIRST BUILDINGS OF THE STATEMENT OF VALUES)",
    )
    questions = book.sheet("Questions")
    questions.put(1, 1, "UNDERWRITING QUESTIONS", bold=True)
    for col, header in enumerate(("#", "Question", "Y/N", "Explanation of Any Yes"), start=1):
        questions.header(3, col, header)
    for number, question in enumerate(GENERAL_QUESTIONS, start=1):
        row = number + 3
        questions.put(row, 1, number)
        questions.put(row, 2, question.text)
        questions.field(row, 3, f"answers.{question.id}.answer")
        questions.field(row, 4, f"answers.{question.id}.explanation")
    questions.widths([5, 80, 6, 70])
    questions.freeze("A4")
    _table(
        book.sheet("Prior Insurance"),
        "prior_insurance",
        len(doc.prior_insurance),
        PRIOR,
        "PRIOR INSURANCE HISTORY",
    )
    return Output(book.render(), len(book.sheets))
