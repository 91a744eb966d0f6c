"""ACORD-style 127 business auto section, as a PDF form."""

from packetbench.generator.doctypes.acord_127 import pdf
from packetbench.generator.doctypes.acord_127.build import build
from packetbench.generator.doctypes.acord_127.model import BusinessAutoSection
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_127 = register(
    DocType(
        name="acord_127",
        title="Business Auto Section",
        model=BusinessAutoSection,
        build=build,
        variants=(Variant("acord_127", "pdf", pdf.render),),
        lines=frozenset({"auto"}),
    )
)
