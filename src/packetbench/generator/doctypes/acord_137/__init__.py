"""ACORD-style 137 commercial auto coverages section, as a PDF form."""

from packetbench.generator.doctypes.acord_137 import pdf
from packetbench.generator.doctypes.acord_137.build import build
from packetbench.generator.doctypes.acord_137.model import AutoCoveragesSection
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_137 = register(
    DocType(
        name="acord_137",
        title="Commercial Auto Coverages Section",
        model=AutoCoveragesSection,
        build=build,
        variants=(Variant("acord_137", "pdf", pdf.render),),
        lines=frozenset({"auto"}),
    )
)
