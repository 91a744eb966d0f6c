"""Financial statements: PDF (accountant's comparative statements) and XLSX (two sheets)."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.financial_statement import pdf, xlsx
from packetbench.generator.doctypes.financial_statement.build import build
from packetbench.generator.doctypes.financial_statement.model import FinancialStatement

FINANCIAL_STATEMENT = register(
    DocType(
        name="financial_statement",
        title="Financial Statements",
        model=FinancialStatement,
        build=build,
        variants=(
            Variant("financial_statement_pdf", "pdf", pdf.render),
            Variant("financial_statement_excel", "xlsx", xlsx.render),
        ),
        section="financial",
    )
)
