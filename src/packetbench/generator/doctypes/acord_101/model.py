"""The PB-101 additional remarks schedule: what did not fit on the liability certificate it
is attached to, the holder's additional-insured and waiver status, the forms of the lines
certified and the premises of the named insured."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Count, DocModel, Id, Str, Text, YesNo
from packetbench.generator.doctypes._parties import Identification
from packetbench.generator.doctypes.acord_75.model import Form
from packetbench.generator.doctypes.common import Address


class Premises(DocModel):
    """One premises of the named insured."""

    record_key = ("location_number",)

    location_number: Count = None
    """Location number, as on the statement of values."""
    address: Address = Field(default_factory=Address)
    """Street address of the premises."""


class RemarksSchedule(DocModel):
    """An ACORD 101-style additional remarks schedule attached to a certificate."""

    header: Identification = Field(default_factory=Identification)
    """Identification block: agency, carrier, policy and named insured."""
    form_number: Id = None
    """Number of the form these remarks continue."""
    form_title: Str = None
    """Title of the form these remarks continue."""
    holder_name: Str = None
    """Certificate holder the remarks concern."""
    additional_insured: YesNo = None
    """The holder is an additional insured under the general liability policy (Y or N)."""
    subrogation_waived: YesNo = None
    """Rights of recovery against the holder are waived (Y or N)."""
    remarks: Text = None
    """The remark on the holder's status under the policies."""
    forms: list[Form] = Field(default_factory=list)
    """Forms and endorsements of the lines the certificate evidences."""
    premises: list[Premises] = Field(default_factory=list)
    """Every premises of the named insured."""
