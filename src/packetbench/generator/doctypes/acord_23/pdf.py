"""The vehicle certificate as our own PB-23 form: parties, the auto policy and its liability
limits, the vehicles of the holder's interest, and the holder."""

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
from packetbench.generator.doctypes.acord_23.model import VehicleCertificate
from packetbench.generator.doctypes.base import Output
from packetbench.generator.render.layout import Cell, Checks
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

CERTIFY = (
    "The auto policy listed below has been issued to the insured named above for the policy "
    "period indicated and covers the vehicles described, subject to all its terms, exclusions "
    "and conditions. Physical damage losses on these vehicles are payable to the insured and "
    "the holder as their interests may appear."
)

VEHICLE_COLUMNS = (
    Column("Veh #", "vehicle_number", 0.55, "right"),
    Column("Year", "year", 0.55),
    Column("Make", "make", 1.3),
    Column("Model", "model", 1.5),
    Column("Body type", "body_type", 1.2),
    Column("VIN", "vin", 2.2),
    Column("Comp. ded.", "comprehensive_deductible", 0.9, "right"),
    Column("Coll. ded.", "collision_deductible", 0.9, "right"),
    Column("Loan / lease #", "loan_number", 1.4),
)


def render(doc: VehicleCertificate, rec: Recorder) -> Output:
    flow = certificate_flow(
        rec,
        "PB-23",
        "Vehicle Certificate of Insurance",
        lambda page: [
            Cell("Date (MM/DD/YYYY)", "certificate_date", 1),
            Cell("Certificate number", "certificate_number", 1.2),
            Cell("Policy number", "policy.policy_number", 1.2),
        ],
    )
    pdf = flow.pdf
    flow.note(INFORMATION_ONLY)
    producer_rows(flow)
    insured_rows(flow)
    flow.gap(3)
    insurers_table(flow, len(doc.insurers))
    flow.band("Automobile liability", keep_with=60)
    flow.note(CERTIFY)
    flow.boxes(
        [
            Cell("Insr ltr", "policy.insurer_letter", 0.5, align="center"),
            Cell("Policy number", "policy.policy_number", 1.4),
            Cell("Policy eff (MM/DD/YYYY)", "policy.effective_date", 1),
            Cell("Policy exp (MM/DD/YYYY)", "policy.expiration_date", 1),
            Cell("Combined single limit", "combined_single_limit", 1.2, align="right"),
            Cell("Medical payments", "medical_payments_limit", 1, align="right"),
        ]
    )
    flow.band("Vehicles", keep_with=40)
    draw_table(flow, "vehicles", len(doc.vehicles), VEHICLE_COLUMNS, size=6.8)
    flow.band("Certificate holder", keep_with=42)
    holder_rows(flow)
    flow.boxes(
        [
            Checks(
                "Holder's interest",
                (
                    ("Lienholder (loss payee)", "lienholder"),
                    ("Lessor (additional insured and loss payee)", "lessor"),
                ),
            )
        ]
    )
    closing(flow, "authorized_representative")
    return Output(pdf.render(), len(pdf.pages))
