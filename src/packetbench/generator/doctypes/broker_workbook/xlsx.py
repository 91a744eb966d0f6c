"""The broker's workbook: Account, Locations, Vehicles and Drivers (with an auto line), Loss
Summary and Contacts sheets; each table's total sits under it."""

from __future__ import annotations

from collections.abc import Sequence

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.broker_workbook.model import BrokerWorkbook
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.xlsx import Sheet, XlsxBook

Columns = Sequence[tuple[str, str, float]]

LOCATIONS: Columns = (
    ("Loc #", "location_number", 7),
    ("Street", "address.street", 30),
    ("City", "address.city", 18),
    ("State", "address.state", 7),
    ("ZIP", "address.zip", 8),
    ("# Bldgs", "buildings", 8),
    ("Building Value", "building_value", 16),
    ("Contents Value", "contents_value", 16),
    ("BI Value", "business_income_value", 16),
    ("TIV", "tiv", 17),
)
VEHICLES: Columns = (
    ("Unit #", "unit_number", 7),
    ("Year", "year", 7),
    ("Make", "make", 14),
    ("Model", "model", 16),
    ("VIN", "vin", 21),
    ("Garage Loc #", "garage_location", 11),
    ("Cost New", "cost_new", 13),
    ("Stated Amount", "stated_amount", 14),
)
DRIVERS: Columns = (
    ("Driver #", "driver_number", 9),
    ("Name", "name", 24),
    ("DOB", "birth_date", 12),
    ("License #", "license_number", 16),
    ("Lic State", "license_state", 9),
    ("Unit #", "unit_number", 8),
)
LOSSES: Columns = (
    ("Line", "line", 24),
    ("Carrier", "carrier", 30),
    ("Policy #", "policy_number", 18),
    ("Effective", "effective_date", 12),
    ("Claims", "claim_count", 8),
    ("Incurred", "incurred", 15),
)
CONTACTS: Columns = (
    ("Role", "role", 34),
    ("Name", "name", 24),
    ("Phone", "phone", 16),
    ("Email", "email", 36),
)


def _table(
    sheet: Sheet,
    items: str,
    count: int,
    columns: Columns,
    totals: Sequence[tuple[int, str]] = (),
    label: str = "Total",
) -> None:
    """Header row 1, one row per item, then an optional bold total row."""
    for col, (title, key, _) in enumerate(columns, start=1):
        sheet.header(1, col, title, f"{items}[].{key}")
    for index in range(count):
        for col, (_, key, _) in enumerate(columns, start=1):
            sheet.field(index + 2, col, f"{items}[{index}].{key}")
    if totals:
        row = count + 2
        sheet.put(row, 1, label, bold=True)
        for col, path in totals:
            sheet.field(row, col, path, bold=True)
    sheet.widths([w for _, _, w in columns])
    sheet.freeze("A2")


def render(doc: BrokerWorkbook, rec: Recorder) -> Output:
    book = XlsxBook(rec, "Account Workbook")
    account = book.sheet("Account")
    account.put(1, 1, "ACCOUNT SUMMARY", bold=True)
    for row, (label, path) in enumerate(
        (
            ("Named Insured", "account.insured_name"),
            ("FEIN", "account.fein"),
            ("Mailing Street", "account.mailing_address.street"),
            ("City", "account.mailing_address.city"),
            ("State", "account.mailing_address.state"),
            ("ZIP", "account.mailing_address.zip"),
            ("Broker", "account.agency_name"),
            ("Account Manager", "account.account_manager"),
            ("Proposed Effective", "account.effective_date"),
            ("Proposed Expiration", "account.expiration_date"),
        ),
        start=3,
    ):
        account.put(row, 1, label)
        account.field(row, 2, path)
    account.widths([22, 44])
    _table(
        book.sheet("Locations"),
        "locations",
        len(doc.locations),
        LOCATIONS,
        ((2, "totals.location_count"), (10, "totals.total_tiv")),
        "Total Locations",
    )
    if doc.vehicles:
        _table(
            book.sheet("Vehicles"),
            "vehicles",
            len(doc.vehicles),
            VEHICLES,
            ((2, "totals.vehicle_count"),),
            "Total Units",
        )
        _table(
            book.sheet("Drivers"),
            "drivers",
            len(doc.drivers),
            DRIVERS,
            ((2, "totals.driver_count"),),
            "Total Drivers",
        )
    _table(
        book.sheet("Loss Summary"),
        "losses",
        len(doc.losses),
        LOSSES,
        ((5, "totals.claim_count"), (6, "totals.total_incurred")),
        "Total",
    )
    _table(book.sheet("Contacts"), "contacts", len(doc.contacts), CONTACTS)
    return Output(book.render(), len(book.sheets))
