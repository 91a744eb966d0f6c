"""Who holds an interest in the insured's property and vehicles, who asks for certificates,
and the policy forms and endorsements those facts call for."""

from __future__ import annotations

import random

from faker import Faker

from packetbench.generator.fakers import forms
from packetbench.generator.fakers.parties import HOLDERS, LESSORS, LIENHOLDERS
from packetbench.generator.world.base import Address
from packetbench.generator.world.coverage import AutoUnit
from packetbench.generator.world.parties import AdditionalInterest, CertificateHolder, Endorsement
from packetbench.generator.world.places import address
from packetbench.generator.world.premises import Location

CASUALTY = ("gl", "auto", "wc", "umbrella")


def build_interests(
    fake: Faker,
    rng: random.Random,
    locations: tuple[Location, ...],
    units: tuple[AutoUnit, ...],
    lines: tuple[str, ...],
) -> tuple[AdditionalInterest, ...]:
    """Mortgagees of the buildings, lenders and lessors of the vehicles, and landlords
    named as additional insureds on the GL policy."""
    lender_addresses: dict[str, Address] = {}

    def lender_address(name: str, state: str) -> Address:
        """One address per lender or landlord, however many interests it holds."""
        if name not in lender_addresses:
            lender_addresses[name] = address(fake, state)
        return lender_addresses[name]

    interests: list[AdditionalInterest] = []
    for location in locations:
        for building in location.buildings:
            if building.mortgagee is None:
                continue
            where = lender_address(building.mortgagee, building.address.state)
            interests.append(
                AdditionalInterest(
                    interest_type="Mortgagee",
                    name=building.mortgagee,
                    address=where,
                    loan_number=building.loan_number,
                    line="property",
                    location_number=building.location_number,
                    building_number=building.building_number,
                    vehicle_number=None,
                    certificate_required=True,
                )
            )
    home = locations[0].address.state
    for unit in units:
        if unit.ownership == "Owned":
            continue
        financed = unit.ownership == "Financed"
        name = rng.choice(LIENHOLDERS if financed else LESSORS)
        interests.append(
            AdditionalInterest(
                interest_type="Lienholder" if financed else "Lessor",
                name=name,
                address=lender_address(name, home),
                loan_number=fake.numerify("VL-%#######")
                if financed
                else fake.numerify("LS-%######"),
                line="auto",
                location_number=None,
                building_number=None,
                vehicle_number=unit.vehicle_number,
                certificate_required=True,
            )
        )
    if "gl" in lines:
        for location in locations:
            if location.buildings[0].interest != "Tenant":
                continue
            landlord = f"{fake.person_last_name()} Properties LLC"
            interests.append(
                AdditionalInterest(
                    interest_type="Additional Insured",
                    name=landlord,
                    address=lender_address(landlord, location.address.state),
                    loan_number=None,
                    line="gl",
                    location_number=location.number,
                    building_number=None,
                    vehicle_number=None,
                    certificate_required=True,
                )
            )
    return tuple(interests)


def build_holders(
    fake: Faker,
    rng: random.Random,
    locations: tuple[Location, ...],
    lines: tuple[str, ...],
    operations: str,
) -> tuple[CertificateHolder, ...]:
    casualty = tuple(line for line in CASUALTY if line in lines)
    kinds = [h for h in HOLDERS if casualty or h[0] in ("Lender", "Property Manager")]
    chosen = rng.sample(kinds, min(len(kinds), rng.randint(2, 5)))
    home = locations[0].address
    holders = []
    for relationship, template, wants_ai, wants_waiver in chosen:
        if relationship == "Lender" and "property" in lines:
            covered: tuple[str, ...] = ("property",)
        else:
            covered = casualty or ("property",)
        location = None
        if relationship in ("Lender", "Property Manager"):
            location = rng.choice(locations)
        name = template.format(
            last=fake.person_last_name(), city=(location or locations[0]).address.city
        )
        if location is not None:
            description = f"Premises at {location.address.one_line()}"
        elif relationship in ("General Contractor", "Project Owner"):
            description = f"Work performed for {name} under written contract"
        else:
            description = operations
        holders.append(
            CertificateHolder(
                name=name,
                address=address(fake, home.state),
                relationship=relationship,
                lines=covered,
                additional_insured=wants_ai and "gl" in covered,
                waiver_of_subrogation=wants_waiver and bool({"gl", "wc"} & set(covered)),
                location_number=location.number if location else None,
                description=description,
            )
        )
    return tuple(holders)


def build_endorsements(
    lines: tuple[str, ...],
    interests: tuple[AdditionalInterest, ...],
    holders: tuple[CertificateHolder, ...],
) -> tuple[Endorsement, ...]:
    added: list[tuple[str, forms.Form]] = []
    kinds = {i.interest_type for i in interests}
    if "property" in lines and "Mortgagee" in kinds:
        added.append(("property", forms.LOSS_PAYABLE))
    if "gl" in lines:
        # Landlords of leased premises, and a property manager a certificate names as
        # additional insured, are covered by the managers-or-lessors form.
        if any(i.interest_type == "Additional Insured" for i in interests) or any(
            h.additional_insured and h.relationship == "Property Manager" for h in holders
        ):
            added.append(("gl", forms.AI_LANDLORD))
        if any(h.additional_insured and h.relationship != "Property Manager" for h in holders):
            added += [("gl", forms.AI_CONTRACTOR), ("gl", forms.AI_COMPLETED)]
        if any(h.waiver_of_subrogation and "gl" in h.lines for h in holders):
            added.append(("gl", forms.WAIVER_GL))
    if "auto" in lines and "Lessor" in kinds:
        added.append(("auto", forms.AUTO_LOSS_PAYEE))
    if "wc" in lines and any(h.waiver_of_subrogation and "wc" in h.lines for h in holders):
        added.append(("wc", forms.WAIVER_WC))
    out = []
    for line in lines:
        entries = [*forms.BASE_FORMS[line], *(form for owner, form in added if owner == line)]
        out += [
            Endorsement(line=line, form_number=number, edition=edition, title=title)
            for number, edition, title in entries
        ]
    return tuple(out)
