"""The declarations page as a PDF: identification boxes, the coverage parts and premium, each
part's schedule of limits, the schedule of forms and the countersignature."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts
from packetbench.generator.doctypes.dec_page.model import (
    AutoPart,
    CargoPart,
    DeclarationsPage,
    LiabilityPart,
    PropertyPart,
    WorkersCompPart,
)
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

PERIOD = (
    "Policy period: 12:01 A.M. standard time at the mailing address of the named insured "
    "shown above. In return for the payment of the premium, and subject to all the terms "
    "of this policy, we agree with you to provide the insurance as stated in this policy."
)
SCHEDULE = (
    "Further premises are insured as described in the statement of values on file with "
    "the company; the limits above are those of all premises together."
)
CLOSING = (
    "These declarations, together with the common policy conditions, coverage part "
    "declarations, coverage forms and endorsements listed, complete the policy."
)

PARTS = (
    Column("Coverage part", "line", 4),
    Column("Policy number", "policy_number", 3),
    Column("Premium", "premium", 2, "right"),
)
PREMISES = (
    Column("Prem #", "premises_number", 0.8, "right"),
    Column("Bldg #", "building_number", 0.8, "right"),
    Column("Street", "address.street", 3.4),
    Column("City", "address.city", 2),
    Column("State", "address.state", 0.8),
    Column("ZIP", "address.zip", 1),
    Column("Occupancy", "occupancy", 2),
    Column("Construction", "construction", 2.4),
)
COVERAGES = (
    Column("Prem #", "premises_number", 0.8, "right"),
    Column("Bldg #", "building_number", 0.8, "right"),
    Column("Coverage", "coverage", 4),
    Column("Limit", "limit", 2, "right"),
    Column("Coins.", "coinsurance_percent", 1, "right"),
    Column("Valuation", "valuation", 2.2),
    Column("Causes of loss", "causes_of_loss", 1.6),
    Column("Deductible", "deductible", 1.5, "right"),
)
FORMS = (
    Column("Coverage part", "line", 2.6),
    Column("Form number", "form_number", 1.6),
    Column("Edition", "edition", 1),
    Column("Title", "title", 7),
)


def _limits(flow: Flow, title: str, cells: list[Cell]) -> None:
    flow.band(title)
    _limits_row(flow, cells)


def _limits_row(flow: Flow, cells: list[Cell]) -> None:
    flow.boxes(cells)
    flow.gap(8)


def property_schedule(flow: Flow, doc: HasParts) -> None:
    """The property part: all-premises limits, the buildings described, their coverages."""
    prop = doc.property_part
    if prop.premises_count is None:
        return
    q = "property_part"
    _limits(
        flow,
        "Commercial property coverage part",
        [
            Cell("Buildings insured", f"{q}.premises_count", align="right"),
            Cell("Building limits, all premises", f"{q}.building_limit", align="right"),
            Cell("Personal property limits, all premises", f"{q}.contents_limit", align="right"),
            Cell(
                "Business income limits, all premises", f"{q}.business_income_limit", align="right"
            ),
        ],
    )
    draw_table(flow, f"{q}.premises", len(prop.premises), PREMISES)
    draw_table(flow, f"{q}.coverages", len(prop.coverages), COVERAGES)
    if prop.premises_count > len(prop.premises):
        flow.note(SCHEDULE)
    flow.gap(4)


def liability_limits(flow: Flow, doc: HasParts) -> None:
    if doc.liability_part.each_occurrence is None:
        return
    g = "liability_part"
    flow.band("Commercial general liability coverage part - limits of insurance")
    flow.boxes(
        [
            Cell("Each occurrence", f"{g}.each_occurrence", align="right"),
            Cell("General aggregate", f"{g}.general_aggregate", align="right"),
            Cell(
                "Products-completed operations aggregate", f"{g}.products_aggregate", align="right"
            ),
        ]
    )
    _limits_row(
        flow,
        [
            Cell("Personal and advertising injury", f"{g}.personal_advertising", align="right"),
            Cell("Damage to premises rented to you", f"{g}.damage_to_premises", align="right"),
            Cell("Medical expense, any one person", f"{g}.medical_expense", align="right"),
        ],
    )


def auto_limits(flow: Flow, doc: HasParts) -> None:
    if doc.auto_part.combined_single_limit is None:
        return
    a = "auto_part"
    _limits(
        flow,
        "Business auto coverage part",
        [
            Cell("Liability - combined single limit", f"{a}.combined_single_limit", align="right"),
            Cell(
                "Auto medical payments, each person", f"{a}.medical_payments_limit", align="right"
            ),
            Cell("Covered autos scheduled", f"{a}.vehicle_count", align="right"),
        ],
    )


def workers_comp_limits(flow: Flow, doc: HasParts) -> None:
    if doc.workers_comp_part.each_accident is None:
        return
    w = "workers_comp_part"
    _limits(
        flow,
        "Workers compensation and employers liability - part two limits",
        [
            Cell("Bodily injury by accident, each accident", f"{w}.each_accident", align="right"),
            Cell(
                "Bodily injury by disease, policy limit", f"{w}.disease_policy_limit", align="right"
            ),
            Cell(
                "Bodily injury by disease, each employee",
                f"{w}.disease_each_employee",
                align="right",
            ),
        ],
    )


def cargo_limits(flow: Flow, doc: HasParts) -> None:
    if doc.cargo_part.limit_per_occurrence is None:
        return
    c = "cargo_part"
    _limits(
        flow,
        "Motor truck cargo coverage part",
        [
            Cell("Limit, any one vehicle", f"{c}.limit_per_vehicle", align="right"),
            Cell("Limit, any one occurrence", f"{c}.limit_per_occurrence", align="right"),
            Cell("Deductible, each occurrence", f"{c}.deductible", align="right"),
        ],
    )


class HasParts(Protocol):
    """A document carrying the coverage parts' schedules (declarations, policy form)."""

    property_part: PropertyPart
    liability_part: LiabilityPart
    auto_part: AutoPart
    workers_comp_part: WorkersCompPart
    cargo_part: CargoPart


