"""Project the world onto the liability certificate of its first non-lender holder.

Every limit is the policy's own; a line the holder's certificate does not evidence leaves its
block empty.
"""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes._issue import certificate_number, issue_date, policy_row
from packetbench.generator.doctypes._parties import holder_of, insured_of, insurers_of, producer_of
from packetbench.generator.doctypes._recipients import liability_holder
from packetbench.generator.doctypes.acord_25.model import (
    Automobile,
    GeneralLiability,
    LiabilityCertificate,
    OtherCoverage,
    Umbrella,
    WorkersComp,
)
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import World
from packetbench.generator.world.parties import CertificateHolder

# What the property row's limit is: the sum of every building's insured values.
PROPERTY_LIMIT = "Total insured value, all scheduled premises"


def yn(flag: bool) -> str:
    return "Yes" if flag else "No"


def _general_liability(world: World, holder: CertificateHolder) -> GeneralLiability:
    gl = world.general_liability
    if gl is None or "gl" not in holder.lines:
        return GeneralLiability()
    return GeneralLiability(
        policy=policy_row(world, "gl"),
        additional_insured=yn(holder.additional_insured),
        subrogation_waived=yn(holder.waiver_of_subrogation),
        occurrence=yn(gl.trigger == "Occurrence"),
        claims_made=yn(gl.trigger == "Claims-Made"),
        aggregate_per_policy=yn(gl.aggregate_applies == "Policy"),
        aggregate_per_project=yn(gl.aggregate_applies == "Project"),
        aggregate_per_location=yn(gl.aggregate_applies == "Location"),
        each_occurrence=gl.each_occurrence,
        damage_to_rented_premises=gl.damage_to_premises,
        medical_expense=gl.medical_expense,
        personal_advertising_injury=gl.personal_advertising,
        general_aggregate=gl.general_aggregate,
        products_completed_aggregate=gl.products_aggregate,
    )


def _automobile(world: World, holder: CertificateHolder) -> Automobile:
    auto = world.business_auto
    if auto is None or "auto" not in holder.lines:
        return Automobile()
    liability = next(s.symbols for s in auto.symbols if s.coverage == "liability")
    # The holder's additional-insured status and waiver are general liability endorsements;
    # the auto policy carries neither for it.
    return Automobile(
        policy=policy_row(world, "auto"),
        additional_insured="No",
        subrogation_waived="No",
        any_auto=yn("1" in liability),
        owned_autos_only=yn("2" in liability),
        hired_autos_only=yn("8" in liability),
        non_owned_autos_only=yn("9" in liability),
        combined_single_limit=auto.combined_single_limit,
    )


def _umbrella(world: World, holder: CertificateHolder) -> Umbrella:
    umbrella = world.umbrella
    if umbrella is None or "umbrella" not in holder.lines:
        return Umbrella()
    return Umbrella(
        policy=policy_row(world, "umbrella"),
        additional_insured="No",
        subrogation_waived="No",
        umbrella=yn(umbrella.form == "Umbrella"),
        excess=yn(umbrella.form == "Excess"),
        occurrence=yn(umbrella.trigger == "Occurrence"),
        claims_made=yn(umbrella.trigger == "Claims-Made"),
        retention=umbrella.retention,
        each_occurrence=umbrella.each_occurrence,
        aggregate=umbrella.aggregate,
    )


def _workers_comp(world: World, holder: CertificateHolder) -> WorkersComp:
    wc = world.workers_comp
    if wc is None or "wc" not in holder.lines:
        return WorkersComp()
    return WorkersComp(
        policy=policy_row(world, "wc"),
        subrogation_waived=yn(holder.waiver_of_subrogation),
        proprietor_excluded=yn(any(not p.wc_included for p in world.principals)),
        statutory="Yes",
        each_accident=wc.each_accident,
        disease_each_employee=wc.disease_each_employee,
        disease_policy_limit=wc.disease_policy_limit,
    )


def _other(world: World, holder: CertificateHolder) -> list[OtherCoverage]:
    if "property" not in holder.lines or not world.carries("property"):
        return []
    tiv = sum(round(b.tiv * 100) for b in world.buildings())
    return [
        OtherCoverage(
            line="Commercial Property",
            policy=policy_row(world, "property"),
            limit_description=PROPERTY_LIMIT,
            limit=dollars(tiv),
        )
    ]


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> LiabilityCertificate:
    holder = liability_holder(world)
    if holder is None:
        raise ValueError("the world has no certificate holder for a liability certificate")
    return LiabilityCertificate(
        certificate_date=issue_date(world),
        certificate_number=certificate_number(rng, world),
        producer=producer_of(world),
        insured=insured_of(world),
        insurers=insurers_of(world),
        general_liability=_general_liability(world, holder),
        automobile=_automobile(world, holder),
        umbrella=_umbrella(world, holder),
        workers_comp=_workers_comp(world, holder),
        other=_other(world, holder),
        description_of_operations=holder.description,
        holder=holder_of(holder),
        authorized_representative=world.producer.contact_name,
    )
