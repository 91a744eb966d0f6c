"""Comparative financial statements: an income statement and a balance sheet per fiscal year.

Every ``total_*`` leaf equals the sum of its numeric sibling leaves plus the ``total_*`` leaves
of its sibling objects; the other subtotals (gross profit, operating income, pre-tax and net
income) are differences stated on each field.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import Date, DocModel, Leaf, Money, Str

FinancialBasis = Annotated[str | None, Leaf("enum", codes=codes.FINANCIAL_BASIS)]


class OperatingExpenses(DocModel):
    """Operating expenses of the fiscal year, by kind."""

    salaries_wages: Money = None
    """Salaries and wages in dollars."""
    rent: Money = None
    """Rent and occupancy expense in dollars."""
    depreciation_amortization: Money = None
    """Depreciation and amortization expense in dollars."""
    other_operating_expenses: Money = None
    """All other operating (selling, general and administrative) expenses in dollars."""
    total_operating_expenses: Money = None
    """Total operating expenses in dollars: the sum of the expense lines above."""


class IncomeStatement(DocModel):
    """The statement of income for one fiscal year, in dollars."""

    revenue: Money = None
    """Revenue (net sales) in dollars."""
    cost_of_revenue: Money = None
    """Cost of revenue (cost of goods sold) in dollars."""
    gross_profit: Money = None
    """Gross profit in dollars: revenue minus cost of revenue."""
    operating_expenses: OperatingExpenses = Field(default_factory=OperatingExpenses)
    """Operating expenses and their total."""
    operating_income: Money = None
    """Operating income in dollars: gross profit minus total operating expenses."""
    interest_expense: Money = None
    """Interest expense in dollars, as a positive amount."""
    other_income: Money = None
    """Other income in dollars; negative for other expense (shown in parentheses)."""
    pre_tax_income: Money = None
    """Income before income taxes in dollars: operating income minus interest expense plus
    other income."""
    income_tax: Money = None
    """Income tax expense in dollars."""
    net_income: Money = None
    """Net income in dollars: income before income taxes minus income tax."""


class CurrentAssets(DocModel):
    """Current assets at the fiscal year end."""

    cash: Money = None
    """Cash and cash equivalents in dollars."""
    accounts_receivable: Money = None
    """Accounts receivable, net, in dollars."""
    inventory: Money = None
    """Inventory in dollars."""
    prepaid_expenses: Money = None
    """Prepaid expenses in dollars."""
    total_current_assets: Money = None
    """Total current assets in dollars: the sum of the current asset lines."""


class NoncurrentAssets(DocModel):
    """Property, equipment and other noncurrent assets at the fiscal year end."""

    property_equipment_gross: Money = None
    """Property and equipment at cost (gross) in dollars."""
    accumulated_depreciation: Money = None
    """Accumulated depreciation in dollars, as a negative amount (shown in parentheses)."""
    other_assets: Money = None
    """Other noncurrent assets in dollars."""
    total_noncurrent_assets: Money = None
    """Total noncurrent assets in dollars: gross property and equipment plus the (negative)
    accumulated depreciation plus other assets."""


class Assets(DocModel):
    """Assets at the fiscal year end."""

    current_assets: CurrentAssets = Field(default_factory=CurrentAssets)
    """Current assets and their total."""
    noncurrent_assets: NoncurrentAssets = Field(default_factory=NoncurrentAssets)
    """Noncurrent assets and their total."""
    total_assets: Money = None
    """Total assets in dollars: total current plus total noncurrent assets."""


class CurrentLiabilities(DocModel):
    """Current liabilities at the fiscal year end."""

    accounts_payable: Money = None
    """Accounts payable in dollars."""
    accrued_liabilities: Money = None
    """Accrued liabilities (accrued expenses) in dollars."""
    current_portion_debt: Money = None
    """Current portion of long-term debt in dollars."""
    total_current_liabilities: Money = None
    """Total current liabilities in dollars: the sum of the current liability lines."""


class Liabilities(DocModel):
    """Liabilities at the fiscal year end."""

    current_liabilities: CurrentLiabilities = Field(default_factory=CurrentLiabilities)
    """Current liabilities and their total."""
    long_term_debt: Money = None
    """Long-term debt, less the current portion, in dollars."""
    total_liabilities: Money = None
    """Total liabilities in dollars: total current liabilities plus long-term debt."""


class Equity(DocModel):
    """Owners' equity at the fiscal year end."""

    common_stock: Money = None
    """Common stock (paid-in capital) in dollars."""
    retained_earnings: Money = None
    """Retained earnings in dollars; negative for an accumulated deficit."""
    total_equity: Money = None
    """Total equity in dollars: common stock plus retained earnings."""


class LiabilitiesAndEquity(DocModel):
    """Liabilities and equity at the fiscal year end."""

    liabilities: Liabilities = Field(default_factory=Liabilities)
    """Liabilities and their total."""
    equity: Equity = Field(default_factory=Equity)
    """Equity and its total."""
    total_liabilities_and_equity: Money = None
    """Total liabilities and equity in dollars: total liabilities plus total equity; equals
    total assets."""


class BalanceSheet(DocModel):
    """The balance sheet at one fiscal year end, in dollars."""

    assets: Assets = Field(default_factory=Assets)
    """Assets and their total."""
    liabilities_and_equity: LiabilitiesAndEquity = Field(default_factory=LiabilitiesAndEquity)
    """Liabilities, equity and their total."""


class FiscalPeriod(DocModel):
    """One fiscal year (one comparative column) of the statements."""

    record_key = ("fiscal_year_end",)

    fiscal_year_end: Date = None
    """Last day of the fiscal year (YYYY-MM-DD), as shown in the column heading."""
    income_statement: IncomeStatement = Field(default_factory=IncomeStatement)
    """Statement of income for the year."""
    balance_sheet: BalanceSheet = Field(default_factory=BalanceSheet)
    """Balance sheet at the year end."""


class FinancialStatement(DocModel):
    """Comparative financial statements (income statement and balance sheet) of the insured.

    Amounts are in dollars. Every total_* field equals the sum of its sibling amount fields
    plus the total_* fields of its sibling objects.
    """

    company_name: Str = None
    """Name of the company the statements are for."""
    statement_basis: FinancialBasis = None
    """Level of accountant assurance the statements carry."""
    preparer_firm: Str = None
    """Accounting firm (or department) that prepared the statements."""
    report_date: Date = None
    """Date of the accountant's report (YYYY-MM-DD)."""
    periods: list[FiscalPeriod] = Field(default_factory=list)
    """One entry per fiscal year shown, most recent first."""
