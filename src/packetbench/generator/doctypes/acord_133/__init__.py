"""ACORD-style 133 workers compensation insurance plan (assigned risk) section."""

from packetbench.generator.doctypes.acord_133 import pdf
from packetbench.generator.doctypes.acord_133.build import build, is_assigned_risk
from packetbench.generator.doctypes.acord_133.model import AssignedRiskSection
from packetbench.generator.doctypes.base import DocType, Variant, register

ACORD_133 = register(
    DocType(
        name="acord_133",
        title="Workers Compensation Insurance Plan Section",
        model=AssignedRiskSection,
        build=build,
        variants=(Variant("acord_133", "pdf", pdf.render),),
        lines=frozenset({"wc"}),
        applies=is_assigned_risk,
    )
)
