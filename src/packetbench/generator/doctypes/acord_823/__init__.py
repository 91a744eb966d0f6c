"""ACORD-style 823 additional premises schedule, as a landscape PDF."""

from packetbench.generator.doctypes.acord_823 import pdf
from packetbench.generator.doctypes.acord_823.build import build, overflows
from packetbench.generator.doctypes.acord_823.model import AdditionalPremisesSchedule
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_823 = register(
    DocType(
        name="acord_823",
        title="Additional Premises Schedule",
        model=AdditionalPremisesSchedule,
        build=build,
        variants=(Variant("acord_823", "pdf", pdf.render),),
        section="application",
        applies=overflows,
    )
)
