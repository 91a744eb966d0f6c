"""Who each certificate and evidence form of a packet is issued to.

A packet carries one document of each kind, as a broker's file does: the liability
certificate (and the remarks schedule attached to it) for the first holder that is not a
lender, the property certificate for the first holder it evidences property to, the two
evidence forms for lenders holding a mortgage on a building, and the vehicle certificate for
the first lender or lessor of a scheduled vehicle. One module decides, so a certificate and
its attachment can never name different holders.
"""

from __future__ import annotations

from packetbench.generator.world.models import World
from packetbench.generator.world.parties import AdditionalInterest, CertificateHolder
from packetbench.generator.world.premises import Building

VEHICLE_INTERESTS = ("Lienholder", "Lessor")


def liability_holder(world: World) -> CertificateHolder | None:
    """The first holder asking for a certificate who is not a lender (lenders get evidence
    of property instead); every world has one."""
    return next((h for h in world.certificate_holders if h.relationship != "Lender"), None)


def property_holder(world: World) -> CertificateHolder | None:
    """The first holder whose certificate evidences the property line."""
    return next((h for h in world.certificate_holders if "property" in h.lines), None)


def mortgages(world: World) -> list[tuple[AdditionalInterest, Building]]:
    """Every mortgagee with the building it holds a mortgage on, in schedule order."""
    buildings = {(b.location_number, b.building_number): b for b in world.buildings()}
    return [
        (i, buildings[(i.location_number or 0, i.building_number or 0)])
        for i in world.interests
        if i.interest_type == "Mortgagee"
    ]


def commercial_mortgage(world: World) -> tuple[AdditionalInterest, Building] | None:
    """The mortgage on the most valuable mortgaged building: the commercial lender's evidence
    (the first in schedule order among equals)."""
    found = mortgages(world)
    return max(found, key=lambda pair: pair[1].tiv) if found else None


def small_mortgage(world: World) -> tuple[AdditionalInterest, Building] | None:
    """The mortgage on the least valuable mortgaged building, the simpler evidence form's
    typical case (the first in schedule order among equals)."""
    found = mortgages(world)
    return min(found, key=lambda pair: pair[1].tiv) if found else None


def vehicle_lender(world: World) -> list[AdditionalInterest]:
    """The interests of the first lender or lessor of a scheduled vehicle, one per vehicle it
    holds (empty when every vehicle is owned outright or the packet has no auto line)."""
    first = next((i for i in world.interests if i.interest_type in VEHICLE_INTERESTS), None)
    if first is None:
        return []
    return [
        i
        for i in world.interests
        if i.name == first.name
        and i.interest_type == first.interest_type
        and i.vehicle_number is not None
    ]
