"""Project the world's business auto terms onto the coverages section."""

from __future__ import annotations

import random
from typing import Any

from packetbench.core import codes
from packetbench.generator.doctypes.acord_137.model import (
    AutoCoveragesSection,
    HiredNonOwned,
    Limits,
    PhysicalDamage,
    Premiums,
    StateCoverage,
    SymbolBoxes,
    Symbols,
)
from packetbench.generator.doctypes.common import section_header, signature_of, yes_no
from packetbench.generator.world.draw import dollars
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> AutoCoveragesSection:
    auto = world.business_auto
    assert auto is not None, "the auto coverages section needs an auto line"
    symbols = Symbols(
        **{
            entry.coverage: SymbolBoxes(
                **{f"symbol_{s}": yes_no(s in entry.symbols) for s in codes.AUTO_SYMBOL.values}
            )
            for entry in auto.symbols
        }
    )
    covered = [u for u in auto.units if u.comprehensive_deductible is not None]
    vehicles = sum(round(u.premium * 100) for u in auto.units)
    return AutoCoveragesSection(
        header=section_header(world, world.policy_line("auto").policy_number),
        symbols=symbols,
        limits=Limits(
            combined_single_limit=auto.combined_single_limit,
            medical_payments=auto.medical_payments_limit,
            towing=auto.towing_limit,
        ),
        hired_non_owned=HiredNonOwned(
            hired_liability=yes_no(auto.hired_liability),
            cost_of_hire=auto.hired_cost if auto.hired_liability else None,
            non_owned_liability=yes_no(auto.non_owned_liability),
            non_owned_employees=auto.non_owned_employees if auto.non_owned_liability else None,
        ),
        physical_damage=PhysicalDamage(
            comprehensive_deductible=covered[0].comprehensive_deductible if covered else None,
            collision_deductible=covered[0].collision_deductible if covered else None,
        ),
        states=[
            StateCoverage(
                state=s.state,
                vehicle_count=s.vehicle_count,
                uninsured_motorists_limit=s.uninsured_motorists_limit,
                underinsured_motorists_limit=s.underinsured_motorists_limit,
                um_rejected=yes_no(s.um_rejected),
            )
            for s in auto.states
        ],
        premiums=Premiums(
            scheduled_autos=dollars(vehicles),
            hired_non_owned=auto.hired_non_owned_premium,
            total_premium=auto.premium,
        ),
        signature=signature_of(world),
    )
