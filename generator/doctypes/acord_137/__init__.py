"""ACORD-style 137 commercial auto coverages section, as a PDF form."""

from generator.doctypes.acord_137 import pdf
from generator.doctypes.acord_137.build import build
from generator.doctypes.acord_137.model import AutoCoveragesSection
from generator.doctypes.base import DocType, Variant, register

ACORD_137 = register(DocType(
    name="acord_137",
    title="Commercial Auto Coverages Section",
    model=AutoCoveragesSection,
    build=build,
    variants=(Variant("acord_137", "pdf", pdf.render),),
    lines=frozenset({"auto"}),
))
