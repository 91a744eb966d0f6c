"""Pieces shared by document models and renderers: enum leaves, the address block, headers."""

from __future__ import annotations

from typing import Annotated

from generator import codes
from generator.leaves import DocModel, Id, Leaf, Str
from generator.render.layout import Flow, Lit, Part
from generator.render.pdf import BOLD, MARGIN, REGULAR
from generator.world import models as world

State = Annotated[str | None, Leaf("enum", codes=codes.STATES)]
Construction = Annotated[str | None, Leaf("enum", codes=codes.CONSTRUCTION)]
Occupancy = Annotated[str | None, Leaf("enum", codes=codes.OCCUPANCY)]
LossLine = Annotated[str | None, Leaf("enum", codes=codes.LOSS_LINE)]


class Address(DocModel):
    """A postal address."""

    street: Str = None
    """Street line, including any suite or unit."""
    city: Str = None
    """City."""
    state: State = None
    """Two-letter USPS state or territory code."""
    zip: Id = None
    """ZIP code."""


def address_of(source: world.Address) -> Address:
    return Address(street=source.street, city=source.city, state=source.state, zip=source.zip)


def address_parts(prefix: str) -> tuple[Part, ...]:
    """An address drawn on one line: street, city, state ZIP, each located separately."""
    return (f"{prefix}.street", Lit(", "), f"{prefix}.city", Lit(", "), f"{prefix}.state",
            Lit(" "), f"{prefix}.zip")


def title_block(flow: Flow, page: int, title: str, code: str, subtitle: str = "") -> float:
    """The top band of a page: form code at left, title centred, subtitle below.

    Returns the cursor below the band.
    """
    pdf = flow.pdf
    top = pdf.height - MARGIN
    pdf.rect(page, MARGIN, top - 20, flow.cw, 20, fill=0.85)
    pdf.text(page, MARGIN + 6, top - 13.5, code, BOLD, 9)
    pdf.text(page, MARGIN + flow.cw / 2, top - 38, title, BOLD, 12, align="center")
    y = top - 44
    if subtitle:
        pdf.text(page, MARGIN + flow.cw / 2, top - 52, subtitle, REGULAR, 7, align="center")
        y = top - 56
    return y - 6
