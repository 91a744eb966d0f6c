"""The driver schedule as a landscape PDF table with a running header on every page."""

from __future__ import annotations

from packetbench.core import codes
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.doctypes.driver_schedule.model import DriverSchedule
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import PAD, Cell, Flow
from packetbench.generator.render.metrics import BOLD, MARGIN, width_of
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

STYLE = Style(abbreviate=True)
CODE = "PB-DRV"

# Widths in points (they sum to the 720-point landscape content width); the vehicle column
# fits the longest year-make-model on one line, so only "Independent Contractor" wraps a row.
COLUMNS = (
    Column("Drv #", "driver_number", 20, "right"),
    Column("Last Name", "last_name", 58),
    Column("First Name", "first_name", 50),
    Column("MI", "middle_initial", 14),
    Column("Date of Birth", "birth_date", 39),
    Column("Sex", "gender", 16),
    Column("Mar. Stat.", "marital_status", 20),
    Column("License #", "license_number", 40),
    Column("Lic. St", "license_state", 18),
    Column("Lic. Class", "license_class", 28),
    Column("End.", "endorsements", 25),
    Column("Yr Lic.", "year_licensed", 22, "right"),
    Column("Hire Date", "hire_date", 39),
    Column("Position", "position", 48),
    Column("Yrs Exp.", "years_experience", 20, "right"),
    Column("Veh #", "vehicle_number", 20, "right"),
    Column("Assigned Vehicle", "vehicle_description", 103),
    Column("% Use", "percent_use", 23, "right"),
    Column("Viol.", "violation_count", 19, "right"),
    Column("Acc.", "accident_count", 19, "right"),
    Column("MVR Pts", "mvr_points", 20, "right"),
    Column("Excl.", "excluded", 20),
    Column("MVR Date", "mvr_date", 39),
)


def _codes(code_list: codes.CodeList) -> str:
    return ", ".join(f"{abbr} {full.lower()}" for full, abbr in code_list.abbreviations.items())


LEGEND = (
    f"Sex: {_codes(codes.GENDER)}. Mar. Stat. (marital status): {_codes(codes.MARITAL_STATUS)}. "
    "Lic. Class: CDL-A, CDL-B, CDL-C commercial driver license class A, B or C; Regular = "
    "non-commercial license. End. (CDL endorsements): H hazardous materials, N tank vehicles, "
    "P passengers, S school bus, T double/triple trailers, X hazardous materials and tank "
    "combined. Yrs Exp. = years of driving experience. % Use = driver's share of the "
    "assigned vehicle's use. Viol. / Acc. = moving violations / accidents on the motor vehicle "
    "record (MVR); MVR Pts = total MVR points. Excl. Y = driver excluded from coverage."
)


def _total_line(flow: Flow) -> None:
    """The closing "Total drivers" bar holding the stated driver count."""
    pdf, height, size = flow.pdf, 13.0, 7.5
    flow.need(height)
    pdf.rect(flow.page, MARGIN, flow.y - height, flow.cw, height, fill=0.92)
    pdf.rect(flow.page, MARGIN, flow.y - height, flow.cw, height)
    baseline = flow.y - height + 3.8
    label = "TOTAL DRIVERS:"
    x = MARGIN + PAD + pdf.text(flow.page, MARGIN + PAD, baseline, label, BOLD, size) + 4
    pdf.field(
        flow.page,
        x,
        baseline,
        "driver_count",
        width=width_of("00000", BOLD, size),
        font=BOLD,
        size=size,
    )
    flow.y -= height + 4


def render(doc: DriverSchedule, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Driver Schedule", f"{CODE} Driver Schedule", wide=True)

    def header(flow: Flow, page: int) -> float:
        flow.y = title_block(
            flow,
            page,
            "DRIVER SCHEDULE",
            CODE,
            "Drivers of the applicant's vehicles with motor vehicle record summary",
        )
        flow.boxes(
            [
                Cell("Named insured", "insured_name", 3),
                Cell("Agency", "agency_name", 2.2),
                Cell("Policy effective date", "policy_effective_date", 0.9),
                Cell("Schedule as of", "as_of_date", 0.9),
            ]
        )
        return flow.y - 6

    flow = Flow(pdf, header)
    draw_table(flow, "drivers", len(doc.drivers), COLUMNS, size=6.3, header_size=5.6)
    _total_line(flow)
    flow.note(LEGEND)
    data = pdf.render()
    return Output(data, len(pdf.pages))
