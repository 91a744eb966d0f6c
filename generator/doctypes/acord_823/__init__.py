"""ACORD-style 823 additional premises schedule, as a landscape PDF."""

from generator.doctypes.acord_823 import pdf
from generator.doctypes.acord_823.build import build, overflows
from generator.doctypes.acord_823.model import AdditionalPremisesSchedule
from generator.doctypes.base import DocType, Variant, register

ACORD_823 = register(DocType(
    name="acord_823",
    title="Additional Premises Schedule",
    model=AdditionalPremisesSchedule,
    build=build,
    variants=(Variant("acord_823", "pdf", pdf.render),),
    section="application",
    applies=overflows,
))
