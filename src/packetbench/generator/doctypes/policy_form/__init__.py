"""The expiring policy as issued (PDF, ten to fifteen pages): declarations, schedules of
locations, interests and forms, and each coverage part with its printed form."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.policy_form import pdf
from packetbench.generator.doctypes.policy_form.build import build
from packetbench.generator.doctypes.policy_form.model import PolicyForm
from packetbench.generator.world.models import World


def _has_expiring(world: World) -> bool:
    return world.expiring is not None


POLICY_FORM = register(
    DocType(
        name="policy_form",
        title="Expiring Policy",
        model=PolicyForm,
        build=build,
        variants=(Variant("policy_form", "pdf", pdf.render),),
        section="history",
        applies=_has_expiring,
    )
)
