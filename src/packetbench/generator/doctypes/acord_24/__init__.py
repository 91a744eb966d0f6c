"""ACORD-style 24 certificate of property insurance, as a PDF form."""

from packetbench.generator.doctypes._recipients import property_holder
from packetbench.generator.doctypes.acord_24 import pdf
from packetbench.generator.doctypes.acord_24.build import build
from packetbench.generator.doctypes.acord_24.model import PropertyCertificate
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _has_holder(world: World) -> bool:
    return property_holder(world) is not None


ACORD_24 = register(
    DocType(
        name="acord_24",
        title="Certificate of Property Insurance",
        model=PropertyCertificate,
        build=build,
        variants=(Variant("acord_24", "pdf", pdf.render),),
        section="certificate",
        lines=frozenset({"property"}),
        applies=_has_holder,
    )
)
