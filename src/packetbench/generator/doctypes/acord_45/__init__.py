"""ACORD-style 45 additional interest schedule, as a PDF form."""

from packetbench.generator.doctypes.acord_45 import pdf
from packetbench.generator.doctypes.acord_45.build import build
from packetbench.generator.doctypes.acord_45.model import InterestSchedule
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _has_interests(world: World) -> bool:
    return bool(world.interests)


ACORD_45 = register(
    DocType(
        name="acord_45",
        title="Additional Interest Schedule",
        model=InterestSchedule,
        build=build,
        variants=(Variant("acord_45", "pdf", pdf.render),),
        section="schedule",
        applies=_has_interests,
    )
)
