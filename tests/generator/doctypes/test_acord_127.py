"""The PB-127 business auto section: drivers and vehicles of the world, form capacities, the
coverages of each vehicle, and rendered read-back."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.generator.doctypes.acord_127.model import (
    DRIVER_ROWS,
    VEHICLE_ROWS,
    BusinessAutoSection,
)
from packetbench.generator.fakers.insurance import vin_check_digit
from tests.support.paths import TIERS
from tests.support.sections import cases, check_codes, check_rendered
from tests.support.values import cents

SEEDS = {"N1": 25, "N2": 25, "N3": 15, "N4": 8, "N5": 4}


@pytest.mark.parametrize("tier", TIERS)
def test_section_equals_the_world(tier: str) -> None:
    for case in cases("acord_127", tier, SEEDS[tier]):
        world, doc = case.world, case.doc
        assert isinstance(doc, BusinessAutoSection)
        auto = world.business_auto
        assert auto is not None
        assert doc.header.policy_number == world.policy_line("auto").policy_number
        assert doc.driver_count == len(world.drivers)
        assert doc.vehicle_count == len(world.vehicles)
        assert len(doc.drivers) == min(DRIVER_ROWS, len(world.drivers))
        assert len(doc.vehicles) == min(VEHICLE_ROWS, len(world.vehicles))
        for row, driver in zip(doc.drivers, world.drivers, strict=False):
            assert (row.driver_number, row.license_number, row.birth_date) == (
                driver.number,
                driver.license_number,
                driver.birth_date,
            )
            assert (row.percent_use is None) == (driver.vehicle_number is None)
        for car, vehicle, unit in zip(doc.vehicles, world.vehicles, auto.units, strict=False):
            assert car.vin == vehicle.vin and car.vin is not None
            assert vin_check_digit(car.vin) == car.vin[8]
            garage = world.location(vehicle.garage_location).address
            assert (car.garaging.street, car.garaging.state) == (garage.street, garage.state)
            assert car.registration_state == garage.state
            c = car.coverages
            assert c.liability == "Yes"
            assert (c.comprehensive == "Yes") == (c.comprehensive_deductible is not None)
            assert (c.collision == "Yes") == (c.collision_deductible is not None)
            assert cents(car.premium) == cents(unit.premium)
        check_codes(doc)


@pytest.mark.parametrize("tier", ["N1", "N4"])
def test_rendered_values_read_back(tier: str, tmp_path: Path) -> None:
    fields = check_rendered("acord_127", tier, tmp_path)
    assert fields["drivers[0].gender"]["rendered_as"] in ("M", "F")
    assert fields["vehicles[0].coverages.liability"]["rendered_as"] == "X"
