"""The line items of each statement, in reading order, shared by the PDF and XLSX layouts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["heading", "item", "total", "grand"]


@dataclass(frozen=True)
class Line:
    """One statement line: a caption and, unless it is a heading, the period-relative leaf key.

    `dollar` marks the lines that carry a "$" in accountant style (the first amount of a
    statement and its main totals); the other amounts are bare numbers.
    """

    label: str
    key: str | None
    role: Role = "item"
    indent: int = 0
    dollar: bool = False


_IS = "income_statement"
_OPEX = f"{_IS}.operating_expenses"

INCOME: tuple[Line, ...] = (
    Line("Revenue", f"{_IS}.revenue", dollar=True),
    Line("Cost of revenue", f"{_IS}.cost_of_revenue"),
    Line("Gross profit", f"{_IS}.gross_profit", "total"),
    Line("Operating expenses", None, "heading"),
    Line("Salaries and wages", f"{_OPEX}.salaries_wages", indent=1),
    Line("Rent", f"{_OPEX}.rent", indent=1),
    Line("Depreciation and amortization", f"{_OPEX}.depreciation_amortization", indent=1),
    Line("Other operating expenses", f"{_OPEX}.other_operating_expenses", indent=1),
    Line("Total operating expenses", f"{_OPEX}.total_operating_expenses", "total", 1),
    Line("Operating income", f"{_IS}.operating_income", "total"),
    Line("Interest expense", f"{_IS}.interest_expense", indent=1),
    Line("Other income (expense)", f"{_IS}.other_income", indent=1),
    Line("Income before income taxes", f"{_IS}.pre_tax_income", "total"),
    Line("Income tax expense", f"{_IS}.income_tax"),
    Line("Net income", f"{_IS}.net_income", "grand", dollar=True),
)

_A = "balance_sheet.assets"
_CA = f"{_A}.current_assets"
_NCA = f"{_A}.noncurrent_assets"
_LE = "balance_sheet.liabilities_and_equity"
_L = f"{_LE}.liabilities"
_CL = f"{_L}.current_liabilities"
_EQ = f"{_LE}.equity"

BALANCE: tuple[Line, ...] = (
    Line("ASSETS", None, "heading"),
    Line("Current assets", None, "heading"),
    Line("Cash and cash equivalents", f"{_CA}.cash", indent=1, dollar=True),
    Line("Accounts receivable, net", f"{_CA}.accounts_receivable", indent=1),
    Line("Inventory", f"{_CA}.inventory", indent=1),
    Line("Prepaid expenses", f"{_CA}.prepaid_expenses", indent=1),
    Line("Total current assets", f"{_CA}.total_current_assets", "total", 1),
    Line("Noncurrent assets", None, "heading"),
    Line("Property and equipment, at cost", f"{_NCA}.property_equipment_gross", indent=1),
    Line("Less accumulated depreciation", f"{_NCA}.accumulated_depreciation", indent=1),
    Line("Other assets", f"{_NCA}.other_assets", indent=1),
    Line("Total noncurrent assets", f"{_NCA}.total_noncurrent_assets", "total", 1),
    Line("Total assets", f"{_A}.total_assets", "grand", dollar=True),
    Line("LIABILITIES AND EQUITY", None, "heading"),
    Line("Current liabilities", None, "heading"),
    Line("Accounts payable", f"{_CL}.accounts_payable", indent=1, dollar=True),
    Line("Accrued liabilities", f"{_CL}.accrued_liabilities", indent=1),
    Line("Current portion of long-term debt", f"{_CL}.current_portion_debt", indent=1),
    Line("Total current liabilities", f"{_CL}.total_current_liabilities", "total", 1),
    Line("Long-term debt, less current portion", f"{_L}.long_term_debt"),
    Line("Total liabilities", f"{_L}.total_liabilities", "total"),
    Line("Equity", None, "heading"),
    Line("Common stock", f"{_EQ}.common_stock", indent=1),
    Line("Retained earnings", f"{_EQ}.retained_earnings", indent=1),
    Line("Total equity", f"{_EQ}.total_equity", "total", 1),
    Line(
        "Total liabilities and equity", f"{_LE}.total_liabilities_and_equity", "grand", dollar=True
    ),
)
