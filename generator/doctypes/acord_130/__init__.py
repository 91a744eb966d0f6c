"""ACORD-style 130 workers compensation application, as a PDF form."""

from generator.doctypes.acord_130 import pdf
from generator.doctypes.acord_130.build import build
from generator.doctypes.acord_130.model import WorkersCompApplication
from generator.doctypes.base import DocType, Variant, register

ACORD_130 = register(DocType(
    name="acord_130",
    title="Workers Compensation Application",
    model=WorkersCompApplication,
    build=build,
    variants=(Variant("acord_130", "pdf", pdf.render),),
    lines=frozenset({"wc"}),
))
