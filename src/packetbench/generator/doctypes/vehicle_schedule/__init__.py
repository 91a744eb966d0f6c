"""The broker's vehicle schedule: PDF (landscape table) and XLSX (one sheet of units)."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.vehicle_schedule import pdf, xlsx
from packetbench.generator.doctypes.vehicle_schedule.build import build
from packetbench.generator.doctypes.vehicle_schedule.model import VehicleSchedule

VEHICLE_SCHEDULE = register(
    DocType(
        name="vehicle_schedule",
        title="Vehicle Schedule",
        model=VehicleSchedule,
        build=build,
        variants=(
            Variant("vehicle_schedule_pdf", "pdf", pdf.render, pdf.STYLE),
            Variant("vehicle_schedule_excel", "xlsx", xlsx.render),
        ),
        section="schedule",
        lines=frozenset({"auto"}),
    )
)
