"""ACORD-style 131 umbrella / excess section, as a PDF form."""

from packetbench.generator.doctypes.acord_131 import pdf
from packetbench.generator.doctypes.acord_131.build import build
from packetbench.generator.doctypes.acord_131.model import UmbrellaSection
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_131 = register(
    DocType(
        name="acord_131",
        title="Umbrella / Excess Section",
        model=UmbrellaSection,
        build=build,
        variants=(Variant("acord_131", "pdf", pdf.render),),
        lines=frozenset({"umbrella"}),
    )
)
