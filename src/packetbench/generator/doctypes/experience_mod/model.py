"""The WC experience-rating worksheet: experience policies with payroll, expected and actual
losses by class and claim, and the modification computed from their totals."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import Date, DocModel, Id, Leaf, Money, Number, Str
from packetbench.generator.doctypes.common import State

InjuryType = Annotated[str | None, Leaf("enum", codes=codes.INJURY_TYPE)]
ExperienceClaimStatus = Annotated[str | None, Leaf("enum", codes=codes.EXPERIENCE_CLAIM_STATUS)]


class ClassExperience(DocModel):
    """Payroll and expected losses of one class code in one experience policy."""

    record_key = ("state", "class_code")

    state: State = None
    """State the class is rated in."""
    class_code: Id = None
    """Four-digit workers compensation class code."""
    elr: Number = None
    """Expected loss rate per $100 of payroll."""
    d_ratio: Number = None
    """Discount ratio: the primary share of the class's expected losses."""
    payroll: Money = None
    """Reported payroll of the class in the policy year, in dollars."""
    expected_losses: Money = None
    """Expected losses: payroll x ELR / 100, in dollars."""
    expected_primary: Money = None
    """Expected primary losses: expected losses x D-ratio, in dollars."""


class ClaimExperience(DocModel):
    """One claim reported under an experience policy."""

    record_key = ("claim_number",)

    claim_number: Id = None
    """Claim number as reported by the carrier."""
    injury_type: InjuryType = None
    """Injury type (codes 1 death, 2 permanent total, 3 major permanent partial, 4 minor
    permanent partial, 5 temporary total, 6 medical only)."""
    status: ExperienceClaimStatus = None
    """Whether the claim was open (O) or final (F) when reported."""
    actual_incurred: Money = None
    """Actual incurred losses of the claim, in dollars."""
    actual_primary: Money = None
    """Actual primary losses: the incurred up to the split point, in dollars."""


class PolicyTotals(DocModel):
    """The subtotal row of one experience policy."""

    payroll: Money = None
    """Total payroll of the policy, in dollars."""
    expected_losses: Money = None
    """Total expected losses of the policy, in dollars."""
    expected_primary: Money = None
    """Total expected primary losses of the policy, in dollars."""
    actual_incurred: Money = None
    """Total actual incurred losses of the policy's claims, in dollars."""
    actual_primary: Money = None
    """Total actual primary losses of the policy's claims, in dollars."""


class ExperiencePolicy(DocModel):
    """One policy year of the experience period."""

    record_key = ("policy_number",)

    carrier: Str = None
    """Carrier that wrote the policy."""
    policy_number: Id = None
    """Policy number."""
    effective_date: Date = None
    """Policy effective date."""
    expiration_date: Date = None
    """Policy expiration date."""
    classes: list[ClassExperience] = Field(default_factory=list)
    """Payroll and expected losses by class code."""
    claims: list[ClaimExperience] = Field(default_factory=list)
    """Claims reported under the policy."""
    totals: PolicyTotals = Field(default_factory=PolicyTotals)
    """Subtotals of the policy."""


class Rating(DocModel):
    """The rating computation at the foot of the worksheet."""

    expected_losses: Money = None
    """Total expected losses (E), in dollars."""
    expected_primary: Money = None
    """Total expected primary losses (Ep), in dollars."""
    expected_excess: Money = None
    """Total expected excess losses (Ee = E - Ep), in dollars."""
    actual_incurred: Money = None
    """Total actual incurred losses, in dollars."""
    actual_primary: Money = None
    """Total actual primary losses (Ap), in dollars."""
    actual_excess: Money = None
    """Total actual excess losses (Ae), in dollars."""
    weighting_value: Number = None
    """Weighting value (W)."""
    ballast_value: Money = None
    """Ballast value (B), in dollars."""
    adjusted_actual: Money = None
    """Ap + W x Ae + (1 - W) x Ee + B, in dollars."""
    adjusted_expected: Money = None
    """E + B, in dollars."""
    experience_mod: Number = None
    """Experience modification: adjusted actual / adjusted expected, two decimals."""


class ExperienceMod(DocModel):
    """A workers compensation experience-rating worksheet issued by a rating bureau."""

    bureau: Str = None
    """Rating bureau that produced the worksheet (NCCI or an independent state bureau)."""
    risk_name: Str = None
    """Name of the rated risk (the insured)."""
    risk_id: Id = None
    """Bureau risk identification number."""
    rating_state: Str = None
    """State of the rating (two-letter code) or "Interstate"."""
    rating_effective_date: Date = None
    """Date the modification takes effect."""
    production_date: Date = None
    """Date the bureau produced the worksheet."""
    split_point: Money = None
    """Per-claim split point between primary and excess losses, in dollars."""
    policies: list[ExperiencePolicy] = Field(default_factory=list)
    """The experience policies, oldest first."""
    rating: Rating = Field(default_factory=Rating)
    """Totals and the computed modification."""
