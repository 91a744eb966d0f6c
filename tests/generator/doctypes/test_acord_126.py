"""The PB-126 GL section: the world's GL terms over many worlds, the 125's GL premium, and
rendered read-back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_125.build import build as build_125
from packetbench.generator.doctypes.acord_126.model import GeneralLiabilitySection
from tests.support.paths import TIERS
from tests.support.sections import cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 25, "N2": 25, "N3": 20, "N4": 10, "N5": 5}


@pytest.mark.parametrize("tier", TIERS)
def test_section_equals_the_world(tier: str) -> None:
    for case in cases("acord_126", tier, SEEDS[tier]):
        world, doc = case.world, case.doc
        assert isinstance(doc, GeneralLiabilitySection)
        gl = world.general_liability
        assert gl is not None
        assert doc.header.policy_number == world.policy_line("gl").policy_number
        assert (doc.header.carrier_name, doc.header.naic_code, doc.header.named_insured) == (
            world.carrier.name,
            world.carrier.naic,
            world.insured.name,
        )
        assert {doc.coverage.occurrence, doc.coverage.claims_made} == {"Yes", "No"}
        assert (doc.coverage.retroactive_date is None) == (doc.coverage.occurrence == "Yes")
        applies = [
            doc.limits.aggregate_per_policy,
            doc.limits.aggregate_per_project,
            doc.limits.aggregate_per_location,
        ]
        assert applies.count("Yes") == 1
        assert (cents(doc.limits.each_occurrence), cents(doc.limits.general_aggregate)) == (
            cents(gl.each_occurrence),
            cents(gl.general_aggregate),
        )
        assert len(doc.hazards) == len(gl.hazards)
        for row, hazard in zip(doc.hazards, gl.hazards, strict=True):
            assert (row.location_number, row.class_code, row.exposure) == (
                hazard.location_number,
                hazard.class_code,
                hazard.exposure,
            )
            assert cents(row.premises_premium) == cents(hazard.premises_premium)
        premises = sum(cents(h.premises_premium) for h in doc.hazards)
        products = sum(cents(h.products_premium) for h in doc.hazards)
        assert cents(doc.premiums.premises_operations) == premises
        assert cents(doc.premiums.products_completed_operations) == products
        assert cents(doc.premiums.total_premium) == premises + products
        # The application's GL premium is this section's total.
        app = build_125(world, random.Random(0), case.knobs)
        assert cents(app.lines_of_business.general_liability.premium) == premises + products
        landlords = {i.name for i in world.interests if i.interest_type == "Additional Insured"}
        named = {a.name for a in doc.additional_insureds}
        assert landlords <= named
        assert {h.name for h in world.certificate_holders if h.additional_insured} <= named
        assert doc.signature.signer_name == world.principals[0].name
        check_codes(doc)


@pytest.mark.parametrize("tier", ["N1", "N3", "N5"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_126", tier, tmp_path)
    assert fields["premiums.total_premium"]["rendered_as"].startswith("$")
    basis = fields["hazards[0].premium_basis"]
    assert len(basis["rendered_as"]) == 1  # drawn as its one-letter code, as the legend says
