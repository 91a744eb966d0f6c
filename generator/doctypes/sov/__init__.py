"""Statement of values: PDF (landscape table) and XLSX (broker workbook)."""

from generator.doctypes.base import DocType, Variant, register
from generator.doctypes.sov import pdf, xlsx
from generator.doctypes.sov.build import build
from generator.doctypes.sov.model import StatementOfValues
from generator.doctypes.sov.prior import prior

SOV = register(DocType(
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
))
