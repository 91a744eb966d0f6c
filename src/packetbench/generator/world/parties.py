"""People and organisations around the insured: its principals and workforce, the holders of
interests in its property and vehicles, those who ask for certificates, and its forms."""

from __future__ import annotations

from packetbench.generator.world.base import Address, WorldModel


class Principal(WorldModel):
    """An owner or officer; the first one signs the applications."""

    name: str
    title: str
    ownership_percent: float
    birth_date: str
    duties: str
    remuneration: float  # annual, whole hundreds of dollars
    wc_included: bool  # covered by workers compensation (else excluded by election)


class PayrollClass(WorldModel):
    """Employees of one workers-compensation class at one location, and their payroll.

    This is the exposure base of the account whether or not it buys workers compensation:
    GL payroll classes and the umbrella's location schedule read it too.
    """

    location_number: int
    state: str
    class_code: str  # NCCI four-digit class
    description: str
    full_time_employees: int
    part_time_employees: int
    payroll: float  # whole hundreds of dollars


class AdditionalInterest(WorldModel):
    """A party with an interest in a building or vehicle, or named as additional insured."""

    interest_type: str  # INTEREST_TYPE value
    name: str
    address: Address
    loan_number: str | None
    line: str  # line id the interest attaches to
    location_number: int | None
    building_number: int | None
    vehicle_number: int | None
    certificate_required: bool


class CertificateHolder(WorldModel):
    """A party that asked for a certificate of the account's insurance."""

    name: str
    address: Address
    relationship: str
    lines: tuple[str, ...]  # line ids the certificate evidences
    additional_insured: bool
    waiver_of_subrogation: bool
    location_number: int | None  # the premises the certificate is about, if one
    description: str  # operations, project or premises the certificate concerns


class Endorsement(WorldModel):
    line: str  # line id
    form_number: str
    edition: str  # MM YY, or an NCCI edition letter
    title: str
