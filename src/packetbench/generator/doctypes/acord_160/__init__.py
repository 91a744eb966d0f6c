"""ACORD-style 160 businessowners section, as a PDF form."""

from packetbench.generator.doctypes.acord_160 import pdf
from packetbench.generator.doctypes.acord_160.build import build
from packetbench.generator.doctypes.acord_160.model import BusinessownersSection
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_160 = register(
    DocType(
        name="acord_160",
        title="Businessowners Section",
        model=BusinessownersSection,
        build=build,
        variants=(Variant("acord_160", "pdf", pdf.render),),
        lines=frozenset({"property"}),
    )
)
