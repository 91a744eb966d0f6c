"""Project the world's financials onto comparative financial statements."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.financial_statement.model import (
    Assets,
    BalanceSheet,
    CurrentAssets,
    CurrentLiabilities,
    Equity,
    FinancialStatement,
    FiscalPeriod,
    IncomeStatement,
    Liabilities,
    LiabilitiesAndEquity,
    NoncurrentAssets,
    OperatingExpenses,
)
from packetbench.generator.world import models as world
from packetbench.generator.world.models import World


def income_statement(source: world.IncomeStatement) -> IncomeStatement:
    return IncomeStatement(
        revenue=source.revenue,
        cost_of_revenue=source.cost_of_revenue,
        gross_profit=source.gross_profit,
        operating_expenses=OperatingExpenses(
            salaries_wages=source.salaries_wages,
            rent=source.rent,
            depreciation_amortization=source.depreciation_amortization,
            other_operating_expenses=source.other_operating_expenses,
            total_operating_expenses=source.total_operating_expenses,
        ),
        operating_income=source.operating_income,
        interest_expense=source.interest_expense,
        other_income=source.other_income,
        pre_tax_income=source.pre_tax_income,
        income_tax=source.income_tax,
        net_income=source.net_income,
    )


def balance_sheet(source: world.BalanceSheet) -> BalanceSheet:
    return BalanceSheet(
        assets=Assets(
            current_assets=CurrentAssets(
                cash=source.cash,
                accounts_receivable=source.accounts_receivable,
                inventory=source.inventory,
                prepaid_expenses=source.prepaid_expenses,
                total_current_assets=source.total_current_assets,
            ),
            noncurrent_assets=NoncurrentAssets(
                property_equipment_gross=source.property_equipment_gross,
                accumulated_depreciation=source.accumulated_depreciation,
                other_assets=source.other_assets,
                total_noncurrent_assets=source.total_noncurrent_assets,
            ),
            total_assets=source.total_assets,
        ),
        liabilities_and_equity=LiabilitiesAndEquity(
            liabilities=Liabilities(
                current_liabilities=CurrentLiabilities(
                    accounts_payable=source.accounts_payable,
                    accrued_liabilities=source.accrued_liabilities,
                    current_portion_debt=source.current_portion_debt,
                    total_current_liabilities=source.total_current_liabilities,
                ),
                long_term_debt=source.long_term_debt,
                total_liabilities=source.total_liabilities,
            ),
            equity=Equity(
                common_stock=source.common_stock,
                retained_earnings=source.retained_earnings,
                total_equity=source.total_equity,
            ),
            total_liabilities_and_equity=source.total_liabilities_and_equity,
        ),
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> FinancialStatement:
    """The statements as the world states them; the world already sums in whole dollars."""
    financials = world.financials
    return FinancialStatement(
        company_name=world.insured.name,
        statement_basis=financials.basis,
        preparer_firm=financials.preparer_firm,
        report_date=financials.report_date,
        periods=[
            FiscalPeriod(
                fiscal_year_end=year.year_end,
                income_statement=income_statement(year.income),
                balance_sheet=balance_sheet(year.balance),
            )
            for year in financials.years
        ],
    )
