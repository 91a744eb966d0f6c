"""The business auto section as our own PB-127 form."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_127.model import BusinessAutoSection
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts, question_rows, section_title
from packetbench.generator.fakers.questions import AUTO_QUESTIONS
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-127 Business Auto Section"
CODES = Style(abbreviate=True)

DRIVER_COLUMNS = (
    Column("#", "driver_number", 0.5, "right"),
    Column("First name", "first_name", 1.5),
    Column("MI", "middle_initial", 0.4),
    Column("Last name", "last_name", 1.6),
    Column("Date of birth", "birth_date", 1.2),
    Column("Sex", "gender", 0.5, style=CODES),
    Column("Marital", "marital_status", 0.7, style=CODES),
    Column("Licence #", "license_number", 1.4),
    Column("State", "license_state", 0.6),
    Column("Yr lic.", "year_licensed", 0.7, "right"),
    Column("Hired", "hire_date", 1.2),
    Column("Veh #", "vehicle_number", 0.6, "right"),
    Column("% use", "percent_use", 0.7, "right"),
)
LEGEND = (
    "Sex: M male, F female. Marital status: S single, M married, D divorced, P separated, "
    "W widowed, C domestic partner. Drivers beyond the thirteen listed are on the attached "
    "driver schedule; vehicles beyond the four described, on the attached vehicle schedule "
    "(PB-129). Size class: LT light, MT medium, HT heavy, XHT extra-heavy truck; HTT/XTT "
    "heavy/extra-heavy truck-tractor."
)


def _vehicle(flow: Flow, index: int) -> None:
    v = f"vehicles[{index}]"
    c = f"{v}.coverages"
    flow.need(12 + 4 * 21 + 8)
    flow.boxes(
        [
            Cell("Veh #", f"{v}.vehicle_number", 0.5, align="right"),
            Cell("Year", f"{v}.year", 0.6, align="right"),
            Cell("Make", f"{v}.make", 1.2),
            Cell("Model", f"{v}.model", 1.4),
            Cell("Body type", f"{v}.body_type", 1.2),
            Cell("VIN", f"{v}.vin", 2.2),
            Cell("GVW / GCW (lb)", f"{v}.gvw", 1.0, align="right"),
            Cell("Cost new", f"{v}.cost_new", 1.1, align="right"),
        ]
    )
    flow.boxes(
        [
            Cell("Garaging address", parts=address_parts(f"{v}.garaging"), weight=4.2),
            Cell("Reg. state", f"{v}.registration_state", 0.7),
            Cell("Territory", f"{v}.territory", 0.7),
            Cell("Class code", f"{v}.class_code", 0.8),
            Cell("Ownership", f"{v}.ownership", 0.9),
        ]
    )
    flow.boxes(
        [
            Cell("Size class", f"{v}.size_class", 1.3),
            Cell("Use", f"{v}.use", 1.0),
            Cell("Radius", f"{v}.radius", 1.1),
            Cell("Comprehensive deductible", f"{c}.comprehensive_deductible", 1.3, align="right"),
            Cell("Collision deductible", f"{c}.collision_deductible", 1.2, align="right"),
            Cell("Vehicle premium", f"{v}.premium", 1.2, align="right"),
        ]
    )
    flow.boxes(
        [
            Checks(
                "Coverages",
                (
                    ("Liability", f"{c}.liability"),
                    ("Med pay", f"{c}.medical_payments"),
                    ("UM", f"{c}.uninsured_motorists"),
                    ("UIM", f"{c}.underinsured_motorists"),
                    ("Comprehensive", f"{c}.comprehensive"),
                    ("Collision", f"{c}.collision"),
                    ("Towing", f"{c}.towing"),
                    ("Rental", f"{c}.rental_reimbursement"),
                ),
            )
        ]
    )
    flow.gap(8)


def render(doc: BusinessAutoSection, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE)

    def header(flow: Flow, page: int) -> float:
        section_title(
            flow,
            page,
            "PB-127",
            "BUSINESS AUTO SECTION",
            "Drivers, vehicles and their coverages, and auto underwriting information",
        )
        return flow.y

    flow = Flow(pdf, header)
    flow.note(LEGEND)
    flow.band("Driver information", keep_with=50)
    flow.boxes(
        [
            Cell("Total number of drivers", "driver_count", 1, align="right"),
            Cell("Drivers listed below: the first thirteen by driver number", None, 4),
        ],
        height=19,
    )
    draw_table(flow, "drivers", len(doc.drivers), DRIVER_COLUMNS, size=6.6)
    flow.band("Vehicle description", keep_with=100)
    flow.boxes(
        [
            Cell("Total number of vehicles", "vehicle_count", 1, align="right"),
            Cell("Vehicles described below: the first four by vehicle number", None, 4),
        ],
        height=19,
    )
    for index in range(len(doc.vehicles)):
        _vehicle(flow, index)
    flow.band("General information", keep_with=40)
    question_rows(flow, "general_information", AUTO_QUESTIONS)
    return Output(pdf.render(), len(pdf.pages))
