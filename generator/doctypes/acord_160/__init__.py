"""ACORD-style 160 businessowners section, as a PDF form."""

from generator.doctypes.acord_160 import pdf
from generator.doctypes.acord_160.build import build
from generator.doctypes.acord_160.model import BusinessownersSection
from generator.doctypes.base import DocType, Variant, register

ACORD_160 = register(DocType(
    name="acord_160",
    title="Businessowners Section",
    model=BusinessownersSection,
    build=build,
    variants=(Variant("acord_160", "pdf", pdf.render),),
    lines=frozenset({"property"}),
))
