"""The request as our own PB-35 form: agency, company, insured, the policy and its line, the
cancellation with its reason and return-premium method, the release and signatures."""

from __future__ import annotations

from packetbench.core import codes
from packetbench.generator.doctypes._parties import company_row, insured_rows, producer_rows
from packetbench.generator.doctypes.acord_35.model import CancellationRequest
from packetbench.generator.doctypes.acord_125.model import code_field
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder

TITLE = "PB-35 Cancellation Request / Policy Release"
RELEASE = (
    "Lost policy release: the named insured states that the policy described has been lost "
    "or destroyed, surrenders it for cancellation as of the date shown, and releases the "
    "company from all liability under it from that date."
)
NOTICE = (
    "Mortgagees, loss payees and other interests named in the policy are notified of the "
    "cancellation separately. Any return premium is computed by the method ticked below."
)


def _checks(group: str, code_list: codes.CodeList) -> list[tuple[str, str]]:
    return [(value, f"{group}.{code_field(value)}") for value in code_list.values]


def render(doc: CancellationRequest, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Cancellation Request / Policy Release", TITLE)

    def header(flow: Flow, page: int) -> float:
        title = "CANCELLATION REQUEST / POLICY RELEASE" + (" (CONTINUED)" if page else "")
        flow.y = title_block(flow, page, title, "PB-35")
        flow.boxes(
            [
                Cell("Date (MM/DD/YYYY)", "request_date", 1),
                Cell("Policy number", "policy.policy_number", 1.5),
                Cell("Named insured", "insured.name", 3),
            ],
            height=19,
        )
        return flow.y - 4

    flow = Flow(pdf, header)
    flow.band("Agency", keep_with=63)
    producer_rows(flow)
    flow.band("Company", keep_with=22)
    company_row(flow)
    flow.band("Named insured", keep_with=22)
    insured_rows(flow, label="Named insured")
    flow.band("Policy information", keep_with=40)
    flow.boxes(
        [
            Cell("Policy number", "policy.policy_number", 1.5),
            Cell("Policy effective date", "policy.effective_date"),
            Cell("Policy expiration date", "policy.expiration_date"),
        ]
    )
    flow.checks(_checks("policy_type", codes.LOSS_LINE), columns=3, label="Policy type")
    flow.band("Cancellation", keep_with=60)
    flow.boxes(
        [
            Cell("Cancellation effective date", "cancellation_date"),
            Cell("Time", "cancellation_time", 0.6),
        ]
    )
    flow.checks(_checks("reason", codes.CANCELLATION_REASON), columns=5, label="Reason")
    flow.checks(
        _checks("return_premium", codes.RETURN_PREMIUM_METHOD), columns=3, label="Return premium"
    )
    flow.note(NOTICE)
    flow.band("Replaced by", keep_with=22)
    flow.boxes(
        [
            Cell("Company", "replacement.carrier_name", 3),
            Cell("Policy number", "replacement.policy_number", 1.5),
            Cell("Effective date", "replacement.effective_date", 1.2),
        ]
    )
    flow.band("Policy release", keep_with=30)
    flow.note(RELEASE)
    flow.checks([("The policy has been lost or destroyed", "lost_policy_release")], columns=2)
    flow.band("Signature of named insured", keep_with=30)
    flow.boxes(
        [
            Cell("Signature", None, 2.4),
            Cell("Printed name", "signature.signer_name", 2),
            Cell("Title", "signature.signer_title", 1.4),
            Cell("Date", "signature.signature_date", 1),
        ],
        height=26,
    )
    return Output(pdf.render(), len(pdf.pages))
