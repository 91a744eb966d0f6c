"""Project the world's assigned-risk facts onto the plan section."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.acord_133.model import (
    AssignedRiskSection,
    CoveredState,
    Declination,
    PayrollRecords,
    PlanQuestions,
)
from packetbench.generator.doctypes.common import (
    address_of,
    answers_of,
    section_header,
    signature_of,
)
from packetbench.generator.world.models import World


def is_assigned_risk(world: World) -> bool:
    return world.workers_comp is not None and world.workers_comp.market == "Assigned Risk"


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> AssignedRiskSection:
    wc = world.workers_comp
    assert wc is not None and is_assigned_risk(world), "the plan section needs assigned risk"
    keeper = next((c for c in world.insured.contacts if c.role == "Accounting"), None)
    return AssignedRiskSection(
        header=section_header(world, world.policy_line("wc").policy_number),
        applicant_name=world.insured.name,
        fein=world.insured.fein,
        risk_id=wc.risk_id,
        payroll_records=PayrollRecords(
            contact_name=keeper.name if keeper else world.principals[0].name,
            phone=keeper.phone if keeper else world.insured.phone,
            address=address_of(world.insured.mailing_address),
        ),
        highest_payroll_state=wc.states[0].state,
        states=[CoveredState(state=s.state) for s in wc.states],
        declinations=[
            Declination(insurer=d.carrier, declined_date=d.date, reason=d.reason)
            for d in wc.declinations
        ],
        plan_questions=PlanQuestions(**answers_of(wc.plan_answers)),
        estimated_annual_premium=wc.premium,
        deposit_premium=wc.deposit_premium,
        signature=signature_of(world),
    )
