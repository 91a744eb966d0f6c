"""ACORD-style 35 cancellation request / policy release, as a PDF form."""

from packetbench.generator.doctypes.acord_35 import pdf
from packetbench.generator.doctypes.acord_35.build import build
from packetbench.generator.doctypes.acord_35.model import CancellationRequest
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _has_request(world: World) -> bool:
    return world.cancellation is not None


ACORD_35 = register(
    DocType(
        name="acord_35",
        title="Cancellation Request / Policy Release",
        model=CancellationRequest,
        build=build,
        variants=(Variant("acord_35", "pdf", pdf.render),),
        section="correspondence",
        applies=_has_request,
    )
)
