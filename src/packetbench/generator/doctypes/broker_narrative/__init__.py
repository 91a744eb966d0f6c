"""The broker's cover letter (submission narrative): a PDF letter in running prose."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.broker_narrative import pdf
from packetbench.generator.doctypes.broker_narrative.build import build
from packetbench.generator.doctypes.broker_narrative.model import BrokerNarrative

BROKER_NARRATIVE = register(
    DocType(
        name="broker_narrative",
        title="Broker Submission Letter",
        model=BrokerNarrative,
        build=build,
        variants=(Variant("broker_narrative", "pdf", pdf.render),),
        section="correspondence",
    )
)
