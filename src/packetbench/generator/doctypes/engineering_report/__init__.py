"""The property loss-control (engineering) survey report (PDF, 2-4 pages)."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.engineering_report import pdf
from packetbench.generator.doctypes.engineering_report.build import build
from packetbench.generator.doctypes.engineering_report.model import EngineeringReport
from packetbench.generator.world.models import World


def _surveyed(world: World) -> bool:
    return world.inspection is not None


ENGINEERING_REPORT = register(
    DocType(
        name="engineering_report",
        title="Loss Control Survey Report",
        model=EngineeringReport,
        build=build,
        variants=(Variant("engineering_report", "pdf", pdf.render),),
        section="schedule",
        lines=frozenset({"property"}),
        applies=_surveyed,
    )
)
