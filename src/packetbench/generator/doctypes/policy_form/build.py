"""Project the world's expiring policy onto the full policy form; its declarations and part
schedules are the declarations page's, so the two documents state the same terms."""

from __future__ import annotations

import random
from typing import Any

from packetbench.generator.doctypes.common import address_of
from packetbench.generator.doctypes.dec_page.build import build as build_declarations
from packetbench.generator.doctypes.dec_page.build import expiring_lines
from packetbench.generator.doctypes.policy_form.model import (
    Declarations,
    PolicyForm,
    ScheduledInterest,
    ScheduledLocation,
)
from packetbench.generator.world.models import World

# The schedule lists this many locations; beyond them it refers to the statement on file.
SCHEDULED_LOCATIONS = 40
PROPERTY_INTERESTS = ("Mortgagee", "Loss Payee", "Lender's Loss Payable")


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> PolicyForm:
    decs = build_declarations(world, rng, knobs)
    scheduled = world.locations[:SCHEDULED_LOCATIONS]
    numbers = {loc.number for loc in scheduled}
    # The interests of the scheduled locations; the list on file names the others.
    interests = (
        [
            i
            for i in world.interests
            if i.line == "property"
            and i.interest_type in PROPERTY_INTERESTS
            and i.location_number in numbers
        ]
        if "property" in expiring_lines(world)
        else []
    )
    return PolicyForm(
        declarations=Declarations(
            policy_number=decs.policy.policy_number,
            carrier_name=decs.policy.carrier_name,
            naic_code=decs.policy.naic_code,
            effective_date=decs.policy.effective_date,
            expiration_date=decs.policy.expiration_date,
            named_insured=decs.named_insured.name,
            mailing_address=decs.named_insured.mailing_address,
            agency_name=decs.producer.agency_name,
            agency_code=decs.producer.agency_code,
        ),
        coverage_parts=decs.coverage_parts,
        premium=decs.premium,
        property_part=decs.property_part,
        liability_part=decs.liability_part,
        auto_part=decs.auto_part,
        workers_comp_part=decs.workers_comp_part,
        cargo_part=decs.cargo_part,
        location_count=len(world.locations),
        locations=[
            ScheduledLocation(
                location_number=loc.number,
                address=address_of(loc.address),
                building_count=len(loc.buildings),
            )
            for loc in scheduled
        ],
        interests=[
            ScheduledInterest(
                interest_type=i.interest_type,
                name=i.name,
                loan_number=i.loan_number,
                location_number=i.location_number,
                building_number=i.building_number,
            )
            for i in interests
        ],
        forms=decs.forms,
    )
