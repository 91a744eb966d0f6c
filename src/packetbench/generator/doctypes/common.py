"""Pieces shared by document models and renderers: enum leaves, the address block, headers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from packetbench.core import codes
from packetbench.core.leaves import Date, DocModel, Id, Leaf, Str, Text, YesNo
from packetbench.generator.fakers.insurance import Question
from packetbench.generator.render.layout import PAD, Cell, Flow, Lit, Part
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR
from packetbench.generator.world import models as world
from packetbench.generator.world.models import World

State = Annotated[str | None, Leaf("enum", codes=codes.STATES)]
Construction = Annotated[str | None, Leaf("enum", codes=codes.CONSTRUCTION)]
Occupancy = Annotated[str | None, Leaf("enum", codes=codes.OCCUPANCY)]
LossLine = Annotated[str | None, Leaf("enum", codes=codes.LOSS_LINE)]
EntityType = Annotated[str | None, Leaf("enum", codes=codes.ENTITY_TYPE)]
Subject = Annotated[str | None, Leaf("enum", codes=codes.SUBJECT_OF_INSURANCE)]
Valuation = Annotated[str | None, Leaf("enum", codes=codes.VALUATION)]
CausesOfLoss = Annotated[str | None, Leaf("enum", codes=codes.CAUSES_OF_LOSS)]
InterestType = Annotated[str | None, Leaf("enum", codes=codes.INTEREST_TYPE)]
PaymentPlan = Annotated[str | None, Leaf("enum", codes=codes.PAYMENT_PLAN)]
AuditFrequency = Annotated[str | None, Leaf("enum", codes=codes.AUDIT_FREQUENCY)]
Gender = Annotated[str | None, Leaf("enum", codes=codes.GENDER)]
MaritalStatus = Annotated[str | None, Leaf("enum", codes=codes.MARITAL_STATUS)]
RoofCovering = Annotated[str | None, Leaf("enum", codes=codes.ROOF_COVERING)]
SprinklerType = Annotated[str | None, Leaf("enum", codes=codes.SPRINKLER_TYPE)]
FireAlarm = Annotated[str | None, Leaf("enum", codes=codes.FIRE_ALARM)]
BurglarAlarm = Annotated[str | None, Leaf("enum", codes=codes.BURGLAR_ALARM)]


class Address(DocModel):
    """A postal address."""

    street: Str = None
    """Street line, including any suite or unit."""
    city: Str = None
    """City."""
    state: State = None
    """Two-letter USPS state or territory code."""
    zip: Id = None
    """ZIP code."""


def address_of(source: world.Address) -> Address:
    return Address(street=source.street, city=source.city, state=source.state, zip=source.zip)


def address_parts(prefix: str) -> tuple[Part, ...]:
    """An address drawn on one line: street, city, state ZIP, each located separately."""
    return (
        f"{prefix}.street",
        Lit(", "),
        f"{prefix}.city",
        Lit(", "),
        f"{prefix}.state",
        Lit(" "),
        f"{prefix}.zip",
    )


def title_block(flow: Flow, page: int, title: str, code: str, subtitle: str = "") -> float:
    """The top band of a page: form code at left, title centred, subtitle below.

    Returns the cursor below the band.
    """
    pdf = flow.pdf
    top = pdf.height - MARGIN
    pdf.rect(page, MARGIN, top - 20, flow.cw, 20, fill=0.85)
    pdf.text(page, MARGIN + 6, top - 13.5, code, BOLD, 9)
    pdf.text(page, MARGIN + flow.cw / 2, top - 38, title, BOLD, 12, align="center")
    y = top - 44
    if subtitle:
        pdf.text(page, MARGIN + flow.cw / 2, top - 52, subtitle, REGULAR, 7, align="center")
        y = top - 56
    return y - 6


# --- the ACORD-style line sections ---------------------------------------------------------


class SectionHeader(DocModel):
    """The identification block every line section opens with (and repeats, in part, on
    each continuation page)."""

    agency_name: Str = None
    """Producing agency (broker) that submitted the section."""
    agency_customer_id: Id = None
    """The agency's own customer identifier for the applicant."""
    carrier_name: Str = None
    """Insurance company the section is submitted to."""
    naic_code: Id = None
    """NAIC company code of the carrier."""
    policy_number: Id = None
    """Policy or quote number of this line of business."""
    effective_date: Date = None
    """Proposed policy effective date."""
    expiration_date: Date = None
    """Proposed policy expiration date."""
    named_insured: Str = None
    """First named insured."""


