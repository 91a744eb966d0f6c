"""ACORD-style 25 certificate of liability insurance, as a PDF form."""

from packetbench.generator.doctypes._recipients import liability_holder
from packetbench.generator.doctypes.acord_25 import pdf
from packetbench.generator.doctypes.acord_25.build import build
from packetbench.generator.doctypes.acord_25.model import LiabilityCertificate
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _has_holder(world: World) -> bool:
    return liability_holder(world) is not None


ACORD_25 = register(
    DocType(
        name="acord_25",
        title="Certificate of Liability Insurance",
        model=LiabilityCertificate,
        build=build,
        variants=(Variant("acord_25", "pdf", pdf.render),),
        section="certificate",
        applies=_has_holder,
    )
)