# Each coverage part's schedule, by LOSS_LINE value (a policy has one part per line).
PART_SCHEDULES: dict[str, Callable[[Flow, HasParts], None]] = {
    "Commercial Property": property_schedule,
    "General Liability": liability_limits,
    "Commercial Auto": auto_limits,
    "Workers Compensation": workers_comp_limits,
    "Motor Truck Cargo": cargo_limits,
    "Umbrella": lambda flow, doc: None,  # an umbrella part has no schedule here
}


def render(doc: DeclarationsPage, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Policy Declarations", "Policy declarations - insured's copy")

    def header(flow: Flow, page: int) -> float:
        top = pdf.height - MARGIN
        pdf.field(
            page,
            MARGIN + 2,
            top - 13,
            "policy.carrier_name",
            width=flow.cw * 0.6,
            font=BOLD,
            size=12,
        )
        pdf.text(
            page,
            MARGIN + flow.cw,
            top - 12,
            "COMMERCIAL POLICY DECLARATIONS",
            BOLD,
            11,
            align="right",
        )
        pdf.text(page, MARGIN + flow.cw - 110, top - 25, "Policy number", REGULAR, 7, align="right")
        pdf.field(
            page,
            MARGIN + flow.cw,
            top - 25,
            "policy.policy_number",
            width=105,
            size=8,
            align="right",
        )
        pdf.line(page, MARGIN, top - 31, MARGIN + flow.cw, top - 31, 1.2)
        return top - 40

    flow = Flow(pdf, header)
    p = "policy"
    flow.boxes(
        [
            Cell("NAIC code", f"{p}.naic_code", 1),
            Cell("Policy period from", f"{p}.effective_date", 1.3),
            Cell("Policy period to", f"{p}.expiration_date", 1.3),
            Cell("Date issued", f"{p}.issued_date", 1.2),
        ]
    )
    flow.note(PERIOD)
    n = "named_insured"
    flow.band("Named insured and mailing address")
    flow.boxes(
        [
            Cell("Named insured", f"{n}.name", 3),
            Cell("Doing business as", f"{n}.dba", 2),
            Cell("Entity", f"{n}.entity_type", 1.6),
        ]
    )
    flow.boxes([Cell("Mailing address", parts=address_parts(f"{n}.mailing_address"))])
    flow.band("Producer")
    flow.boxes(
        [
            Cell("Agency", "producer.agency_name", 3),
            Cell("Agency code", "producer.agency_code", 1),
            Cell("Address", parts=address_parts("producer.address"), weight=4),
        ]
    )
    flow.gap(6)
    flow.band("Coverage parts forming this policy and premium")
    draw_table(flow, "coverage_parts", len(doc.coverage_parts), PARTS)
    flow.boxes(
        [
            Cell("Premium, all coverage parts", "premium.coverage_premium", align="right"),
            Cell("Taxes, surcharges and fees", "premium.taxes_and_fees", align="right"),
            Cell("Total amount due", "premium.amount_due", align="right"),
        ]
    )
    flow.gap(8)
    for part in doc.coverage_parts:
        PART_SCHEDULES[str(part.line)](flow, doc)
    flow.band("Schedule of forms and endorsements")
    draw_table(flow, "forms", len(doc.forms), FORMS)
    flow.note(CLOSING)
    flow.gap(6)
    flow.boxes(
        [
            Cell("Countersigned by (authorized representative)", "countersigned_by", 3),
            Cell("Date", f"{p}.issued_date", 1),
        ],
        height=26,
    )
    return Output(pdf.render(), len(pdf.pages))