def section_header(world: World, policy_number: str) -> SectionHeader:
    return SectionHeader(
        agency_name=world.producer.agency_name,
        agency_customer_id=world.producer.customer_id,
        carrier_name=world.carrier.name,
        naic_code=world.carrier.naic,
        policy_number=policy_number,
        effective_date=world.policy.effective_date,
        expiration_date=world.policy.expiration_date,
        named_insured=world.insured.name,
    )


class QuestionAnswer(DocModel):
    """The answer to one underwriting question."""

    answer: YesNo = None
    """The applicant's answer, written Y or N."""
    explanation: Text = None
    """Explanation given with a Yes answer; empty when the answer is No."""


def answers_of(answers: Sequence[world.Answer]) -> dict[str, QuestionAnswer]:
    """Field name -> answer, for a model with one QuestionAnswer field per question id."""
    return {
        a.question: QuestionAnswer(
            answer="Yes" if a.answer else "No", explanation=a.explanation if a.answer else None
        )
        for a in answers
    }


class Signature(DocModel):
    """The signature block (signatures themselves are handwritten)."""

    signer_name: Str = None
    """Printed name of the person signing for the applicant."""
    signer_title: Str = None
    """Title of the person signing for the applicant."""
    signature_date: Date = None
    """Date the applicant signed."""
    producer_name: Str = None
    """Name of the producer signing the section."""


def signature_of(world: World) -> Signature:
    signer = world.principals[0]
    return Signature(
        signer_name=signer.name,
        signer_title=signer.title,
        signature_date=world.policy.completion_date,
        producer_name=world.producer.contact_name,
    )


def yes_no(flag: bool) -> str:
    return "Yes" if flag else "No"


def section_title(flow: Flow, page: int, code: str, title: str, subtitle: str) -> None:
    """Title band of a line section; the full header block on page 1, a short one after."""
    h = "header"
    if page == 0:
        flow.y = title_block(flow, page, title, code, subtitle)
        flow.boxes(
            [
                Cell("Agency", f"{h}.agency_name", 3),
                Cell("Agency customer ID", f"{h}.agency_customer_id", 1.1),
                Cell("Carrier", f"{h}.carrier_name", 3),
                Cell("NAIC code", f"{h}.naic_code", 0.9),
            ]
        )
        flow.boxes(
            [
                Cell("Named insured", f"{h}.named_insured", 4),
                Cell("Policy number", f"{h}.policy_number", 1.5),
                Cell("Effective date", f"{h}.effective_date", 1.1),
                Cell("Expiration date", f"{h}.expiration_date", 1.1),
            ]
        )
    else:
        flow.y = title_block(flow, page, f"{title} (CONTINUED)", code)
        flow.boxes(
            [
                Cell("Named insured", f"{h}.named_insured", 4),
                Cell("Policy number", f"{h}.policy_number", 1.5),
                Cell("Effective date", f"{h}.effective_date", 1.1),
            ],
            height=19,
        )
    flow.gap(6)


def question_rows(flow: Flow, prefix: str, questions: Sequence[Question]) -> None:
    """A Y/N question table: question, answer, explanation of a Yes."""
    pdf = flow.pdf
    flow.need(24)
    q_width = flow.cw * 0.52  # the column split of Flow.questions
    baseline = flow.y - 7
    pdf.text(flow.page, MARGIN + PAD, baseline, "QUESTION", BOLD, 5.5)
    pdf.text(flow.page, MARGIN + q_width + 11, baseline, "Y/N", BOLD, 5.5, align="center")
    pdf.text(
        flow.page, MARGIN + q_width + 22 + PAD, baseline, "EXPLANATION OF ANY YES ANSWER", BOLD, 5.5
    )
    flow.gap(10)
    pdf.line(flow.page, MARGIN, flow.y + 1, MARGIN + flow.cw, flow.y + 1, 0.4)
    flow.questions(
        [(q.text, f"{prefix}.{q.id}.answer", f"{prefix}.{q.id}.explanation") for q in questions]
    )
    flow.gap(6)


def signature_rows(flow: Flow, notice: str) -> None:
    flow.band("Signatures", keep_with=70)
    flow.note(notice, size=6.8)
    flow.boxes(
        [
            Cell("Applicant's signature", None, 2.2),
            Cell("Printed name", "signature.signer_name", 2),
            Cell("Title", "signature.signer_title", 1.4),
            Cell("Date", "signature.signature_date", 1),
        ],
        height=26,
    )
    flow.boxes(
        [
            Cell("Producer's signature", None, 2.2),
            Cell("Producer name", "signature.producer_name", 2),
            Cell("Date", "signature.signature_date", 1),
        ],
        height=26,
    )


NOTICE = (
    "The applicant states that the information in this section is true and complete to the "
    "best of its knowledge and forms part of the application it is attached to. Signing does "
    "not bind coverage."
)
