"""The expiring policy as issued: the declarations page's terms, schedules that match the
world, ten to fifteen pages, and every located value read back."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from packetbench.generator.doctypes.dec_page.build import build as build_declarations
from packetbench.generator.doctypes.policy_form import wording
from packetbench.generator.doctypes.policy_form.build import SCHEDULED_LOCATIONS, build
from packetbench.generator.doctypes.policy_form.model import PolicyForm
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.rendered import render
from tests.support.sections import check_codes

TIERS = tuple(PRESETS)


def check(world: World, doc: PolicyForm, knobs: dict[str, Any]) -> None:
    # One source for both documents: the policy states the declarations page's terms.
    decs = build_declarations(world, random.Random(0), knobs)
    assert doc.coverage_parts == decs.coverage_parts and doc.premium == decs.premium
    assert doc.forms == decs.forms and doc.property_part == decs.property_part
    assert doc.liability_part == decs.liability_part
    assert doc.declarations.policy_number == decs.policy.policy_number
    assert doc.declarations.expiration_date == world.policy.effective_date
    assert doc.location_count == len(world.locations)
    assert len(doc.locations) == min(SCHEDULED_LOCATIONS, len(world.locations))
    for scheduled, location in zip(doc.locations, world.locations, strict=False):
        assert scheduled.location_number == location.number
        assert scheduled.building_count == len(location.buildings)
        assert scheduled.address.street == location.address.street
    buildings = {(b.location_number, b.building_number) for b in world.buildings()}
    for interest in doc.interests:
        assert interest.interest_type in ("Mortgagee", "Loss Payee", "Lender's Loss Payable")
        assert (interest.location_number, interest.building_number) in buildings
    mortgaged = [
        b
        for b in world.buildings()
        if b.mortgagee is not None and b.location_number <= SCHEDULED_LOCATIONS
    ]
    assert len([i for i in doc.interests if i.interest_type == "Mortgagee"]) == len(mortgaged)


@pytest.mark.parametrize("tier", TIERS)
def test_model_validates_and_enums_are_in_their_code_lists(tier: str) -> None:
    knobs = plain(tier)
    check_codes(build(build_world(2, knobs), random.Random(0), knobs))


@pytest.mark.parametrize("tier", TIERS)
def test_every_value_reads_back_and_the_policy_runs_ten_to_fifteen_pages(
    tier: str, tmp_path: Path
) -> None:
    rendered = render("policy_form", tier, 3, tmp_path)
    check(rendered.world, rendered.doc, plain(tier))  # type: ignore[arg-type]
    assert 10 <= rendered.pages <= 15
    number = rendered.fields["declarations.policy_number"]
    assert sorted({loc["page"] for loc in number["locations"]}) == list(
        range(1, rendered.pages + 1)
    )
    # Each printed form names itself: its number is drawn in the schedule and on the form.
    assert len(rendered.fields["forms[0].form_number"]["locations"]) == 2
    # The printed conditions are in the universe, never in the truth.
    texts = {s["text"] for s in rendered.universe}
    assert any(t.startswith("The first named insured may cancel") for t in texts)
    printed = {
        p
        for sections in (wording.COMMON, *wording.PARTS.values())
        for _, paragraphs in sections
        for p in paragraphs
    }
    assert not printed & {str(f["value"]) for f in rendered.fields.values()}
    assert all(f["kind"] != "text" for f in rendered.fields.values())


def test_every_form_of_every_line_has_its_wording() -> None:
    from packetbench.generator.fakers import forms

    numbers = {number for entries in forms.BASE_FORMS.values() for number, _, _ in entries}
    numbers |= {
        form[0]
        for form in (
            forms.LOSS_PAYABLE,
            forms.AI_LANDLORD,
            forms.AI_CONTRACTOR,
            forms.AI_COMPLETED,
            forms.AUTO_LOSS_PAYEE,
            forms.WAIVER_GL,
            forms.WAIVER_WC,
        )
    }
    umbrella = {number for number, _, _ in forms.BASE_FORMS["umbrella"]}
    for number in numbers - umbrella:  # an expiring policy has no umbrella part
        sections = wording.form_text(number)
        text = " ".join(p for _, paragraphs in sections for p in paragraphs)
        assert wording.GENERIC not in text, number


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_the_layout_keeps_every_policy_within_ten_to_fifteen_pages(tier: str) -> None:
    from packetbench.generator.packet import build_packet

    knobs = plain(tier, {"documents": ("policy_form",)})
    pages = [build_packet(tier, seed, knobs).pages["policy_form"] for seed in range(1, 9)]
    assert all(10 <= n <= 15 for n in pages), pages
