"""Statement of values: PDF (landscape table) and XLSX (broker workbook)."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.sov import pdf, xlsx
from packetbench.generator.doctypes.sov.build import build
from packetbench.generator.doctypes.sov.model import StatementOfValues
from packetbench.generator.doctypes.sov.prior import prior

SOV = register(
    DocType(
        name="sov",
        title="Statement of Values",
        model=StatementOfValues,
        build=build,
        variants=(
            Variant("sov_pdf", "pdf", pdf.render, pdf.STYLE),
            Variant("sov_excel", "xlsx", xlsx.render),
        ),
        section="schedule",
        prior=prior,
        lines=frozenset({"property"}),
    )
)
