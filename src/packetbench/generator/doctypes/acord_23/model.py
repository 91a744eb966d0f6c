"""The PB-23 vehicle certificate of insurance: the auto coverage on the vehicles a lender or
lessor holds an interest in, issued to that lender or lessor."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Checkbox, Count, Date, DocModel, Id, Money, Str, Year
from packetbench.generator.doctypes._issue import PolicyRow
from packetbench.generator.doctypes._parties import Holder, Insured, Insurer, Producer


class Vehicle(DocModel):
    """One vehicle the holder has an interest in, with its physical-damage deductibles."""

    record_key = ("vin",)

    vehicle_number: Count = None
    """Vehicle number on the vehicle schedule."""
    year: Year = None
    """Model year."""
    make: Str = None
    """Make."""
    model: Str = None
    """Model."""
    body_type: Str = None
    """Body type."""
    vin: Id = None
    """Vehicle identification number (17 characters)."""
    comprehensive_deductible: Money = None
    """Comprehensive deductible in dollars; empty when no comprehensive coverage."""
    collision_deductible: Money = None
    """Collision deductible in dollars; empty when no collision coverage."""
    loan_number: Id = None
    """The holder's loan or lease number on the vehicle."""


class VehicleCertificate(DocModel):
    """An ACORD 23-style vehicle certificate of insurance issued to a lender or lessor."""

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
    policy: PolicyRow = Field(default_factory=PolicyRow)
    """Insurer letter, policy number and policy period of the auto policy."""
    combined_single_limit: Money = None
    """Liability combined single limit (each accident) in dollars."""
    medical_payments_limit: Money = None
    """Medical payments limit per person in dollars; empty when not covered."""
    vehicles: list[Vehicle] = Field(default_factory=list)
    """The vehicles the holder has an interest in."""
    holder: Holder = Field(default_factory=Holder)
    """The lender or lessor the certificate is issued to."""
    lienholder: Checkbox = None
    """Ticked when the holder is a lienholder (loss payee) of the vehicles."""
    lessor: Checkbox = None
    """Ticked when the holder is the lessor (additional insured and loss payee)."""
    authorized_representative: Str = None
    """Name of the producer's authorized representative."""
