"""The PB-137 auto coverages section: symbols, limits by state, premiums, read-back."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_137.model import AutoCoveragesSection
from tests.support.paths import TIERS
from tests.support.sections import cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 25, "N2": 25, "N3": 15, "N4": 8, "N5": 4}


@pytest.mark.parametrize("tier", TIERS)
def test_section_equals_the_world(tier: str) -> None:
    for case in cases("acord_137", tier, SEEDS[tier]):
        world, doc = case.world, case.doc
        assert isinstance(doc, AutoCoveragesSection)
        auto = world.business_auto
        assert auto is not None
        liability = doc.symbols.liability
        if liability.symbol_1 == "Yes":
            assert (liability.symbol_2, liability.symbol_8, liability.symbol_9) == (
                "No",
                "No",
                "No",
            )
            assert doc.hired_non_owned.hired_liability == "Yes"
        else:
            assert liability.symbol_2 == "Yes"
            assert liability.symbol_8 == doc.hired_non_owned.hired_liability
            assert liability.symbol_9 == doc.hired_non_owned.non_owned_liability
        assert cents(doc.limits.combined_single_limit) == cents(auto.combined_single_limit)
        assert sum(s.vehicle_count or 0 for s in doc.states) == len(world.vehicles)
        for state in doc.states:
            rejected = state.um_rejected == "Y" or state.um_rejected == "Yes"
            limit = cents(state.uninsured_motorists_limit)
            assert limit == (0 if rejected else cents(auto.combined_single_limit))
        assert cents(doc.premiums.total_premium) == cents(doc.premiums.scheduled_autos) + cents(
            doc.premiums.hired_non_owned
        )
        assert cents(doc.premiums.total_premium) == cents(world.policy_line("auto").premium)
        check_codes(doc)


@pytest.mark.parametrize("tier", ["N1", "N4"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_137", tier, tmp_path)
    ticked = [
        f for f in fields.values() if f["path"].startswith("symbols.") and f["rendered_as"] == "X"
    ]
    assert ticked  # symbol boxes are located whether ticked or not, and some are ticked
