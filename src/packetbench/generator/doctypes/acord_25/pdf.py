"""The liability certificate as our own PB-25 page: party blocks, one block per coverage,
other coverages, description, holder and cancellation."""

from __future__ import annotations

from packetbench.generator.doctypes._parties import (
    INFORMATION_ONLY,
    certificate_flow,
    closing,
    holder_rows,
    insured_rows,
    insurers_table,
    producer_rows,
)
from packetbench.generator.doctypes.acord_25.model import LiabilityCertificate
from packetbench.generator.doctypes.base import Output
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

CERTIFY = (
    "The policies of insurance listed below have been issued to the insured named above for "
    "the policy period indicated, notwithstanding any requirement, term or condition of any "
    "contract with respect to which this certificate may be issued. Limits shown may have "
    "been reduced by paid claims."
)

REMARKS = "Additional remarks: see the attached PB-101 Additional Remarks Schedule."

OTHER_COLUMNS = (
    Column("Type of insurance", "line", 2.2),
    Column("Insr ltr", "policy.insurer_letter", 0.7, "center"),
    Column("Policy number", "policy.policy_number", 1.8),
    Column("Policy eff", "policy.effective_date", 1.2),
    Column("Policy exp", "policy.expiration_date", 1.2),
    Column("Limit applies to", "limit_description", 3.0),
    Column("Limit", "limit", 1.5, "right"),
)


def _ids(prefix: str, additional: bool = True) -> list[Cell | Checks]:
    cells: list[Cell | Checks] = [
        Cell("Insr ltr", f"{prefix}.policy.insurer_letter", 0.5, align="center")
    ]
    if additional:
        cells.append(Cell("Addl insd", f"{prefix}.additional_insured", 0.55, align="center"))
    cells += [
        Cell("Subr wvd", f"{prefix}.subrogation_waived", 0.55, align="center"),
        Cell("Policy number", f"{prefix}.policy.policy_number", 1.5),
        Cell("Policy eff (MM/DD/YYYY)", f"{prefix}.policy.effective_date", 1.1),
        Cell("Policy exp (MM/DD/YYYY)", f"{prefix}.policy.expiration_date", 1.1),
    ]
    return cells


def _general_liability(flow: Flow) -> None:
    g = "general_liability"
    flow.band("Commercial general liability", keep_with=63)
    flow.boxes(
        [
            *_ids(g),
            Checks(
                "Coverage basis",
                (("Occurrence", f"{g}.occurrence"), ("Claims-made", f"{g}.claims_made")),
                1.9,
            ),
        ]
    )
    flow.boxes(
        [
            Checks(
                "General aggregate limit applies per",
                (
                    ("Policy", f"{g}.aggregate_per_policy"),
                    ("Project", f"{g}.aggregate_per_project"),
                    ("Location", f"{g}.aggregate_per_location"),
                ),
                2.4,
            ),
            Cell("Each occurrence", f"{g}.each_occurrence", 1, align="right"),
            Cell("Damage to rented premises", f"{g}.damage_to_rented_premises", 1.1, align="right"),
            Cell("Med exp (any one person)", f"{g}.medical_expense", 1.1, align="right"),
        ]
    )
    flow.boxes(
        [
            Cell("Personal & adv injury", f"{g}.personal_advertising_injury", align="right"),
            Cell("General aggregate", f"{g}.general_aggregate", align="right"),
            Cell("Products - comp/op agg", f"{g}.products_completed_aggregate", align="right"),
        ]
    )


def _automobile(flow: Flow) -> None:
    a = "automobile"
    flow.band("Automobile liability", keep_with=42)
    flow.boxes(
        [
            *_ids(a),
            Cell(
                "Combined single limit (ea accident)",
                f"{a}.combined_single_limit",
                1.9,
                align="right",
            ),
        ]
    )
    flow.boxes(
        [
            Checks(
                "Covered autos",
                (
                    ("Any auto", f"{a}.any_auto"),
                    ("Owned autos only", f"{a}.owned_autos_only"),
                    ("Hired autos", f"{a}.hired_autos_only"),
                    ("Non-owned autos", f"{a}.non_owned_autos_only"),
                ),
            )
        ]
    )


def _umbrella(flow: Flow) -> None:
    u = "umbrella"
    flow.band("Umbrella / excess liability", keep_with=42)
    flow.boxes(
        [*_ids(u), Checks("Form", (("Umbrella", f"{u}.umbrella"), ("Excess", f"{u}.excess")), 1.9)]
    )
    flow.boxes(
        [
            Checks(
                "Coverage basis",
                (("Occurrence", f"{u}.occurrence"), ("Claims-made", f"{u}.claims_made")),
                1.6,
            ),
            Cell("Retention", f"{u}.retention", 1, align="right"),
            Cell("Each occurrence", f"{u}.each_occurrence", 1, align="right"),
            Cell("Aggregate", f"{u}.aggregate", 1, align="right"),
        ]
    )


def _workers_comp(flow: Flow) -> None:
    w = "workers_comp"
    flow.band("Workers compensation and employers' liability", keep_with=42)
    flow.boxes(
        [
            *_ids(w, additional=False),
            Cell(
                "Proprietor / partner / officer / member excluded? (Y/N)",
                f"{w}.proprietor_excluded",
                2.45,
                align="center",
            ),
        ]
    )
    flow.boxes(
        [
            Checks("Workers compensation limits", (("Per statute", f"{w}.statutory"),), 1.3),
            Cell("E.L. each accident", f"{w}.each_accident", 1, align="right"),
            Cell("E.L. disease - each employee", f"{w}.disease_each_employee", 1.1, align="right"),
            Cell("E.L. disease - policy limit", f"{w}.disease_policy_limit", 1.1, align="right"),
        ]
    )


def render(doc: LiabilityCertificate, rec: Recorder) -> Output:
    flow = certificate_flow(
        rec,
        "PB-25",
        "Certificate of Liability Insurance",
        lambda page: (
            [
                Cell("Date (MM/DD/YYYY)", "certificate_date", 1),
                Cell("Certificate number", "certificate_number", 1.2),
                Cell("Insured", "insured.name", 3),
            ]
            if page
            else [
                Cell("Date (MM/DD/YYYY)", "certificate_date", 1),
                Cell("Certificate number", "certificate_number", 1.2),
            ]
        ),
    )
    pdf = flow.pdf
    flow.note(INFORMATION_ONLY)
    producer_rows(flow)
    insured_rows(flow)
    flow.gap(3)
    insurers_table(flow, len(doc.insurers))
    flow.band("Coverages", keep_with=60)
    flow.note(CERTIFY)
    _general_liability(flow)
    _automobile(flow)
    _umbrella(flow)
    _workers_comp(flow)
    flow.band("Other coverages", keep_with=30)
    draw_table(flow, "other", len(doc.other), OTHER_COLUMNS)
    flow.paragraph(
        "Description of operations / locations / vehicles", "description_of_operations", size=7.0
    )
    flow.note(REMARKS)
    flow.band("Certificate holder", keep_with=22)
    holder_rows(flow)
    closing(flow, "authorized_representative")
    return Output(pdf.render(), len(pdf.pages))
