"""The commercial evidence as our own PB-28 form: parties and policy, the premises with its
construction, coverages and conditions, then the lender's interest."""

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
from packetbench.generator.doctypes.acord_28.model import CommercialPropertyEvidence
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Checks
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

CODES = Style(abbreviate=True)
EVIDENCE = (
    "This evidence of commercial property insurance is issued as a matter of information only "
    "and confers no rights upon the additional interest named. It does not amend, extend or "
    "alter the coverage afforded by the policy below."
)

LEGEND = "Valuation: RC replacement cost; ACV actual cash value; AA agreed amount; MV market value."

COVERAGE_COLUMNS = (
    Column("Coverage", "subject", 3.6),
    Column("Amount of insurance", "limit", 1.8, "right"),
    Column("Coins. %", "coinsurance_percent", 0.9, "right"),
    Column("Valuation", "valuation", 1.0, style=CODES),
    Column("Deductible", "deductible", 1.4, "right"),
)


def render(doc: CommercialPropertyEvidence, rec: Recorder) -> Output:
    flow = certificate_flow(
        rec,
        "PB-28",
        "Evidence of Commercial Property Insurance",
        lambda page: [
            Cell("Date (MM/DD/YYYY)", "evidence_date", 1),
            Cell("Loan number", "interest.loan_number", 1.3),
            Cell("Policy number", "policy.policy_number", 1.3),
        ],
    )
    pdf = flow.pdf
    flow.note(EVIDENCE)
    flow.band("Producer", keep_with=63)
    producer_rows(flow)
    flow.band("Company and named insured", keep_with=42)
    company_row(flow)
    insured_rows(flow, label="Named insured")
    flow.band("Policy information", keep_with=22)
    flow.boxes(
        [
            Cell("Policy number", "policy.policy_number", 1.5),
            Cell("Effective date", "policy.effective_date"),
            Cell("Expiration date", "policy.expiration_date"),
            Cell("Causes of loss form", "causes_of_loss", 1.3),
        ]
    )
    p = "premises"
    flow.band("Property information", keep_with=42)
    flow.boxes(
        [
            Cell("Location #", f"{p}.location_number", 0.6, align="center"),
            Cell("Building #", f"{p}.building_number", 0.6, align="center"),
            Cell("Location / description", parts=address_parts(f"{p}.address"), weight=5),
        ]
    )
    flow.boxes(
        [
            Cell("Construction", f"{p}.construction", 1.6),
            Cell("Occupancy", f"{p}.occupancy", 1.6),
            Cell("Year built", f"{p}.year_built", 0.8, align="right"),
            Cell("Stories", f"{p}.stories", 0.6, align="right"),
            Cell("Floor area (sq ft)", f"{p}.floor_area", 1.0, align="right"),
        ]
    )
    flow.band("Coverage information", keep_with=60)
    flow.boxes(
        [
            Checks(
                "Property covered",
                (
                    ("Building", "building_covered"),
                    ("Business personal property", "personal_property_covered"),
                ),
            )
        ]
    )
    draw_table(flow, "coverages", len(doc.coverages), COVERAGE_COLUMNS)
    flow.note(LEGEND)
    c = "conditions"
    flow.band("Policy conditions (Y / N)", keep_with=22)
    flow.boxes(
        [
            Cell("Business income / rental value", f"{c}.business_income", 1.2, align="center"),
            Cell("Business income limit", f"{c}.business_income_limit", 1.2, align="right"),
            Cell("Replacement cost", f"{c}.replacement_cost", 1, align="center"),
            Cell("Agreed value", f"{c}.agreed_value", 1, align="center"),
            Cell("Coinsurance %", f"{c}.coinsurance_percent", 1, align="right"),
        ]
    )
    flow.band("Additional interest", keep_with=42)
    interest_rows(flow)
    flow.note(INFORMATION_ONLY)
    closing(flow, "authorized_representative")
    return Output(pdf.render(), len(pdf.pages))
