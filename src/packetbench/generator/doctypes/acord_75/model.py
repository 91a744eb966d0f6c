"""The PB-75 insurance binder: the agent's temporary evidence that the program is bound, with
the coverages, limits, premiums and forms it binds, until the policies issue."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import (
    Checkbox,
    Count,
    Date,
    DocModel,
    Id,
    Leaf,
    Money,
    Number,
    Str,
    Text,
)
from packetbench.generator.doctypes._parties import Company, Insured, Producer
from packetbench.generator.doctypes.common import InterestType, LossLine

Trigger = Annotated[str | None, Leaf("enum", codes=codes.COVERAGE_TRIGGER)]
UmbrellaForm = Annotated[str | None, Leaf("enum", codes=codes.UMBRELLA_FORM)]

# The binder has room for this many additional interests; the rest are on the PB-45.
INTEREST_ROWS = 6


class BoundLine(DocModel):
    """One line of business bound, with its policy number and premium."""

    record_key = ("line",)

    line: LossLine = None
    """Line of business."""
    policy_number: Id = None
    """Policy number the line will issue under."""
    premium: Money = None
    """Annual premium of the line in dollars."""


class PropertyTerms(DocModel):
    """Commercial property bound: the schedule's limits summed over every building."""

    premises_count: Count = None
    """Number of buildings on the statement of values."""
    building_limit: Money = None
    """Building limits of all scheduled buildings added together, in dollars."""
    personal_property_limit: Money = None
    """Business personal property limits added together, in dollars."""
    business_income_limit: Money = None
    """Business income limits added together, in dollars."""


class LiabilityTerms(DocModel):
    """Commercial general liability bound."""

    trigger: Trigger = None
    """Occurrence or claims-made."""
    retroactive_date: Date = None
    """Retroactive date of a claims-made policy; empty for occurrence."""
    each_occurrence: Money = None
    """Each occurrence limit in dollars."""
    general_aggregate: Money = None
    """General aggregate limit in dollars."""
    products_aggregate: Money = None
    """Products and completed operations aggregate limit in dollars."""
    personal_advertising: Money = None
    """Personal and advertising injury limit in dollars."""
    damage_to_premises: Money = None
    """Damage to rented premises limit in dollars."""
    medical_expense: Money = None
    """Medical expense limit in dollars."""
    deductible: Money = None
    """Deductible in dollars; empty when none."""


class AutoTerms(DocModel):
    """Business auto bound."""

    combined_single_limit: Money = None
    """Liability combined single limit in dollars."""
    medical_payments_limit: Money = None
    """Medical payments limit per person in dollars; empty when not bound."""
    vehicle_count: Count = None
    """Number of scheduled vehicles."""
    hired_autos: Checkbox = None
    """Hired auto liability is bound."""
    non_owned_autos: Checkbox = None
    """Non-owned auto liability is bound."""


class WorkersCompTerms(DocModel):
    """Workers compensation and employers liability bound."""

    each_accident: Money = None
    """Employers liability each accident limit in dollars."""
    disease_each_employee: Money = None
    """Employers liability disease limit for each employee in dollars."""
    disease_policy_limit: Money = None
    """Employers liability disease policy limit in dollars."""
    experience_mod: Number = None
    """Experience modification factor applied."""


class UmbrellaTerms(DocModel):
    """Umbrella or excess liability bound."""

    form: UmbrellaForm = None
    """Umbrella or excess."""
    each_occurrence: Money = None
    """Each occurrence limit in dollars."""
    aggregate: Money = None
    """Aggregate limit in dollars."""
    retention: Money = None
    """Self-insured retention in dollars."""


class CargoTerms(DocModel):
    """Motor truck cargo bound."""

    limit_per_vehicle: Money = None
    """Limit for any one vehicle in dollars."""
    limit_per_occurrence: Money = None
    """Limit for any one occurrence in dollars."""
    deductible: Money = None
    """Deductible in dollars."""


class ExpiringPolicy(DocModel):
    """The expiring policy of one line that the bound coverage replaces."""

    record_key = ("line",)

    line: LossLine = None
    """Line of business."""
    carrier: Str = None
    """Insurance company of the expiring policy."""
    policy_number: Id = None
    """Expiring policy number."""
    expiration_date: Date = None
    """Expiration date of the expiring policy."""


class Form(DocModel):
    """One policy form or endorsement bound."""

    record_key = ("line", "form_number")

    line: LossLine = None
    """Line of business the form belongs to."""
    form_number: Id = None
    """Form number."""
    edition: Str = None
    """Edition date (MM YY) or edition letter."""
    title: Str = None
    """Title of the form."""


class Interest(DocModel):
    """An additional interest, numbered as on the additional interest schedule."""

    record_key = ("item_number",)

    item_number: Count = None
    """Row number of the interest on the additional interest schedule."""
    interest_type: InterestType = None
    """Kind of interest."""
    name: Str = None
    """Full name of the interest holder."""
    loan_number: Id = None
    """Loan or lease number; empty for an additional insured."""
    line: LossLine = None
    """Line of business the interest attaches to."""


class Binder(DocModel):
    """An ACORD 75-style insurance binder for the program."""

    binder_number: Id = None
    """Binder number."""
    issued_date: Date = None
    """Date the binder was issued."""
    effective_date: Date = None
    """Date coverage is bound from."""
    effective_time: Str = None
    """Time of day coverage is bound from."""
    expiration_date: Date = None
    """Date the binder expires (unless the policies issue first)."""
    policy_expiration_date: Date = None
    """Expiration date of the policy term bound."""
    producer: Producer = Field(default_factory=Producer)
    """Producing agency."""
    company: Company = Field(default_factory=Company)
    """Insurance company bound."""
    insured: Insured = Field(default_factory=Insured)
    """The named insured."""
    description_of_operations: Text = None
    """Description of the insured's operations."""
    lines: list[BoundLine] = Field(default_factory=list)
    """Lines of business bound, with policy numbers and premiums."""
    estimated_premium: Money = None
    """Premium of all the lines bound together, in dollars."""
    property: PropertyTerms = Field(default_factory=PropertyTerms)
    """Commercial property; empty when not bound."""
    general_liability: LiabilityTerms = Field(default_factory=LiabilityTerms)
    """Commercial general liability; empty when not bound."""
    automobile: AutoTerms = Field(default_factory=AutoTerms)
    """Business auto; empty when not bound."""
    workers_comp: WorkersCompTerms = Field(default_factory=WorkersCompTerms)
    """Workers compensation; empty when not bound."""
    umbrella: UmbrellaTerms = Field(default_factory=UmbrellaTerms)
    """Umbrella or excess liability; empty when not bound."""
    cargo: CargoTerms = Field(default_factory=CargoTerms)
    """Motor truck cargo; empty when not bound."""
    expiring: list[ExpiringPolicy] = Field(default_factory=list)
    """Expiring policies the bound coverage replaces, one per line."""
    forms: list[Form] = Field(default_factory=list)
    """Policy forms and endorsements bound."""
    interest_count: Count = None
    """Number of additional interests on the program."""
    interests: list[Interest] = Field(default_factory=list)
    """The first additional interests (the form has room for six; the rest are on the
    additional interest schedule)."""
    authorized_representative: Str = None
    """Name of the producer's authorized representative."""
