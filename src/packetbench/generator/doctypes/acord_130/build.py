"""Project the world's workers compensation terms onto the WC application."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from packetbench.generator.doctypes.acord_130.model import (
    Applicant,
    EmployersLiability,
    ExcludedState,
    GeneralInformation,
    Individual,
    PremiumSummary,
    PriorPolicy,
    RatingRow,
    StatePremium,
    Status,
    WcLocation,
    WorkersCompApplication,
)
from packetbench.generator.doctypes.common import (
    address_of,
    answers_of,
    section_header,
    signature_of,
    yes_no,
)
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import World


def applicant(world: World) -> Applicant:
    i = world.insured
    wc = world.workers_comp
    assert wc is not None
    return Applicant(
        name=i.name,
        mailing_address=address_of(i.mailing_address),
        fein=i.fein,
        sic=i.sic,
        naics=i.naics,
        business_start_date=i.business_start_date,
        entity_type=i.entity_type,
        risk_id=wc.risk_id,
    )


def prior_coverage(world: World) -> list[PriorPolicy]:
    terms = sorted(
        (t for t in world.loss_history.terms if t.line == "Workers Compensation"),
        key=lambda t: t.effective_date,
        reverse=True,
    )
    return [
        PriorPolicy(
            year=dt.date.fromisoformat(t.effective_date).year,
            carrier=t.carrier,
            policy_number=t.policy_number,
            premium=t.premium,
            claim_count=len(t.claims),
            amount_paid=dollars(sum(round(c.paid * 100) for c in t.claims)),
            amount_reserved=dollars(sum(round(c.reserve * 100) for c in t.claims)),
        )
        for t in terms
    ]


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> WorkersCompApplication:
    wc = world.workers_comp
    assert wc is not None, "the WC application needs a WC line"
    covered_states = {s.state for s in wc.states}
    policy = world.policy
    return WorkersCompApplication(
        header=section_header(world, world.policy_line("wc").policy_number),
        applicant=applicant(world),
        status=Status(
            voluntary=yes_no(wc.market == "Voluntary"),
            assigned_risk=yes_no(wc.market == "Assigned Risk"),
            direct_bill=yes_no(policy.billing_method == "Direct Bill"),
            agency_bill=yes_no(policy.billing_method == "Agency Bill"),
            payment_plan=policy.payment_plan,
            audit_frequency=policy.audit_frequency,
        ),
        locations=[
            WcLocation(
                location_number=loc.number,
                address=address_of(loc.address),
                county=loc.address.county,
            )
            for loc in world.locations
            if loc.address.state in covered_states
        ],
        employers_liability=EmployersLiability(
            each_accident=wc.each_accident,
            disease_policy_limit=wc.disease_policy_limit,
            disease_each_employee=wc.disease_each_employee,
            experience_mod=wc.experience_mod,
            mod_effective_date=wc.mod_effective_date,
        ),
        excluded_states=[ExcludedState(state=s) for s in wc.excluded_states],
        individuals=[
            Individual(
                name=p.name,
                title=p.title,
                birth_date=p.birth_date,
                ownership_percent=p.ownership_percent,
                duties=p.duties,
                inclusion="Included" if p.wc_included else "Excluded",
                state=wc.officer_state,
                class_code=wc.officer_class,
                remuneration=p.remuneration,
            )
            for p in world.principals
        ],
        rating=[
            RatingRow(
                state=c.state,
                class_code=c.class_code,
                description=c.description,
                full_time_employees=c.full_time_employees,
                part_time_employees=c.part_time_employees,
                payroll=c.payroll,
                rate=c.rate,
                manual_premium=c.manual_premium,
            )
            for c in wc.classes
        ],
        state_premiums=[
            StatePremium(
                state=s.state,
                manual_premium=s.manual_premium,
                experience_mod=wc.experience_mod,
                modified_premium=s.modified_premium,
                discount_percent=s.discount_percent,
                premium_discount=s.premium_discount,
                expense_constant=s.expense_constant,
                terrorism_rate=s.terrorism_rate,
                terrorism_premium=s.terrorism_premium,
                estimated_premium=s.estimated_premium,
            )
            for s in wc.states
        ],
        premium=PremiumSummary(
            estimated_annual_premium=wc.premium,
            minimum_premium=wc.minimum_premium,
            deposit_premium=wc.deposit_premium,
        ),
        prior_coverage=prior_coverage(world),
        operations_description=world.insured.operations_description,
        general_information=GeneralInformation(**answers_of(wc.answers)),
        signature=signature_of(world),
    )
