"""The PB-35 cancellation request / policy release: the insured asks the incumbent carrier
to cancel its expiring policy of one line, replaced by the new program.

Checkbox groups that mirror a code list (line of business, reason, return premium method)
name one field per code value, spelled by `code_field`, as the PB-125 does.
"""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Checkbox, Date, DocModel, Id, Str
from packetbench.generator.doctypes._issue import PolicyTerm
from packetbench.generator.doctypes._parties import Company, Insured, Producer


class PolicyType(DocModel):
    """Line of business of the policy to be cancelled: one box per line, one ticked."""

    commercial_property: Checkbox = None
    """Commercial property."""
    general_liability: Checkbox = None
    """Commercial general liability."""
    commercial_auto: Checkbox = None
    """Commercial (business) auto."""
    workers_compensation: Checkbox = None
    """Workers compensation."""
    umbrella: Checkbox = None
    """Commercial umbrella."""
    motor_truck_cargo: Checkbox = None
    """Motor truck cargo."""


class Reason(DocModel):
    """Reason for the cancellation: one box per reason, one ticked."""

    insureds_request: Checkbox = None
    """Cancelled at the insured's request."""
    policy_rewritten: Checkbox = None
    """The policy is rewritten (replaced) by another policy."""
    non_payment: Checkbox = None
    """Non-payment of premium."""
    underwriting: Checkbox = None
    """Underwriting reasons."""
    other: Checkbox = None
    """Another reason."""


class ReturnPremium(DocModel):
    """How any return premium is computed: one box per method, one ticked."""

    flat: Checkbox = None
    """Flat cancellation (no premium earned or returned)."""
    pro_rata: Checkbox = None
    """Pro rata."""
    short_rate: Checkbox = None
    """Short rate."""


class Replacement(DocModel):
    """The policy that replaces the cancelled one."""

    carrier_name: Str = None
    """Insurance company of the replacing policy."""
    policy_number: Id = None
    """Number of the replacing policy."""
    effective_date: Date = None
    """Effective date of the replacing policy."""


class Signature(DocModel):
    """The insured's signature block (the signature itself is handwritten)."""

    signer_name: Str = None
    """Name of the person signing for the insured."""
    signer_title: Str = None
    """Title of the person signing for the insured."""
    signature_date: Date = None
    """Date signed."""


class CancellationRequest(DocModel):
    """An ACORD 35-style cancellation request / policy release for an expiring policy."""

    request_date: Date = None
    """Date of the request."""
    producer: Producer = Field(default_factory=Producer)
    """Producing agency."""
    company: Company = Field(default_factory=Company)
    """Insurance company of the policy to be cancelled."""
    insured: Insured = Field(default_factory=Insured)
    """The named insured."""
    policy: PolicyTerm = Field(default_factory=PolicyTerm)
    """Number and period of the policy to be cancelled."""
    policy_type: PolicyType = Field(default_factory=PolicyType)
    """Line of business of the policy."""
    cancellation_date: Date = None
    """Requested cancellation effective date."""
    cancellation_time: Str = None
    """Time of day the cancellation takes effect."""
    reason: Reason = Field(default_factory=Reason)
    """Reason for the cancellation."""
    return_premium: ReturnPremium = Field(default_factory=ReturnPremium)
    """Return premium method."""
    replacement: Replacement = Field(default_factory=Replacement)
    """The replacing policy."""
    lost_policy_release: Checkbox = None
    """Ticked when the insured states the policy was lost or destroyed and releases the
    company from liability under it."""
    signature: Signature = Field(default_factory=Signature)
    """The insured's signature block."""
