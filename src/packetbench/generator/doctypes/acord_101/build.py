"""Project the world onto the remarks attached to the liability certificate: the same holder,
the endorsements of the lines it certifies, and every premises."""

from __future__ import annotations

import random
from typing import Any

from packetbench.core import codes
from packetbench.generator import prose_line
from packetbench.generator.doctypes._parties import identification_of, yes_no
from packetbench.generator.doctypes._recipients import liability_holder
from packetbench.generator.doctypes.acord_75.model import Form
from packetbench.generator.doctypes.acord_101.model import Premises, RemarksSchedule
from packetbench.generator.doctypes.common import address_of
from packetbench.generator.fakers import forms
from packetbench.generator.world.models import World
from packetbench.generator.world.parties import CertificateHolder

# The form the remarks continue (our liability certificate).
CONTINUES = ("PB-25", "Certificate of Liability Insurance")
LINE_NAMES = {"gl": "general liability", "wc": "workers compensation"}


def _number(form: forms.Form) -> str:
    number, edition, _ = form
    return f"{number} {edition}".strip()


def remarks(world: World, holder: CertificateHolder) -> str:
    """The holder's status in words, citing only the endorsements the program carries."""
    carried = {(e.line, e.form_number) for e in world.endorsements}
    ai = (
        (forms.AI_LANDLORD,)
        if holder.relationship == "Property Manager"
        else (forms.AI_CONTRACTOR, forms.AI_COMPLETED)
    )
    waivers = [
        line for line in ("gl", "wc") if holder.waiver_of_subrogation and line in holder.lines
    ]
    waiver_forms = {"gl": forms.WAIVER_GL, "wc": forms.WAIVER_WC}
    return prose_line.render(
        "remarks",
        holder=holder.name,
        additional_insured=holder.additional_insured,
        ai_forms=[_number(f) for f in ai if ("gl", f[0]) in carried],
        waiver_lines=[LINE_NAMES[line] for line in waivers],
        waiver_forms=[
            _number(waiver_forms[line])
            for line in waivers
            if (line, waiver_forms[line][0]) in carried
        ],
    )


def build(world: World, rng: random.Random, knobs: dict[str, Any]) -> RemarksSchedule:
    holder = liability_holder(world)
    if holder is None:
        raise ValueError("the world has no certificate holder for a liability certificate")
    return RemarksSchedule(
        header=identification_of(world),
        form_number=CONTINUES[0],
        form_title=CONTINUES[1],
        holder_name=holder.name,
        additional_insured=yes_no(holder.additional_insured),
        subrogation_waived=yes_no(holder.waiver_of_subrogation),
        remarks=remarks(world, holder),
        forms=[
            Form(
                line=codes.LINE_IDS[e.line],
                form_number=e.form_number,
                edition=e.edition or None,
                title=e.title,
            )
            for e in world.endorsements
            if e.line in holder.lines
        ],
        premises=[
            Premises(location_number=loc.number, address=address_of(loc.address))
            for loc in world.locations
        ],
    )
