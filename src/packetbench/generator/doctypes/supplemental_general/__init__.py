"""The general supplemental application (commercial lines) every packet carries, whatever its
lines and class of business: PDF (the carrier's questionnaire), XLSX (four sheets) and the
prior insurance history as the agency system exports it (CSV)."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.supplemental_general import csvexport, pdf, xlsx
from packetbench.generator.doctypes.supplemental_general.build import build
from packetbench.generator.doctypes.supplemental_general.model import GeneralSupplement

SUPPLEMENTAL_GENERAL = register(
    DocType(
        name="supplemental_general",
        title="Supplemental Application - Commercial Lines",
        model=GeneralSupplement,
        build=build,
        variants=(
            Variant("supplemental_general_pdf", "pdf", pdf.render),
            Variant("supplemental_general_excel", "xlsx", xlsx.render),
            Variant(
                "supplemental_general_csv",
                "csv",
                csvexport.render,
                csvexport.STYLE,
                omits=csvexport.OMITS,
                adapt=csvexport.history_only,
            ),
        ),
        section="application",
    )
)
