"""The evidence of property as our own PB-27 page: agency and company, the policy, the
building and its coverages, the lender's interest and the signature."""

from __future__ import annotations

from packetbench.generator.doctypes._parties import (
    INFORMATION_ONLY,
    certificate_flow,
    closing,
    company_row,
    insured_rows,
    interest_rows,
    producer_rows,
)
from packetbench.generator.doctypes.acord_27.model import PropertyEvidence
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts
from packetbench.generator.render.layout import Cell
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

EVIDENCE = (
    "This is evidence that insurance as identified below has been issued, is in force and "
    "conveys all the rights and privileges afforded under the policy, subject to its terms, "
    "exclusions and conditions."
)

COVERAGE_COLUMNS = (
    Column("Coverage / form", "subject", 4.0),
    Column("Amount of insurance", "limit", 2.0, "right"),
    Column("Deductible", "deductible", 1.6, "right"),
)


def render(doc: PropertyEvidence, rec: Recorder) -> Output:
    flow = certificate_flow(
        rec,
        "PB-27",
        "Evidence of Property Insurance",
        lambda page: [
            Cell("Date (MM/DD/YYYY)", "evidence_date", 1),
            Cell("Loan number", "interest.loan_number", 1.3),
            Cell("Policy number", "policy.policy_number", 1.3),
        ],
    )
    pdf = flow.pdf
    flow.note(EVIDENCE)
    flow.band("Agency", keep_with=63)
    producer_rows(flow)
    flow.band("Company and insured", keep_with=42)
    company_row(flow)
    insured_rows(flow, label="Named insured")
    flow.band("Policy", keep_with=22)
    flow.boxes(
        [
            Cell("Policy number", "policy.policy_number", 1.5),
            Cell("Effective date", "policy.effective_date"),
            Cell("Expiration date", "policy.expiration_date"),
        ]
    )
    flow.band("Property information", keep_with=60)
    flow.boxes(
        [
            Cell("Location #", "property.location_number", 0.6, align="center"),
            Cell("Building #", "property.building_number", 0.6, align="center"),
            Cell("Location / description", parts=address_parts("property.address"), weight=5),
        ]
    )
    flow.paragraph("Description of the building", "property.description", size=7.0)
    flow.band("Coverage information", keep_with=50)
    flow.boxes([Cell("Perils insured (causes of loss form)", "causes_of_loss")])
    draw_table(flow, "coverages", len(doc.coverages), COVERAGE_COLUMNS)
    flow.band("Additional interest", keep_with=42)
    interest_rows(flow)
    flow.note(INFORMATION_ONLY)
    closing(flow, "authorized_representative")
    return Output(pdf.render(), len(pdf.pages))
