"""The party blocks of certificates, evidence forms, binders and requests: producer, insured,
insurers affording coverage, and the holder of the certificate.

Each block is one small model, one projection from the world and one renderer, so every form
that carries a block carries the same facts drawn the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import Field

from packetbench.core.leaves import Checkbox, Date, DocModel, Id, Str
from packetbench.generator.doctypes.common import Address, address_of, address_parts, title_block
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column
from packetbench.generator.world.models import World
from packetbench.generator.world.parties import AdditionalInterest, CertificateHolder

# The only insurer of the program: every coverage row names it by this letter.
INSURER_LETTER = "A"

CANCELLATION_NOTICE = (
    "Should any of the policies described be cancelled before their expiration date, notice "
    "will be delivered in accordance with the policy provisions."
)
INFORMATION_ONLY = (
    "This document is issued as a matter of information only and confers no rights upon its "
    "holder. It does not amend, extend or alter the coverage afforded by the policies listed, "
    "and it is not a contract between the issuing insurer(s), the producer and the holder."
)


def certificate_flow(
    rec: Recorder, form: str, name: str, identifiers: Callable[[int], list[Cell]]
) -> Flow:
    """The page flow of a certificate, evidence or binder: a PDF titled "`form` `name`",
    each page headed by `name` in capitals ("(CONTINUED)" after the first), the form number,
    and the boxes that identify the document, `identifiers(page)` (the first page is 0)."""
    pdf = PdfDocument(rec, name, f"{form} {name}")

    def header(flow: Flow, page: int) -> float:
        title = name.upper() + (" (CONTINUED)" if page else "")
        flow.y = title_block(flow, page, title, form)
        flow.boxes(identifiers(page), height=19)
        return flow.y - 4

    return Flow(pdf, header)


class Producer(DocModel):
    """The producing agency that issued the document."""

    name: Str = None
    """Full name of the producing agency."""
    address: Address = Field(default_factory=Address)
    """Mailing address of the agency."""
    contact_name: Str = None
    """Agency contact person."""
    phone: Str = None
    """Agency phone number."""
    fax: Str = None
    """Agency fax number."""
    email: Str = None
    """Agency contact e-mail address."""
    agency_code: Id = None
    """Code the carrier assigned to the agency."""
    customer_id: Id = None
    """The agency's own customer identifier for the insured."""


class Insured(DocModel):
    """The first named insured."""

    name: Str = None
    """Full legal name of the insured."""
    address: Address = Field(default_factory=Address)
    """Mailing address of the insured."""


class Insurer(DocModel):
    """An insurer affording coverage, with the letter the coverage rows refer to it by."""

    record_key = ("letter",)

    letter: Str = None
    """Letter identifying the insurer in the coverage rows (A, B, ...)."""
    name: Str = None
    """Full name of the insurance company."""
    naic_code: Id = None
    """NAIC company code of the insurer."""


class Company(DocModel):
    """The insurance company that wrote the policy."""

    name: Str = None
    """Full name of the insurance company."""
    naic_code: Id = None
    """NAIC company code of the insurer."""


class Holder(DocModel):
    """The party the document is issued to."""

    name: Str = None
    """Full name of the certificate holder or interest."""
    address: Address = Field(default_factory=Address)
    """Mailing address of the holder."""


class Interest(DocModel):
    """A lender with an interest in the insured property, and the kind of its interest."""

    name: Str = None
    """Full name of the interest holder."""
    address: Address = Field(default_factory=Address)
    """Mailing address of the interest holder."""
    mortgagee: Checkbox = None
    """Ticked when the interest is a mortgagee."""
    loss_payee: Checkbox = None
    """Ticked when the interest is a loss payee."""
    lenders_loss_payable: Checkbox = None
    """Ticked when the interest is a lender's loss payable."""
    loan_number: Id = None
    """The lender's loan number."""


class Identification(DocModel):
    """The identification block of a schedule attached to an application: agency, carrier,
    policy and named insured."""

    agency_name: Str = None
    """Producing agency."""
    customer_id: Id = None
    """The agency's customer identifier for the insured."""
    carrier_name: Str = None
    """Insurance company."""
    naic_code: Id = None
    """NAIC company code of the carrier."""
    policy_number: Id = None
    """Policy number of the program (its first line)."""
    effective_date: Date = None
    """Policy effective date."""
    named_insured: Str = None
    """First named insured."""


# --- projections ----------------------------------------------------------------------------


def yes_no(flag: bool) -> str:
    return "Yes" if flag else "No"


def identification_of(world: World) -> Identification:
    return Identification(
        agency_name=world.producer.agency_name,
        customer_id=world.producer.customer_id,
        carrier_name=world.carrier.name,
        naic_code=world.carrier.naic,
        policy_number=world.policy.number,
        effective_date=world.policy.effective_date,
        named_insured=world.insured.name,
    )


