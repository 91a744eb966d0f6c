"""The PB-25 certificate of liability insurance: who is insured, by whom, for what limits, and
for whom the certificate was issued.

A coverage block the certificate does not evidence (a line the holder did not ask about) is
left blank on the form, so its leaves are null.
"""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Checkbox, Date, DocModel, Id, Money, Str, Text, YesNo
from packetbench.generator.doctypes._issue import PolicyRow
from packetbench.generator.doctypes._parties import Holder, Insured, Insurer, Producer
from packetbench.generator.doctypes.common import LossLine


class GeneralLiability(DocModel):
    """Commercial general liability row."""

    policy: PolicyRow = Field(default_factory=PolicyRow)
    """Insurer letter, policy number and policy period."""
    additional_insured: YesNo = None
    """ADDL INSD column: the holder is an additional insured on this policy (Y or N)."""
    subrogation_waived: YesNo = None
    """SUBR WVD column: rights of recovery against the holder are waived (Y or N)."""
    occurrence: Checkbox = None
    """Ticked when the policy is written on an occurrence basis."""
    claims_made: Checkbox = None
    """Ticked when the policy is written on a claims-made basis."""
    aggregate_per_policy: Checkbox = None
    """General aggregate limit applies per policy."""
    aggregate_per_project: Checkbox = None
    """General aggregate limit applies per project."""
    aggregate_per_location: Checkbox = None
    """General aggregate limit applies per location."""
    each_occurrence: Money = None
    """Each occurrence limit in dollars."""
    damage_to_rented_premises: Money = None
    """Damage to rented premises (each occurrence) limit in dollars."""
    medical_expense: Money = None
    """Medical expense limit (any one person) in dollars."""
    personal_advertising_injury: Money = None
    """Personal and advertising injury limit in dollars."""
    general_aggregate: Money = None
    """General aggregate limit in dollars."""
    products_completed_aggregate: Money = None
    """Products and completed operations aggregate limit in dollars."""


class Automobile(DocModel):
    """Automobile liability row."""

    policy: PolicyRow = Field(default_factory=PolicyRow)
    """Insurer letter, policy number and policy period."""
    additional_insured: YesNo = None
    """ADDL INSD column: the holder is an additional insured on this policy (Y or N)."""
    subrogation_waived: YesNo = None
    """SUBR WVD column: rights of recovery against the holder are waived (Y or N)."""
    any_auto: Checkbox = None
    """Liability covers any auto (symbol 1)."""
    owned_autos_only: Checkbox = None
    """Liability covers owned autos only (symbol 2)."""
    hired_autos_only: Checkbox = None
    """Liability covers hired autos (symbol 8)."""
    non_owned_autos_only: Checkbox = None
    """Liability covers non-owned autos (symbol 9)."""
    combined_single_limit: Money = None
    """Combined single limit (each accident) in dollars."""


class Umbrella(DocModel):
    """Umbrella or excess liability row."""

    policy: PolicyRow = Field(default_factory=PolicyRow)
    """Insurer letter, policy number and policy period."""
    additional_insured: YesNo = None
    """ADDL INSD column: the holder is an additional insured on this policy (Y or N)."""
    subrogation_waived: YesNo = None
    """SUBR WVD column: rights of recovery against the holder are waived (Y or N)."""
    umbrella: Checkbox = None
    """Ticked for an umbrella policy."""
    excess: Checkbox = None
    """Ticked for an excess (follow-form) policy."""
    occurrence: Checkbox = None
    """Ticked when written on an occurrence basis."""
    claims_made: Checkbox = None
    """Ticked when written on a claims-made basis."""
    retention: Money = None
    """Self-insured retention in dollars (0 when none)."""
    each_occurrence: Money = None
    """Each occurrence limit in dollars."""
    aggregate: Money = None
    """Aggregate limit in dollars."""


class WorkersComp(DocModel):
    """Workers compensation and employers liability row."""

    policy: PolicyRow = Field(default_factory=PolicyRow)
    """Insurer letter, policy number and policy period."""
    subrogation_waived: YesNo = None
    """SUBR WVD column: rights of recovery against the holder are waived (Y or N)."""
    proprietor_excluded: YesNo = None
    """Is any proprietor, partner, executive officer or member excluded (Y or N)."""
    statutory: Checkbox = None
    """Ticked when workers compensation limits are statutory (per statute)."""
    each_accident: Money = None
    """Employers liability each accident limit in dollars."""
    disease_each_employee: Money = None
    """Employers liability disease limit for each employee in dollars."""
    disease_policy_limit: Money = None
    """Employers liability disease policy limit in dollars."""


class OtherCoverage(DocModel):
    """A row for a coverage outside the liability blocks (property, inland marine)."""

    record_key = ("line",)

    line: LossLine = None
    """Line of business of the coverage."""
    policy: PolicyRow = Field(default_factory=PolicyRow)
    """Insurer letter, policy number and policy period."""
    limit_description: Str = None
    """What the limit applies to, as printed."""
    limit: Money = None
    """Limit in dollars."""


class LiabilityCertificate(DocModel):
    """An ACORD 25-style certificate of liability insurance issued to a certificate holder."""

    certificate_date: Date = None
    """Date the certificate was issued."""
    certificate_number: Id = None
    """Certificate number."""
    producer: Producer = Field(default_factory=Producer)
    """Producing agency."""
    insured: Insured = Field(default_factory=Insured)
    """The insured."""
    insurers: list[Insurer] = Field(default_factory=list)
    """Insurers affording coverage, by letter."""
    general_liability: GeneralLiability = Field(default_factory=GeneralLiability)
    """Commercial general liability; null leaves when not evidenced."""
    automobile: Automobile = Field(default_factory=Automobile)
    """Automobile liability; null leaves when not evidenced."""
    umbrella: Umbrella = Field(default_factory=Umbrella)
    """Umbrella or excess liability; null leaves when not evidenced."""
    workers_comp: WorkersComp = Field(default_factory=WorkersComp)
    """Workers compensation and employers liability; null leaves when not evidenced."""
    other: list[OtherCoverage] = Field(default_factory=list)
    """Other coverages evidenced (property, inland marine), one row each."""
    description_of_operations: Text = None
    """Description of operations, locations or vehicles the certificate concerns."""
    holder: Holder = Field(default_factory=Holder)
    """Certificate holder."""
    authorized_representative: Str = None
    """Name of the producer's authorized representative."""
