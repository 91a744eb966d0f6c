"""Project the world's binder onto the form: the lines it binds at their premiums and limits,
the expiring policies they replace, the forms, and the first additional interests."""

from __future__ import annotations

import random
from typing import Any

from packetbench.core import codes
from packetbench.generator.doctypes._parties import company_of, insured_of, producer_of, yes_no
from packetbench.generator.doctypes.acord_35.build import EFFECTIVE_TIME
from packetbench.generator.doctypes.acord_75.model import (
    INTEREST_ROWS,
    AutoTerms,
    Binder,
    BoundLine,
    CargoTerms,
    ExpiringPolicy,
    Form,
    Interest,
    LiabilityTerms,
    PropertyTerms,
    UmbrellaTerms,
    WorkersCompTerms,
)
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import World


def _property(world: World) -> PropertyTerms:
    buildings = world.buildings()

    def summed(values: list[float]) -> float:
        return dollars(sum(round(v * 100) for v in values))

    return PropertyTerms(
        premises_count=len(buildings),
        building_limit=summed([b.building_value for b in buildings]),
        personal_property_limit=summed([b.contents_value for b in buildings]),
        business_income_limit=summed([b.business_income_value for b in buildings]),
    )


def _liability(world: World) -> LiabilityTerms:
    gl = world.general_liability
    if gl is None:
        return LiabilityTerms()
    return LiabilityTerms(
        trigger=gl.trigger,
        retroactive_date=gl.retroactive_date,
        each_occurrence=gl.each_occurrence,
        general_aggregate=gl.general_aggregate,
        products_aggregate=gl.products_aggregate,
        personal_advertising=gl.personal_advertising,
        damage_to_premises=gl.damage_to_premises,
        medical_expense=gl.medical_expense,
        deductible=gl.deductible,
    )


def _auto(world: World) -> AutoTerms:
    auto = world.business_auto
    if auto is None:
        return AutoTerms()
    return AutoTerms(
        combined_single_limit=auto.combined_single_limit,
        medical_payments_limit=auto.medical_payments_limit,
        vehicle_count=len(auto.units),
        hired_autos=yes_no(auto.hired_liability),
        non_owned_autos=yes_no(auto.non_owned_liability),
    )


def _workers_comp(world: World) -> WorkersCompTerms:
    wc = world.workers_comp
    if wc is None:
        return WorkersCompTerms()
    return WorkersCompTerms(
        each_accident=wc.each_accident,
        disease_each_employee=wc.disease_each_employee,
        disease_policy_limit=wc.disease_policy_limit,
        experience_mod=wc.experience_mod,
    )


def _umbrella(world: World) -> UmbrellaTerms:
    umbrella = world.umbrella
    if umbrella is None:
        return UmbrellaTerms()
    return UmbrellaTerms(
        form=umbrella.form,
        each_occurrence=umbrella.each_occurrence,
        aggregate=umbrella.aggregate,
        retention=umbrella.retention,
    )


def _cargo(world: World) -> CargoTerms:
    cargo = world.cargo
    if cargo is None:
        return CargoTerms()
    return CargoTerms(
        limit_per_vehicle=cargo.limit_per_vehicle,
        limit_per_occurrence=cargo.limit_per_occurrence,
        deductible=cargo.deductible,
    )


def _expiring(world: World) -> list[ExpiringPolicy]:
    """The latest loss-history term of each bound line (the umbrella has none)."""
    latest = max(t.expiration_date for t in world.loss_history.terms)
    terms = {t.line: t for t in world.loss_history.terms if t.expiration_date == latest}
    return [
        ExpiringPolicy(
            line=line.line,
            carrier=terms[line.line].carrier,
            policy_number=terms[line.line].policy_number,
            expiration_date=terms[line.line].expiration_date,
        )
        for line in world.policy.lines
        if line.line in terms
    ]


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> Binder:
    binder = world.binder
    if binder is None:
        raise ValueError("the world has no binder")
    bound = [line for line in world.policy.lines if line.line_id in binder.lines]
    return Binder(
        binder_number=binder.number,
        issued_date=binder.issued_date,
        effective_date=binder.effective_date,
        effective_time=EFFECTIVE_TIME,
        expiration_date=binder.expiration_date,
        policy_expiration_date=world.policy.expiration_date,
        producer=producer_of(world),
        company=company_of(world),
        insured=insured_of(world),
        description_of_operations=world.insured.operations_description,
        lines=[
            BoundLine(line=line.line, policy_number=line.policy_number, premium=line.premium)
            for line in bound
        ],
        estimated_premium=dollars(sum(round(line.premium * 100) for line in bound)),
        property=_property(world) if "property" in binder.lines else PropertyTerms(),
        general_liability=_liability(world),
        automobile=_auto(world),
        workers_comp=_workers_comp(world),
        umbrella=_umbrella(world),
        cargo=_cargo(world),
        expiring=_expiring(world),
        forms=[
            Form(
                line=codes.LINE_IDS[e.line],
                form_number=e.form_number,
                edition=e.edition or None,
                title=e.title,
            )
            for e in world.endorsements
        ],
        interest_count=len(world.interests),
        interests=[
            Interest(
                item_number=number,
                interest_type=i.interest_type,
                name=i.name,
                loan_number=i.loan_number,
                line=codes.LINE_IDS[i.line],
            )
            for number, i in enumerate(world.interests[:INTEREST_ROWS], start=1)
        ],
        authorized_representative=world.producer.contact_name,
    )
