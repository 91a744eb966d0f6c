"""ACORD-style 129 vehicle schedule, as a landscape PDF."""

from packetbench.generator.doctypes.acord_129 import pdf
from packetbench.generator.doctypes.acord_129.build import build
from packetbench.generator.doctypes.acord_129.model import VehicleSchedule
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_129 = register(
    DocType(
        name="acord_129",
        title="Vehicle Schedule",
        model=VehicleSchedule,
        build=build,
        variants=(Variant("acord_129", "pdf", pdf.render),),
        section="schedule",
        lines=frozenset({"auto"}),
    )
)
