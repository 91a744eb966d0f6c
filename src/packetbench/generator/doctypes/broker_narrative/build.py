"""Project the world onto the broker's cover letter."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from packetbench.core import codes
from packetbench.generator.doctypes.broker_narrative.model import (
    Account,
    Attachment,
    BrokerNarrative,
    Highlight,
    Letter,
    LossSummary,
    Program,
    RequestedLine,
)
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.world.models import World


def whole_years(start: str, on: str) -> int:
    """Completed years from `start` to `on` (ISO dates)."""
    first, last = dt.date.fromisoformat(start), dt.date.fromisoformat(on)
    return last.year - first.year - ((last.month, last.day) < (first.month, first.day))


def requested(world: World, line_id: str) -> tuple[float, float | None]:
    """(limit, deductible) the broker asks for on one line: the terms of the application."""
    if line_id == "property":
        buildings = world.buildings()
        return (sum(round(b.tiv * 100) for b in buildings) / 100, buildings[0].deductible)
    if line_id == "gl" and world.general_liability is not None:
        return world.general_liability.each_occurrence, world.general_liability.deductible
    if line_id == "auto" and world.business_auto is not None:
        return world.business_auto.combined_single_limit, None
    if line_id == "wc" and world.workers_comp is not None:
        return world.workers_comp.each_accident, None
    if line_id == "umbrella" and world.umbrella is not None:
        return world.umbrella.each_occurrence, world.umbrella.retention
    if line_id == "cargo" and world.cargo is not None:
        return world.cargo.limit_per_occurrence, world.cargo.deductible
    raise KeyError(line_id)


def _lines(world: World) -> list[RequestedLine]:
    parts = {p.line: p for p in (world.expiring.parts if world.expiring else ())}
    out = []
    for line in world.policy.lines:
        limit, deductible = requested(world, line.line_id)
        part = parts.get(line.line)
        out.append(
            RequestedLine(
                line=line.line,
                requested_limit=limit,
                deductible=deductible,
                expiring_carrier=world.expiring.carrier if part and world.expiring else None,
                expiring_policy_number=part.policy_number if part else None,
                expiring_premium=part.premium if part else None,
            )
        )
    return out


def _losses(world: World) -> LossSummary:
    history = world.loss_history
    claims = [c for term in history.terms for c in term.claims]
    largest = max(claims, key=lambda c: c.incurred, default=None)
    return LossSummary(
        years=len({t.effective_date for t in history.terms}),
        valuation_date=history.valuation_date,
        claim_count=len(claims),
        open_claim_count=sum(1 for c in claims if c.status in codes.OPEN_CLAIM_STATUSES),
        incurred=sum(round(c.incurred * 100) for c in claims) / 100,
        largest_loss=largest.incurred if largest else None,
        largest_loss_date=largest.loss_date if largest else None,
        largest_loss_description=largest.description if largest else None,
    )


def attachments(world: World, documents: list[str], own: str) -> list[Attachment]:
    """The titles of the packet's other document types, in packet order, each once."""
    from packetbench.generator.doctypes.base import variants

    titles: list[str] = []
    for doc_id in documents:
        doc_type, _ = variants()[doc_id]
        if doc_type.name != own and doc_type.title not in titles:
            titles.append(doc_type.title)
    return [Attachment(title=title) for title in titles]


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> BrokerNarrative:
    narrative, insured, producer = world.narrative, world.insured, world.producer
    expiring = world.expiring
    auto = world.carries("auto")
    return BrokerNarrative(
        letter=Letter(
            letter_date=narrative.letter_date,
            agency_name=producer.agency_name,
            agency_address=address_of(producer.address),
            phone=producer.phone,
            producer_name=producer.contact_name,
            email=producer.email,
            underwriter_name=world.carrier.underwriter,
            carrier_name=world.carrier.name,
            underwriter_office=world.carrier.underwriter_office,
            submission_type=narrative.submission_type,
        ),
        account=Account(
            named_insured=insured.name,
            dba=insured.dba,
            entity_type=insured.entity_type,
            city=insured.mailing_address.city,
            state=insured.mailing_address.state,
            industry=insured.industry,
            sic_code=insured.sic,
            naics_code=insured.naics,
            years_in_business=whole_years(insured.business_start_date, narrative.letter_date),
            annual_revenue=insured.annual_revenue,
            full_time_employees=insured.full_time_employees,
            location_count=len(world.locations),
            schedule_tiv=requested(world, "property")[0] if world.carries("property") else None,
            vehicle_count=len(world.vehicles) if auto else None,
            driver_count=len(world.drivers) if auto else None,
            operations=insured.operations_description,
        ),
        program=Program(
            effective_date=world.policy.effective_date,
            expiration_date=world.policy.expiration_date,
            quote_needed_by=narrative.quote_needed_by,
            target_premium=narrative.target_premium,
            expiring_premium=(
                sum(round(p.premium * 100) for p in expiring.parts) / 100 if expiring else None
            ),
            marketing_reason=narrative.marketing_reason,
            lines=_lines(world),
        ),
        losses=_losses(world),
        highlights=[Highlight(text=text) for text in narrative.highlights],
        attachments=attachments(world, knobs["documents"], "broker_narrative"),
    )
