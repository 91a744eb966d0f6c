"""The PB-24 certificate of property insurance: the coverage on one premises, for a holder
with no direct interest in it."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, Date, DocModel, Id, Money, Percent, Str
from packetbench.generator.doctypes._issue import PolicyRow
from packetbench.generator.doctypes._parties import Holder, Insured, Insurer, Producer
from packetbench.generator.doctypes.common import Address, CausesOfLoss, Subject, Valuation


class Premises(DocModel):
    """The premises whose property the certificate concerns."""

    location_number: Count = None
    """Location (premises) number, as on the statement of values."""
    address: Address = Field(default_factory=Address)
    """Street address of the premises."""


class Coverage(DocModel):
    """One covered subject of one building at the premises, with its limit and terms."""

    record_key = ("building_number", "subject")

    building_number: Count = None
    """Building number at the premises."""
    subject: Subject = None
    """Covered property (building, business personal property, business income...)."""
    limit: Money = None
    """Limit of insurance in dollars."""
    coinsurance_percent: Percent = None
    """Coinsurance percentage."""
    valuation: Valuation = None
    """Valuation basis."""
    causes_of_loss: CausesOfLoss = None
    """Causes-of-loss form."""
    deductible: Money = None
    """Deductible in dollars."""


class PropertyCertificate(DocModel):
    """An ACORD 24-style certificate of property insurance for one premises."""

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
    premises: Premises = Field(default_factory=Premises)
    """Location of the premises described."""
    policy: PolicyRow = Field(default_factory=PolicyRow)
    """Insurer letter, policy number and policy period of the property policy."""
    coverages: list[Coverage] = Field(default_factory=list)
    """Covered property and limits, by building and subject."""
    holder: Holder = Field(default_factory=Holder)
    """Certificate holder."""
    authorized_representative: Str = None
    """Name of the producer's authorized representative."""
