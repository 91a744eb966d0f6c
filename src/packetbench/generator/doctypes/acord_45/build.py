"""Project the world's additional interests onto the schedule, one row each, in order."""

from __future__ import annotations

import random
from typing import Any

from packetbench.core import codes
from packetbench.generator.doctypes._parties import identification_of, yes_no
from packetbench.generator.doctypes.acord_45.model import InterestRow, InterestSchedule
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.world.models import World


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> InterestSchedule:
    return InterestSchedule(
        header=identification_of(world),
        interests=[
            InterestRow(
                item_number=number,
                interest_type=i.interest_type,
                name=i.name,
                address=address_of(i.address),
                loan_number=i.loan_number,
                line=codes.LINE_IDS[i.line],
                policy_number=world.policy_line(i.line).policy_number,
                location_number=i.location_number,
                building_number=i.building_number,
                vehicle_number=i.vehicle_number,
                certificate_required=yes_no(i.certificate_required),
            )
            for number, i in enumerate(world.interests, start=1)
        ],
    )
