"""The loss run: claims by policy term as a carrier reports them, with term and grand totals."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import Count, Date, DocModel, Id, Leaf, Money, Str, Text
from packetbench.generator.doctypes.common import LossLine

ClaimStatus = Annotated[str | None, Leaf("enum", codes=codes.CLAIM_STATUS)]

# Statuses under which a claim is still being handled, so it counts as open in the totals.


class LossRunClaim(DocModel):
    """One claim reported under a policy term."""

    record_key = ("claim_number",)

    claim_number: Id = None
    """Carrier's claim number."""
    loss_date: Date = None
    """Date of loss or occurrence (YYYY-MM-DD)."""
    report_date: Date = None
    """Date the claim was reported to the carrier (YYYY-MM-DD)."""
    closed_date: Date = None
    """Date the claim was closed (YYYY-MM-DD); null while the claim is open."""
    claimant: Str = None
    """Name of the claimant (the insured itself for first-party property claims)."""
    description: Text = None
    """Cause and description of the loss as the carrier states it."""
    location_number: Count = None
    """Insured location number the loss occurred at; null for claims not tied to a premises."""
    status: ClaimStatus = None
    """Claim status as of the valuation date."""
    paid: Money = None
    """Amount paid to date in dollars."""
    reserve: Money = None
    """Outstanding reserve in dollars."""
    incurred: Money = None
    """Total incurred in dollars (paid + outstanding reserve)."""


class LossTotals(DocModel):
    """Claim counts and amounts summed over a group of claims."""

    claim_count: Count = None
    """Number of claims in the group."""
    open_claims: Count = None
    """Number of claims in the group still open (open, re-opened, subrogation or in suit)."""
    paid: Money = None
    """Sum of paid amounts in dollars."""
    reserve: Money = None
    """Sum of outstanding reserves in dollars."""
    incurred: Money = None
    """Sum of incurred amounts in dollars."""


class LossRunPolicy(DocModel):
    """One policy term (one line at one carrier for one policy year) and its claims."""

    record_key = ("policy_number",)

    carrier: Str = None
    """Insurance carrier that wrote the policy."""
    policy_number: Id = None
    """Policy number of the term."""
    line_of_business: LossLine = None
    """Line of business of the policy."""
    effective_date: Date = None
    """Policy effective date (YYYY-MM-DD)."""
    expiration_date: Date = None
    """Policy expiration date (YYYY-MM-DD)."""
    claims: list[LossRunClaim] = Field(default_factory=list)
    """Claims reported under the term, in report order; empty when no losses were reported."""
    totals: LossTotals = Field(default_factory=LossTotals)
    """Totals over the term's claims."""


class LossRun(DocModel):
    """A loss run (loss history report) listing claims by policy term."""

    insured_name: Str = None
    """Named insured the loss run is for."""
    agency_name: Str = None
    """Agency the loss run was prepared for."""
    valuation_date: Date = None
    """Date the claim amounts are valued as of (YYYY-MM-DD)."""
    run_date: Date = None
    """Date the report was run (YYYY-MM-DD)."""
    policies: list[LossRunPolicy] = Field(default_factory=list)
    """Every policy term in the report, most recent first."""
    grand_totals: LossTotals = Field(default_factory=LossTotals)
    """Totals over every claim of every policy term."""
