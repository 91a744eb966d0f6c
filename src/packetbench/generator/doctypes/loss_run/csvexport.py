"""The loss run as a carrier-system claims export: one CSV row per claim, no totals."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.loss_run.model import LossRun
from packetbench.generator.render.csvfile import Cell, CsvDocument
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.recorder import Recorder

# Exports carry plain machine numbers: two decimals, no "$", no thousands separators.
STYLE = Style(cents=True, currency=False, thousands=False)

# (header, path relative to the document, "{p}" standing for the policy and "{c}" the claim)
COLUMNS = (
    ("Named Insured", "insured_name"),
    ("Carrier", "{p}.carrier"),
    ("Policy Number", "{p}.policy_number"),
    ("Line of Business", "{p}.line_of_business"),
    ("Policy Effective", "{p}.effective_date"),
    ("Policy Expiration", "{p}.expiration_date"),
    ("Valuation Date", "valuation_date"),
    ("Claim Number", "{c}.claim_number"),
    ("Loss Date", "{c}.loss_date"),
    ("Report Date", "{c}.report_date"),
    ("Closed Date", "{c}.closed_date"),
    ("Claimant", "{c}.claimant"),
    ("Loss Description", "{c}.description"),
    ("Location Number", "{c}.location_number"),
    ("Claim Status", "{c}.status"),
    ("Paid", "{c}.paid"),
    ("Reserve", "{c}.reserve"),
    ("Incurred", "{c}.incurred"),
)

# What a claims export cannot show: who it was run for, when, and any totals.
OMITS = frozenset(
    {
        "agency_name",
        "run_date",
        *(
            f"{group}.{key}"
            for group in ("policies[].totals", "grand_totals")
            for key in ("claim_count", "open_claims", "paid", "reserve", "incurred")
        ),
    }
)


def with_claims_only(doc: LossRun) -> LossRun:
    """The loss run without its claim-free policy terms: an export has no row for them.

    Insured and valuation date appear only on claim rows, so an export without claims shows
    neither.
    """
    policies = [p for p in doc.policies if p.claims]
    update: dict[str, object] = {"policies": policies}
    if not policies:
        update |= {"insured_name": None, "valuation_date": None}
    return doc.model_copy(update=update)


def render(doc: LossRun, rec: Recorder) -> Output:
    csv = CsvDocument(rec, [header for header, _ in COLUMNS])
    for p, policy in enumerate(doc.policies):
        policy_path = f"policies[{p}]"
        for c in range(len(policy.claims)):
            claim_path = f"{policy_path}.claims[{c}]"
            cells: list[Cell] = [(path.format(p=policy_path, c=claim_path),) for _, path in COLUMNS]
            csv.row(cells)
    return Output(csv.render(), 1)
