"""The PB-45 additional interest schedule: every party with an interest in the insured's
buildings and vehicles, or named as additional insured, attached to the application."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, DocModel, Id, Str, YesNo
from packetbench.generator.doctypes._parties import Identification
from packetbench.generator.doctypes.common import Address, InterestType, LossLine


class InterestRow(DocModel):
    """One additional interest and the item it attaches to."""

    record_key = ("item_number",)

    item_number: Count = None
    """Row number on the schedule."""
    interest_type: InterestType = None
    """Kind of interest (mortgagee, lienholder, lessor, additional insured...)."""
    name: Str = None
    """Full name of the interest holder."""
    address: Address = Field(default_factory=Address)
    """Mailing address of the interest holder."""
    loan_number: Id = None
    """Loan or lease number; empty for an additional insured."""
    line: LossLine = None
    """Line of business the interest attaches to."""
    policy_number: Id = None
    """Policy number of that line."""
    location_number: Count = None
    """Location number of the building or premises; empty for a vehicle."""
    building_number: Count = None
    """Building number; empty when the interest is in a whole premises or a vehicle."""
    vehicle_number: Count = None
    """Vehicle number on the vehicle schedule; empty for premises."""
    certificate_required: YesNo = None
    """Whether the interest requires a certificate or evidence of insurance (Y or N)."""


class InterestSchedule(DocModel):
    """An ACORD 45-style additional interest schedule."""

    header: Identification = Field(default_factory=Identification)
    """Identification block: agency, carrier, policy and named insured."""
    interests: list[InterestRow] = Field(default_factory=list)
    """Every additional interest, in schedule order."""
