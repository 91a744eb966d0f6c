"""The PB-28 evidence of commercial property insurance: the commercial lender's fuller
evidence of one mortgaged building, its construction, coverages and policy conditions."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import (
    Checkbox,
    Count,
    Date,
    DocModel,
    Money,
    Percent,
    Str,
    Year,
    YesNo,
)
from packetbench.generator.doctypes._issue import PolicyTerm
from packetbench.generator.doctypes._parties import Company, Insured, Interest, Producer
from packetbench.generator.doctypes.common import (
    Address,
    CausesOfLoss,
    Construction,
    Occupancy,
    Subject,
    Valuation,
)


class Premises(DocModel):
    """The building the evidence concerns, as the statement of values describes it."""

    location_number: Count = None
    """Location (premises) number, as on the statement of values."""
    building_number: Count = None
    """Building number at the location."""
    address: Address = Field(default_factory=Address)
    """Street address of the building."""
    construction: Construction = None
    """ISO construction class."""
    occupancy: Occupancy = None
    """Occupancy of the building."""
    year_built: Year = None
    """Year the building was built."""
    stories: Count = None
    """Number of stories."""
    floor_area: Count = None
    """Floor area in square feet."""


class Coverage(DocModel):
    """One coverage on the building with its terms."""

    record_key = ("subject",)

    subject: Subject = None
    """Coverage (building, business personal property, business income...)."""
    limit: Money = None
    """Amount of insurance in dollars."""
    coinsurance_percent: Percent = None
    """Coinsurance percentage."""
    valuation: Valuation = None
    """Valuation basis."""
    deductible: Money = None
    """Deductible in dollars."""


class Conditions(DocModel):
    """The policy conditions a lender asks about, answered Y or N."""

    business_income: YesNo = None
    """Business income or rental value is covered (Y or N)."""
    business_income_limit: Money = None
    """Business income limit in dollars; empty when not covered."""
    replacement_cost: YesNo = None
    """Property is valued at replacement cost (Y or N)."""
    agreed_value: YesNo = None
    """Property is insured on an agreed-value basis (Y or N)."""
    coinsurance_percent: Percent = None
    """Coinsurance percentage on the building and personal property."""


class CommercialPropertyEvidence(DocModel):
    """An ACORD 28-style evidence of commercial property insurance issued to a lender."""

    evidence_date: Date = None
    """Date the evidence was issued."""
    producer: Producer = Field(default_factory=Producer)
    """Producing agency."""
    company: Company = Field(default_factory=Company)
    """Insurance company."""
    insured: Insured = Field(default_factory=Insured)
    """The insured."""
    policy: PolicyTerm = Field(default_factory=PolicyTerm)
    """Policy number and period of the property policy."""
    premises: Premises = Field(default_factory=Premises)
    """Location and description of the insured building."""
    causes_of_loss: CausesOfLoss = None
    """Causes-of-loss form of the policy for this building."""
    building_covered: Checkbox = None
    """Ticked when the building itself is covered."""
    personal_property_covered: Checkbox = None
    """Ticked when business personal property is covered."""
    coverages: list[Coverage] = Field(default_factory=list)
    """Coverages on the building with their terms."""
    conditions: Conditions = Field(default_factory=Conditions)
    """Policy conditions answered for the lender."""
    interest: Interest = Field(default_factory=Interest)
    """The lender whose interest is evidenced."""
    authorized_representative: Str = None
    """Name of the producer's authorized representative."""
