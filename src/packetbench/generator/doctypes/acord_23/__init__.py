"""ACORD-style 23 vehicle certificate of insurance, as a PDF form."""

from packetbench.generator.doctypes._recipients import vehicle_lender
from packetbench.generator.doctypes.acord_23 import pdf
from packetbench.generator.doctypes.acord_23.build import build
from packetbench.generator.doctypes.acord_23.model import VehicleCertificate
from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.world.models import World


def _has_lender(world: World) -> bool:
    return bool(vehicle_lender(world))


ACORD_23 = register(
    DocType(
        name="acord_23",
        title="Vehicle Certificate of Insurance",
        model=VehicleCertificate,
        build=build,
        variants=(Variant("acord_23", "pdf", pdf.render),),
        section="certificate",
        lines=frozenset({"auto"}),
        applies=_has_lender,
    )
)
