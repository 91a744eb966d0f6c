"""The broker's account workbook (XLSX, several sheets), carried by every packet."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.broker_workbook import xlsx
from packetbench.generator.doctypes.broker_workbook.build import build
from packetbench.generator.doctypes.broker_workbook.model import BrokerWorkbook

BROKER_WORKBOOK = register(
    DocType(
        name="broker_workbook",
        title="Broker Account Workbook",
        model=BrokerWorkbook,
        build=build,
        variants=(Variant("broker_workbook", "xlsx", xlsx.render),),
        section="correspondence",
    )
)
