"""Comparative financial statements in whole dollars; every total is a sum of its items."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from packetbench.generator.world.draw import iso, weighted
from packetbench.generator.world.models import BalanceSheet, Financials, FiscalYear, IncomeStatement

ACCOUNTING_FIRMS = (
    "{last} & Associates, CPAs",
    "{last} {last2} LLP",
    "{last} CPA Group",
    "{last}, {last2} & Co.",
)


def _year(
    rng: random.Random, revenue: int, year_end: dt.date, service: bool, later: FiscalYear | None
) -> FiscalYear:
    """One fiscal year. With `later` (the following year, already built), equity rolls
    forward into it: same common stock, and retained earnings that become the later year's
    after its net income less dividends; cash then balances the sheet.
    """

    def part(low: float, high: float, base: int = revenue) -> int:
        return round(base * rng.uniform(low, high))

    cost = part(0.35, 0.55) if service else part(0.55, 0.72)
    gross = revenue - cost
    salaries, rent = part(0.10, 0.18), part(0.01, 0.04)
    depreciation, other_opex = part(0.01, 0.03), part(0.02, 0.06)
    total_opex = salaries + rent + depreciation + other_opex
    operating = gross - total_opex
    long_term_debt = part(0.05, 0.35)
    interest = round(long_term_debt * rng.uniform(0.04, 0.08))
    other_income = part(-0.004, 0.008)
    pre_tax = operating - interest + other_income
    tax = max(0, round(pre_tax * rng.uniform(0.21, 0.27)))
    income = IncomeStatement(
        revenue=float(revenue),
        cost_of_revenue=float(cost),
        gross_profit=float(gross),
        salaries_wages=float(salaries),
        rent=float(rent),
        depreciation_amortization=float(depreciation),
        other_operating_expenses=float(other_opex),
        total_operating_expenses=float(total_opex),
        operating_income=float(operating),
        interest_expense=float(interest),
        other_income=float(other_income),
        pre_tax_income=float(pre_tax),
        income_tax=float(tax),
        net_income=float(pre_tax - tax),
    )
    cash, receivables = part(0.03, 0.12), part(30 / 365, 60 / 365)
    inventory = 0 if service else part(0.05, 0.15)
    prepaid = part(0.003, 0.012)
    current_assets = cash + receivables + inventory + prepaid
    ppe_gross = part(0.20, 0.70)
    accumulated = -round(ppe_gross * rng.uniform(0.25, 0.60))
    other_assets = part(0.00, 0.04)
    noncurrent = ppe_gross + accumulated + other_assets
    total_assets = current_assets + noncurrent
    payables, accrued = part(0.04, 0.09), part(0.01, 0.04)
    current_debt = round(long_term_debt * rng.uniform(0.08, 0.15))
    current_liabilities = payables + accrued + current_debt
    total_liabilities = current_liabilities + long_term_debt
    if later is None:
        common = weighted(rng, [(1_000, 2), (10_000, 3), (100_000, 2), (500_000, 1)])
        retained = total_assets - total_liabilities - common
    else:
        common = round(later.balance.common_stock)
        later_net = round(later.income.net_income)
        dividends = round(max(0, later_net) * rng.uniform(0.0, 0.4))
        retained = round(later.balance.retained_earnings) - later_net + dividends
        # Cash balances the sheet; when that would leave too little cash, the company
        # carried more long-term debt that year.
        cash = total_liabilities + common + retained - (total_assets - cash)
        floor = part(0.01, 0.03)
        if cash < floor:
            long_term_debt += floor - cash
            total_liabilities += floor - cash
            cash = floor
        current_assets = cash + receivables + inventory + prepaid
        total_assets = current_assets + noncurrent
    balance = BalanceSheet(
        cash=float(cash),
        accounts_receivable=float(receivables),
        inventory=float(inventory),
        prepaid_expenses=float(prepaid),
        total_current_assets=float(current_assets),
        property_equipment_gross=float(ppe_gross),
        accumulated_depreciation=float(accumulated),
        other_assets=float(other_assets),
        total_noncurrent_assets=float(noncurrent),
        total_assets=float(total_assets),
        accounts_payable=float(payables),
        accrued_liabilities=float(accrued),
        current_portion_debt=float(current_debt),
        total_current_liabilities=float(current_liabilities),
        long_term_debt=float(long_term_debt),
        total_liabilities=float(total_liabilities),
        common_stock=float(common),
        retained_earnings=float(retained),
        total_equity=float(common + retained),
        total_liabilities_and_equity=float(total_liabilities + common + retained),
    )
    return FiscalYear(year_end=iso(year_end), income=income, balance=balance)


def build_financials(
    rng: random.Random,
    knobs: dict[str, Any],
    revenue: int,
    completion: dt.date,
    service: bool,
    last_names: tuple[str, str],
    company: str,
) -> Financials:
    """Statements for the fiscal years ending before the submission, most recent first."""
    # Year-end statements are ready about three months after the year closes.
    latest_year = completion.year - 1 if completion.month > 3 else completion.year - 2
    years: list[FiscalYear] = []
    year_revenue = revenue
    for back in range(knobs["financials.years"]):
        later = years[-1] if years else None
        years.append(_year(rng, year_revenue, dt.date(latest_year - back, 12, 31), service, later))
        year_revenue = round(year_revenue / rng.uniform(0.97, 1.15))
    basis = weighted(
        rng, [("Audited", 2), ("Reviewed", 3), ("Compiled", 3), ("Internally Prepared", 2)]
    )
    if basis == "Internally Prepared":
        firm = f"{company} Accounting Department"
    else:
        firm = rng.choice(ACCOUNTING_FIRMS).format(last=last_names[0], last2=last_names[1])
    report = dt.date(latest_year + 1, rng.randint(2, 3), rng.randint(1, 28))
    return Financials(
        basis=basis,
        preparer_firm=firm,
        report_date=iso(report),
        years=tuple(years),
    )
