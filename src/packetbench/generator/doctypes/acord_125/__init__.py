"""ACORD-style 125 commercial insurance application (applicant information), as a PDF form."""

from packetbench.generator.doctypes.acord_125 import pdf
from packetbench.generator.doctypes.acord_125.build import build
from packetbench.generator.doctypes.acord_125.model import CommercialApplication
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_125 = register(
    DocType(
        name="acord_125",
        title="Commercial Insurance Application - Applicant Information",
        model=CommercialApplication,
        build=build,
        variants=(Variant("acord_125", "pdf", pdf.render),),
        section="application",
    )
)
