"""The auto coverages section as our own PB-137 form."""

from __future__ import annotations

from packetbench.core import codes
from packetbench.generator.doctypes.acord_137.model import AutoCoveragesSection
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import NOTICE, section_title, signature_rows
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

TITLE = "PB-137 Commercial Auto Coverages Section"

COVERAGES = (
    ("liability", "Liability"),
    ("medical_payments", "Medical payments"),
    ("uninsured_motorists", "Uninsured motorists"),
    ("underinsured_motorists", "Underinsured motorists"),
    ("comprehensive", "Comprehensive"),
    ("collision", "Collision"),
    ("towing", "Towing and labor"),
)

STATE_COLUMNS = (
    Column("State", "state", 1.0),
    Column("Vehicles garaged", "vehicle_count", 1.3, "right"),
    Column("Uninsured motorists limit", "uninsured_motorists_limit", 2.2, "right"),
    Column("Underinsured motorists limit", "underinsured_motorists_limit", 2.2, "right"),
    Column("UM/UIM rejected in writing", "um_rejected", 1.8, "center"),
)
SYMBOL_LEGEND = (
    "Covered-auto symbols: 1 any auto; 2 owned autos only; 3 owned private passenger autos; "
    "4 owned autos other than private passenger; 7 specifically described autos; 8 hired "
    "autos only; 9 non-owned autos only."
)


def render(doc: AutoCoveragesSection, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, TITLE, TITLE)

    def header(flow: Flow, page: int) -> float:
        section_title(
            flow,
            page,
            "PB-137",
            "COMMERCIAL AUTO COVERAGES SECTION",
            "Covered-auto symbols, limits and deductibles, by state",
        )
        return flow.y

    flow = Flow(pdf, header)
    flow.band("Covered-auto symbols", keep_with=100)
    flow.note(SYMBOL_LEGEND)
    flow.check_grid(
        [f"Symbol {s}" for s in codes.AUTO_SYMBOL.values],
        [
            (label, [f"symbols.{key}.symbol_{s}" for s in codes.AUTO_SYMBOL.values])
            for key, label in COVERAGES
        ],
        label="Coverage",
    )
    flow.band("Limits and deductibles")
    flow.boxes(
        [
            Cell(
                "Liability - combined single limit",
                "limits.combined_single_limit",
                1.4,
                align="right",
            ),
            Cell("Medical payments (each person)", "limits.medical_payments", 1.2, align="right"),
            Cell("Towing and labor (each disablement)", "limits.towing", 1.3, align="right"),
        ]
    )
    flow.boxes(
        [
            Cell(
                "Comprehensive deductible",
                "physical_damage.comprehensive_deductible",
                align="right",
            ),
            Cell("Collision deductible", "physical_damage.collision_deductible", align="right"),
        ]
    )
    flow.band("Hired and non-owned autos")
    flow.boxes(
        [
            Checks(
                "Hired auto liability", (("Requested", "hired_non_owned.hired_liability"),), 1.1
            ),
            Cell(
                "Estimated annual cost of hire", "hired_non_owned.cost_of_hire", 1.2, align="right"
            ),
            Checks(
                "Non-owned auto liability",
                (("Requested", "hired_non_owned.non_owned_liability"),),
                1.1,
            ),
            Cell(
                "Employees using own autos",
                "hired_non_owned.non_owned_employees",
                1.1,
                align="right",
            ),
        ]
    )
    flow.band("Uninsured and underinsured motorists by state", keep_with=40)
    draw_table(flow, "states", len(doc.states), STATE_COLUMNS, size=7.0)
    flow.band("Premium")
    flow.boxes(
        [
            Cell("Scheduled autos", "premiums.scheduled_autos", align="right"),
            Cell("Hired and non-owned", "premiums.hired_non_owned", align="right"),
            Cell("Total auto premium", "premiums.total_premium", align="right"),
        ]
    )
    flow.gap(6)
    signature_rows(flow, NOTICE)
    return Output(pdf.render(), len(pdf.pages))
