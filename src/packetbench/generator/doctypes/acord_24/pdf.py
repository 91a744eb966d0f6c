"""The property certificate as our own PB-24 page: parties, premises, the coverage schedule
of its buildings, holder and cancellation."""

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
from packetbench.generator.doctypes.acord_24.model import PropertyCertificate
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

CODES = Style(abbreviate=True)
CERTIFY = (
    "The policy of insurance listed below has been issued to the insured named above for the "
    "policy period indicated, for the property described, subject to all the terms, "
    "exclusions and conditions of the policy."
)
LEGEND = (
    "Subject codes: BLDG building; BPP business personal property; BUSIN business income with "
    "extra expense. Valuation: RC replacement cost; ACV actual cash value; AA agreed amount; "
    "MV market value."
)

COVERAGE_COLUMNS = (
    Column("Bldg #", "building_number", 0.7, "center"),
    Column("Covered property", "subject", 1.6, style=CODES),
    Column("Limit", "limit", 1.7, "right"),
    Column("Coins. %", "coinsurance_percent", 0.9, "right"),
    Column("Valuation", "valuation", 1.0, style=CODES),
    Column("Causes of loss", "causes_of_loss", 2.0),
    Column("Deductible", "deductible", 1.3, "right"),
)


def render(doc: PropertyCertificate, rec: Recorder) -> Output:
    flow = certificate_flow(
        rec,
        "PB-24",
        "Certificate of Property Insurance",
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
    flow.band("Location of premises / description of property", keep_with=22)
    flow.boxes(
        [
            Cell("Premises #", "premises.location_number", 0.6, align="center"),
            Cell("Address of premises", parts=address_parts("premises.address"), weight=5),
        ]
    )
    flow.band("Coverages - commercial property", keep_with=60)
    flow.note(CERTIFY)
    flow.boxes(
        [
            Cell("Insr ltr", "policy.insurer_letter", 0.5, align="center"),
            Cell("Policy number", "policy.policy_number", 1.5),
            Cell("Policy eff (MM/DD/YYYY)", "policy.effective_date", 1),
            Cell("Policy exp (MM/DD/YYYY)", "policy.expiration_date", 1),
        ]
    )
    draw_table(flow, "coverages", len(doc.coverages), COVERAGE_COLUMNS)
    flow.note(LEGEND)
    flow.band("Certificate holder", keep_with=22)
    holder_rows(flow)
    closing(flow, "authorized_representative")
    return Output(pdf.render(), len(pdf.pages))
