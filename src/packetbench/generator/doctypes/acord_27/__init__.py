"""ACORD-style 27 evidence of property insurance, as a PDF form."""

from packetbench.generator.doctypes._recipients import small_mortgage
from packetbench.generator.doctypes.acord_27 import pdf
from packetbench.generator.doctypes.acord_27.build import build
from packetbench.generator.doctypes.acord_27.model import PropertyEvidence
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _has_mortgage(world: World) -> bool:
    return small_mortgage(world) is not None


ACORD_27 = register(
    DocType(
        name="acord_27",
        title="Evidence of Property Insurance",
        model=PropertyEvidence,
        build=build,
        variants=(Variant("acord_27", "pdf", pdf.render),),
        section="certificate",
        lines=frozenset({"property"}),
        applies=_has_mortgage,
    )
)
