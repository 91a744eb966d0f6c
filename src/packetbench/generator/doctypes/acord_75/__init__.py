"""ACORD-style 75 insurance binder, as a PDF form."""

from packetbench.generator.doctypes.acord_75 import pdf
from packetbench.generator.doctypes.acord_75.build import build
from packetbench.generator.doctypes.acord_75.model import Binder
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _is_bound(world: World) -> bool:
    return world.binder is not None


ACORD_75 = register(
    DocType(
        name="acord_75",
        title="Insurance Binder",
        model=Binder,
        build=build,
        variants=(Variant("acord_75", "pdf", pdf.render),),
        section="correspondence",
        applies=_is_bound,
    )
)
