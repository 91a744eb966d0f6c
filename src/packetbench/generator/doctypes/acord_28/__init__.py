"""ACORD-style 28 evidence of commercial property insurance, as a PDF form."""

from packetbench.generator.doctypes._recipients import commercial_mortgage
from packetbench.generator.doctypes.acord_28 import pdf
from packetbench.generator.doctypes.acord_28.build import build
from packetbench.generator.doctypes.acord_28.model import CommercialPropertyEvidence
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _has_mortgage(world: World) -> bool:
    return commercial_mortgage(world) is not None


ACORD_28 = register(
    DocType(
        name="acord_28",
        title="Evidence of Commercial Property Insurance",
        model=CommercialPropertyEvidence,
        build=build,
        variants=(Variant("acord_28", "pdf", pdf.render),),
        section="certificate",
        lines=frozenset({"property"}),
        applies=_has_mortgage,
    )
)