def interest_of(interest: AdditionalInterest) -> Interest:
    kind = interest.interest_type
    return Interest(
        name=interest.name,
        address=address_of(interest.address),
        mortgagee=yes_no(kind == "Mortgagee"),
        loss_payee=yes_no(kind == "Loss Payee"),
        lenders_loss_payable=yes_no(kind == "Lender's Loss Payable"),
        loan_number=interest.loan_number,
    )


def producer_of(world: World) -> Producer:
    p = world.producer
    return Producer(
        name=p.agency_name,
        address=address_of(p.address),
        contact_name=p.contact_name,
        phone=p.phone,
        fax=p.fax,
        email=p.email,
        agency_code=p.agency_code,
        customer_id=p.customer_id,
    )


def insured_of(world: World) -> Insured:
    return Insured(name=world.insured.name, address=address_of(world.insured.mailing_address))


def insurers_of(world: World) -> list[Insurer]:
    """The program has one carrier for every line: insurer A."""
    return [Insurer(letter=INSURER_LETTER, name=world.carrier.name, naic_code=world.carrier.naic)]


def company_of(world: World) -> Company:
    return Company(name=world.carrier.name, naic_code=world.carrier.naic)


def holder_of(party: CertificateHolder | AdditionalInterest) -> Holder:
    return Holder(name=party.name, address=address_of(party.address))


# --- renderers ------------------------------------------------------------------------------

INSURER_COLUMNS = (
    Column("Insurer", "letter", 0.8, "center"),
    Column("Insurer(s) affording coverage", "name", 6.0),
    Column("NAIC #", "naic_code", 1.4),
)


def identification_rows(flow: Flow, page: int, prefix: str = "header") -> None:
    """The identification block; continuation pages repeat only the insured and policy."""
    if page == 0:
        flow.boxes(
            [
                Cell("Agency", f"{prefix}.agency_name", 3),
                Cell("Agency customer ID", f"{prefix}.customer_id", 1),
                Cell("Carrier", f"{prefix}.carrier_name", 3),
                Cell("NAIC code", f"{prefix}.naic_code", 0.8),
            ]
        )
    flow.boxes(
        [
            Cell("Named insured", f"{prefix}.named_insured", 4),
            Cell("Policy number", f"{prefix}.policy_number", 1.5),
            Cell("Effective date", f"{prefix}.effective_date", 1.2),
        ]
    )


def producer_rows(flow: Flow, prefix: str = "producer") -> None:
    flow.boxes(
        [
            Cell("Producer", f"{prefix}.name", 3),
            Cell("Agency code", f"{prefix}.agency_code", 1),
            Cell("Agency customer ID", f"{prefix}.customer_id", 1),
        ]
    )
    flow.boxes(
        [
            Cell("Producer address", parts=address_parts(f"{prefix}.address"), weight=3),
            Cell("Contact name", f"{prefix}.contact_name", 2),
        ]
    )
    flow.boxes(
        [
            Cell("Phone (A/C, No, Ext)", f"{prefix}.phone"),
            Cell("Fax (A/C, No)", f"{prefix}.fax"),
            Cell("E-mail address", f"{prefix}.email", 2),
        ]
    )


def insured_rows(flow: Flow, prefix: str = "insured", label: str = "Insured") -> None:
    flow.boxes(
        [
            Cell(label, f"{prefix}.name", 2),
            Cell("Mailing address", parts=address_parts(f"{prefix}.address"), weight=3),
        ]
    )


def insurers_table(flow: Flow, count: int) -> None:
    draw_table(flow, "insurers", count, INSURER_COLUMNS)


def company_row(flow: Flow, prefix: str = "company") -> None:
    flow.boxes([Cell("Company", f"{prefix}.name", 4), Cell("NAIC code", f"{prefix}.naic_code")])


def holder_rows(flow: Flow, prefix: str = "holder", label: str = "Certificate holder") -> None:
    flow.boxes(
        [
            Cell(label, f"{prefix}.name", 2),
            Cell("Address", parts=address_parts(f"{prefix}.address"), weight=3),
        ]
    )


def interest_rows(flow: Flow, prefix: str = "interest") -> None:
    flow.boxes(
        [
            Cell("Name of interest", f"{prefix}.name", 2),
            Cell("Address", parts=address_parts(f"{prefix}.address"), weight=3),
        ]
    )
    flow.boxes(
        [
            Checks(
                "Interest",
                (
                    ("Mortgagee", f"{prefix}.mortgagee"),
                    ("Loss payee", f"{prefix}.loss_payee"),
                    ("Lender's loss payable", f"{prefix}.lenders_loss_payable"),
                ),
                3,
            ),
            Cell("Loan number", f"{prefix}.loan_number", 2),
        ]
    )


def closing(flow: Flow, representative: str) -> None:
    """The cancellation notice and the authorized representative who signs for the insurers."""
    flow.band("Cancellation", keep_with=50)
    flow.note(CANCELLATION_NOTICE, size=6.8)
    flow.boxes(
        [
            Cell("Authorized representative (signature)", None, 2),
            Cell("Authorized representative", representative, 2),
        ],
        height=26,
    )
