"""The PB-27 evidence of property insurance: a lender's proof that the building it lends on
is insured, for how much, and that its interest is recorded."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, Date, DocModel, Money, Str, Text
from packetbench.generator.doctypes._issue import PolicyTerm
from packetbench.generator.doctypes._parties import Company, Insured, Interest, Producer
from packetbench.generator.doctypes.common import Address, CausesOfLoss, Subject


class Property(DocModel):
    """The building the evidence concerns."""

    location_number: Count = None
    """Location (premises) number, as on the statement of values."""
    building_number: Count = None
    """Building number at the location."""
    address: Address = Field(default_factory=Address)
    """Street address of the building."""
    description: Text = None
    """Description of the building."""


class Coverage(DocModel):
    """One coverage on the building: its amount and deductible."""

    record_key = ("subject",)

    subject: Subject = None
    """Coverage (building, business personal property, business income...)."""
    limit: Money = None
    """Amount of insurance in dollars."""
    deductible: Money = None
    """Deductible in dollars."""


class PropertyEvidence(DocModel):
    """An ACORD 27-style evidence of property insurance issued to a lender."""

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
    property: Property = Field(default_factory=Property)
    """Location and description of the insured building."""
    causes_of_loss: CausesOfLoss = None
    """Perils insured (the causes-of-loss form)."""
    coverages: list[Coverage] = Field(default_factory=list)
    """Coverages on the building with amounts and deductibles."""
    interest: Interest = Field(default_factory=Interest)
    """The lender whose interest is evidenced."""
    authorized_representative: Str = None
    """Name of the producer's authorized representative."""
