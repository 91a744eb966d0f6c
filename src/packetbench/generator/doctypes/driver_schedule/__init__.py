"""Driver schedule: PDF (landscape table) and XLSX (one sheet of drivers)."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.driver_schedule import pdf, xlsx
from packetbench.generator.doctypes.driver_schedule.build import build
from packetbench.generator.doctypes.driver_schedule.model import DriverSchedule

DRIVER_SCHEDULE = register(
    DocType(
        name="driver_schedule",
        title="Driver Schedule",
        model=DriverSchedule,
        build=build,
        variants=(
            Variant("driver_schedule_pdf", "pdf", pdf.render, pdf.STYLE),
            Variant("driver_schedule_excel", "xlsx", xlsx.render),
        ),
        section="schedule",
        lines=frozenset({"auto"}),
    )
)
