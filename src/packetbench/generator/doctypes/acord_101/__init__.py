"""ACORD-style 101 additional remarks schedule, attached to the liability certificate."""

from packetbench.generator.doctypes._recipients import liability_holder
from packetbench.generator.doctypes.acord_101 import pdf
from packetbench.generator.doctypes.acord_101.build import build
from packetbench.generator.doctypes.acord_101.model import RemarksSchedule
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _has_holder(world: World) -> bool:
    return liability_holder(world) is not None


ACORD_101 = register(
    DocType(
        name="acord_101",
        title="Additional Remarks Schedule",
        model=RemarksSchedule,
        build=build,
        variants=(Variant("acord_101", "pdf", pdf.render),),
        section="certificate",
        applies=_has_holder,
    )
)
