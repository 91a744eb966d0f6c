"""ACORD-style 126 commercial general liability section, as a PDF form."""

from packetbench.generator.doctypes.acord_126 import pdf
from packetbench.generator.doctypes.acord_126.build import build
from packetbench.generator.doctypes.acord_126.model import GeneralLiabilitySection
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_126 = register(
    DocType(
        name="acord_126",
        title="Commercial General Liability Section",
        model=GeneralLiabilitySection,
        build=build,
        variants=(Variant("acord_126", "pdf", pdf.render),),
        lines=frozenset({"gl"}),
    )
)
