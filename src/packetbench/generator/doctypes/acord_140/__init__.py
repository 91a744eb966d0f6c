"""ACORD-style 140 property section: a PDF form with one section per premises."""

from packetbench.generator.doctypes.acord_140 import pdf
from packetbench.generator.doctypes.acord_140.build import build
from packetbench.generator.doctypes.acord_140.model import PropertySection
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_140 = register(
    DocType(
        name="acord_140",
        title="Property Section",
        model=PropertySection,
        build=build,
        variants=(Variant("acord_140", "pdf", pdf.render),),
        lines=frozenset({"property"}),
    )
)
