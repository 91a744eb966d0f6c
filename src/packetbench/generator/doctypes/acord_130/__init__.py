"""ACORD-style 130 workers compensation application, as a PDF form."""

from packetbench.generator.doctypes.acord_130 import pdf
from packetbench.generator.doctypes.acord_130.build import build
from packetbench.generator.doctypes.acord_130.model import WorkersCompApplication
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_130 = register(
    DocType(
        name="acord_130",
        title="Workers Compensation Application",
        model=WorkersCompApplication,
        build=build,
        variants=(Variant("acord_130", "pdf", pdf.render),),
        lines=frozenset({"wc"}),
    )
)
