"""Project the world's umbrella and its underlying policies onto the umbrella section."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.acord_131.model import (
    LOCATION_ROWS,
    Fleet,
    GeneralInformation,
    UmbrellaLocation,
    UmbrellaSection,
    UmbrellaTerms,
    UnderlyingAuto,
    UnderlyingEl,
    UnderlyingGl,
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


def _policy(world: World, line: str) -> dict[str, Any]:
    """The identification of an underlying policy: the same carrier and term as the program."""
    return {
        "carrier": world.carrier.name,
        "policy_number": world.policy_line(line).policy_number,
        "effective_date": world.policy.effective_date,
        "expiration_date": world.policy.expiration_date,
        "premium": world.policy_line(line).premium,
    }


def fleet(world: World) -> Fleet:
    sizes = [u.size_class for u in world.business_auto.units] if world.business_auto else []
    return Fleet(
        light_trucks=sizes.count("Light Truck"),
        medium_trucks=sizes.count("Medium Truck"),
        heavy_trucks=sizes.count("Heavy Truck"),
        extra_heavy_trucks=sizes.count("Extra-Heavy Truck"),
        truck_tractors=sum(1 for s in sizes if s.endswith("Truck-Tractor")),
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> UmbrellaSection:
    umbrella, gl = world.umbrella, world.general_liability
    assert umbrella is not None and gl is not None, "the umbrella section needs an umbrella"
    auto, wc = world.business_auto, world.workers_comp
    locations = []
    for location in world.locations[:LOCATION_ROWS]:
        rows = [p for p in world.payroll if p.location_number == location.number]
        locations.append(
            UmbrellaLocation(
                location_number=location.number,
                address=address_of(location.address),
                employees=location.full_time_employees + location.part_time_employees,
                annual_payroll=dollars(sum(round(p.payroll * 100) for p in rows)),
                annual_revenue=location.annual_revenue,
            )
        )
    return UmbrellaSection(
        header=section_header(world, world.policy_line("umbrella").policy_number),
        terms=UmbrellaTerms(
            umbrella=yes_no(umbrella.form == "Umbrella"),
            excess=yes_no(umbrella.form == "Excess"),
            occurrence=yes_no(umbrella.trigger == "Occurrence"),
            claims_made=yes_no(umbrella.trigger == "Claims-Made"),
            each_occurrence=umbrella.each_occurrence,
            aggregate=umbrella.aggregate,
            retention=umbrella.retention,
            first_dollar_defense=yes_no(umbrella.first_dollar_defense),
            premium=umbrella.premium,
        ),
        underlying_gl=UnderlyingGl(
            **_policy(world, "gl"),
            each_occurrence=gl.each_occurrence,
            general_aggregate=gl.general_aggregate,
            products_aggregate=gl.products_aggregate,
            personal_advertising=gl.personal_advertising,
        ),
        underlying_auto=UnderlyingAuto(
            **_policy(world, "auto"), combined_single_limit=auto.combined_single_limit
        )
        if auto is not None and "auto" in umbrella.underlying
        else UnderlyingAuto(),
        underlying_el=UnderlyingEl(
            **_policy(world, "wc"),
            each_accident=wc.each_accident,
            disease_policy_limit=wc.disease_policy_limit,
            disease_each_employee=wc.disease_each_employee,
        )
        if wc is not None and "wc" in umbrella.underlying
        else UnderlyingEl(),
        location_count=len(world.locations),
        locations=locations,
        fleet=fleet(world),
        general_information=GeneralInformation(**answers_of(umbrella.answers)),
        signature=signature_of(world),
    )
