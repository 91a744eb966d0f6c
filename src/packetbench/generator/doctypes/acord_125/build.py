"""Project the world onto an ACORD-style 125 application."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from packetbench.core import codes
from packetbench.generator.doctypes.acord_125.model import (
    LOSS_LOOKBACK_YEARS,
    LOSS_ROWS,
    PREMISES_ROWS,
    PRIOR_YEARS,
    Agency,
    Answer,
    Applicant,
    Attachments,
    Carrier,
    CommercialApplication,
    Contact,
    GeneralInformation,
    LegalEntity,
    LineOfBusiness,
    LinesOfBusiness,
    Loss,
    LossHistory,
    NatureOfBusiness,
    PolicyInfo,
    Premises,
    PriorTerm,
    PriorYear,
    Signature,
    TransactionStatus,
    code_field,
)
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.world.draw import add_years, dollars
from packetbench.generator.world.models import World
from packetbench.generator.world.premises import Location

# Lines shown in the prior-carrier grid, in form order.
PRIOR_LINES = ("Commercial Property", "General Liability", "Commercial Auto")

# Attachment box -> doc_id prefix of the packet documents that tick it.
ATTACHMENT_PREFIXES = {
    "statement_of_values": "sov_",
    "loss_runs": "loss_run_",
    "driver_schedule": "driver_schedule_",
    "financial_statements": "financial_statement_",
}


def yes_no(flag: bool) -> str:
    return "Yes" if flag else "No"


def ticks(code_list: codes.CodeList, chosen: str) -> dict[str, str]:
    """One Yes/No per code value, keyed by its field name; only `chosen` is ticked."""
    if chosen not in code_list.values:
        raise ValueError(f"{chosen!r} is not in code list {code_list.name}")
    return {code_field(value): yes_no(value == chosen) for value in code_list.values}


def _agency(world: World) -> Agency:
    p = world.producer
    return Agency(
        name=p.agency_name,
        address=address_of(p.address),
        contact_name=p.contact_name,
        phone=p.phone,
        fax=p.fax,
        email=p.email,
        agency_code=p.agency_code,
        customer_id=p.customer_id,
    )


def _lines(world: World) -> LinesOfBusiness:
    premiums = {line.line: line.premium for line in world.policy.lines}
    return LinesOfBusiness(
        **{
            code_field(line): LineOfBusiness(
                selected=yes_no(line in premiums), premium=premiums.get(line)
            )
            for line in codes.LOSS_LINE.values
        }
    )


def _policy(world: World) -> PolicyInfo:
    p = world.policy
    return PolicyInfo(
        effective_date=p.effective_date,
        expiration_date=p.expiration_date,
        direct_bill=yes_no(p.billing_method == "Direct Bill"),
        agency_bill=yes_no(p.billing_method == "Agency Bill"),
        payment_plan=p.payment_plan,
        audit_frequency=p.audit_frequency,
        deposit=p.deposit,
        minimum_premium=p.minimum_premium,
        estimated_premium=p.total_premium,
    )


def _applicant(world: World) -> Applicant:
    i = world.insured
    return Applicant(
        name=i.name,
        dba=i.dba,
        mailing_address=address_of(i.mailing_address),
        phone=i.phone,
        website=i.website,
        fein=i.fein,
        sic=i.sic,
        naics=i.naics,
        gl_code=i.gl_code,
        business_start_date=i.business_start_date,
        legal_entity=LegalEntity(**ticks(codes.ENTITY_TYPE, i.entity_type)),
    )


def _premises(location: Location) -> Premises:
    first = location.buildings[0]
    return Premises(
        location_number=location.number,
        building_number=first.building_number,
        address=address_of(location.address),
        owner=yes_no(first.interest == "Owner"),
        tenant=yes_no(first.interest == "Tenant"),
        full_time_employees=location.full_time_employees,
        part_time_employees=location.part_time_employees,
        annual_revenue=location.annual_revenue,
        occupied_area=sum(b.square_feet for b in location.buildings),
        operations=location.operations,
    )


def _general_information(world: World) -> GeneralInformation:
    answers = {
        a.question: Answer(answer=yes_no(a.answer), explanation=a.explanation if a.answer else None)
        for a in world.underwriting
    }
    return GeneralInformation(**answers)


def _prior_carriers(world: World) -> list[PriorYear]:
    terms = world.loss_history.terms
    starts = sorted({t.effective_date for t in terms}, reverse=True)[:PRIOR_YEARS]
    years = []
    for start in starts:
        by_line = {t.line: t for t in terms if t.effective_date == start}
        entries = {
            code_field(line): PriorTerm(
                carrier=term.carrier,
                policy_number=term.policy_number,
                premium=term.premium,
                effective_date=term.effective_date,
                expiration_date=term.expiration_date,
            )
            if (term := by_line.get(line))
            else PriorTerm()
            for line in PRIOR_LINES
        }
        years.append(PriorYear(year=dt.date.fromisoformat(start).year, **entries))
    return years


def _loss_history(world: World) -> LossHistory:
    since = add_years(dt.date.fromisoformat(world.policy.completion_date), -LOSS_LOOKBACK_YEARS)
    claims = [
        (term.line, claim)
        for term in world.loss_history.terms
        for claim in term.claims
        if dt.date.fromisoformat(claim.loss_date) >= since
    ]
    largest = sorted(claims, key=lambda lc: (-lc[1].incurred, lc[1].claim_number))[:LOSS_ROWS]
    largest.sort(key=lambda lc: (lc[1].loss_date, lc[1].claim_number), reverse=True)
    losses = [
        Loss(
            loss_date=c.loss_date,
            line=line,
            description=c.description,
            paid=c.paid,
            reserved=c.reserve,
            open=yes_no(c.status in codes.OPEN_CLAIM_STATUSES),
        )
        for line, c in largest
    ]
    # Summed in cents so the total is exact at cent precision.
    total = sum(
        round(loss.paid * 100) + round(loss.reserved * 100)
        for loss in losses
        if loss.paid is not None and loss.reserved is not None
    )
    return LossHistory(
        no_prior_losses=yes_no(not claims),
        losses=losses,
        total_incurred=dollars(total) if losses else None,
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> CommercialApplication:
    documents = list(knobs["documents"])
    producer = world.producer
    return CommercialApplication(
        agency=_agency(world),
        carrier=Carrier(
            name=world.carrier.name,
            naic_code=world.carrier.naic,
            underwriter=world.carrier.underwriter,
            underwriter_office=world.carrier.underwriter_office,
            policy_number=world.policy.number,
            completion_date=world.policy.completion_date,
        ),
        transaction_status=TransactionStatus(
            **ticks(codes.TRANSACTION_STATUS, world.policy.status)
        ),
        lines_of_business=_lines(world),
        attachments=Attachments(
            **{
                box: yes_no(any(doc.startswith(prefix) for doc in documents))
                for box, prefix in ATTACHMENT_PREFIXES.items()
            }
        ),
        policy=_policy(world),
        applicant=_applicant(world),
        contacts=[
            Contact(role=c.role, name=c.name, phone=c.phone, email=c.email)
            for c in world.insured.contacts
        ],
        premises=[_premises(loc) for loc in world.locations[:PREMISES_ROWS]],
        premises_count=len(world.locations),
        nature_of_business=NatureOfBusiness(
            **ticks(codes.NATURE_OF_BUSINESS, world.insured.nature_of_business),
            operations_description=world.insured.operations_description,
        ),
        general_information=_general_information(world),
        prior_carriers=_prior_carriers(world),
        loss_history=_loss_history(world),
        signature=Signature(
            applicant_signer=rng.choice(world.insured.contacts).name,
            producer_name=producer.contact_name,
            producer_license_number=producer.license_number,
            producer_npn=producer.npn,
            signature_date=world.policy.completion_date,
        ),
    )
