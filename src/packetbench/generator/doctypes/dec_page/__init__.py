"""The declarations page of the insured's expiring policy (PDF)."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.dec_page import pdf
from packetbench.generator.doctypes.dec_page.build import build
from packetbench.generator.doctypes.dec_page.model import DeclarationsPage
from packetbench.generator.world.models import World


def _has_expiring(world: World) -> bool:
    return world.expiring is not None


DEC_PAGE = register(
    DocType(
        name="dec_page",
        title="Expiring Policy Declarations",
        model=DeclarationsPage,
        build=build,
        variants=(Variant("dec_page", "pdf", pdf.render),),
        section="history",
        applies=_has_expiring,
    )
)
