"""WC experience-rating worksheet: PDF (the bureau's worksheet) and XLSX (one sheet)."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.experience_mod import pdf, xlsx
from packetbench.generator.doctypes.experience_mod.build import build
from packetbench.generator.doctypes.experience_mod.model import ExperienceMod
from packetbench.generator.world.models import World


def rated(world: World) -> bool:
    """Only a risk large enough to be experience rated has a worksheet."""
    return world.experience_rating is not None


EXPERIENCE_MOD = register(
    DocType(
        name="experience_mod",
        title="Experience Rating Worksheet",
        model=ExperienceMod,
        build=build,
        variants=(
            Variant("experience_mod_pdf", "pdf", pdf.render, pdf.STYLE),
            Variant("experience_mod_excel", "xlsx", xlsx.render),
        ),
        section="history",
        lines=frozenset({"wc"}),
        applies=rated,
    )
)
