"""Data invariants of the world model over 100 seeds per tier."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest

from packetbench.core import codes
from packetbench.generator.fakers.insurance import POLICY_PREFIXES, QUESTIONS, vin_check_digit
from packetbench.generator.tiers import resolve
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from packetbench.generator.world.tables import drawn_from
from tests.support.lines_oracle import (
    check_business_auto,
    check_businessowners,
    check_general_liability,
    check_lines,
    check_paperwork,
    check_parties,
    check_umbrella_and_cargo,
    check_workers_comp,
    check_workforce,
)
from tests.support.paths import TIERS
from tests.support.sweep import seeds
from tests.support.values import cents, day

SEEDS = seeds(100)


def check_property(world: World, knobs: dict[str, int]) -> None:
    buildings = world.buildings()
    assert knobs["sov.min_rows"] <= len(buildings) <= knobs["sov.max_rows"]
    assert [loc.number for loc in world.locations] == list(range(1, len(world.locations) + 1))
    for building in buildings:
        assert cents(building.tiv) == (
            cents(building.building_value)
            + cents(building.contents_value)
            + cents(building.business_income_value)
        )
        assert building.construction in codes.CONSTRUCTION.values
        assert building.occupancy in codes.OCCUPANCY.values
        assert building.roof_covering in codes.ROOF_COVERING.values
        assert building.year_built <= building.roof_year < day(world.policy.effective_date).year
        assert (building.sprinkler_type == "None") == (building.sprinklered_percent == 0)
        assert 1 <= building.protection_class <= 10
        if building.interest == "Tenant":
            assert building.building_value == 0 and building.mortgagee is None
        assert (building.mortgagee is None) == (building.loan_number is None)
        assert building.loan_number is None or re.fullmatch(r"LN-[1-9]\d{9}", building.loan_number)
    # Every world owns a building and a lender holds a mortgage on one: the evidence forms
    # (ACORD 27, 28) and the interest schedule (45) are carried wherever property is.
    assert any(b.interest == "Owner" for b in buildings)
    assert any(b.mortgagee is not None for b in buildings)
    assert sum(cents(loc.annual_revenue) for loc in world.locations) == cents(
        world.insured.annual_revenue
    )
    assert sum(loc.full_time_employees for loc in world.locations) == (
        world.insured.full_time_employees
    )


def check_losses(world: World, knobs: dict[str, int]) -> None:
    history = world.loss_history
    valuation = day(history.valuation_date)
    assert valuation <= day(history.run_date) <= day(world.policy.completion_date)
    claims = [c for term in history.terms for c in term.claims]
    assert knobs["loss_run.min_claims"] <= len(claims) <= knobs["loss_run.max_claims"]
    assert len({c.claim_number for c in claims}) == len(claims)
    assert len({t.carrier for t in history.terms}) <= knobs["loss_run.max_carriers"]
    policy_lines = {line.line for line in world.policy.lines} - {"Umbrella"}
    assert {term.line for term in history.terms} == policy_lines
    for term in history.terms:
        assert term.policy_number.startswith(POLICY_PREFIXES[term.line])
        start, end = day(term.effective_date), day(term.expiration_date)
        assert end <= day(world.policy.effective_date)
        for claim in term.claims:
            loss = day(claim.loss_date)
            assert start <= loss < end and loss < valuation
            assert loss <= day(claim.report_date) <= valuation
            assert cents(claim.incurred) == cents(claim.paid) + cents(claim.reserve)
            assert claim.paid >= 0 and claim.reserve >= 0
            assert claim.status in codes.CLAIM_STATUS.values
            if claim.status in ("Closed", "Closed Without Payment", "Denied"):
                assert claim.reserve == 0 and claim.closed_date is not None
                assert day(claim.report_date) <= day(claim.closed_date) <= valuation
            else:
                assert claim.closed_date is None
            if claim.status == "Closed Without Payment":
                assert claim.incurred == 0


def check_fleet(world: World, knobs: dict[str, int]) -> None:
    completion = day(world.policy.completion_date)
    if not world.carries("auto"):
        assert world.vehicles == () and world.drivers == ()
        return
    assert knobs["drivers.min_rows"] <= len(world.drivers) <= knobs["drivers.max_rows"]
    assert len({d.license_number for d in world.drivers}) == len(world.drivers)
    vehicles = {v.number: v for v in world.vehicles}
    for vehicle in world.vehicles:
        assert len(vehicle.vin) == 17 and not set(vehicle.vin) & set("IOQ")
        assert vin_check_digit(vehicle.vin) == vehicle.vin[8]
        assert vehicle.year <= day(world.policy.effective_date).year
    for driver in world.drivers:
        birth = day(driver.birth_date)
        age = (completion - birth).days // 365.25
        assert age >= (21 if driver.license_class.startswith("CDL") else 16)
        assert driver.year_licensed >= birth.year + 16
        assert dt.date(driver.year_licensed, 1, 1) <= day(driver.hire_date) <= completion
        assert driver.years_experience <= completion.year - driver.year_licensed
        assert driver.points == sum(v.points for v in driver.violations) + 3 * driver.accidents
        assert driver.excluded == (driver.points >= 10)
        if driver.vehicle_number is not None:
            vehicle = vehicles[driver.vehicle_number]
            if vehicle.body_type == "Tractor":
                assert driver.license_class == "CDL-A"
        for violation in driver.violations:
            assert day(violation.date) <= day(driver.mvr_date) <= completion


def check_financials(world: World, knobs: dict[str, int]) -> None:
    years = world.financials.years
    assert len(years) == knobs["financials.years"]
    assert [y.year_end for y in years] == sorted((y.year_end for y in years), reverse=True)
    assert (
        day(years[0].year_end)
        < day(world.financials.report_date)
        <= day(world.policy.completion_date) + dt.timedelta(days=365)
    )
    for year in years:
        i, b = year.income, year.balance
        assert i.gross_profit == i.revenue - i.cost_of_revenue
        assert i.total_operating_expenses == (
            i.salaries_wages + i.rent + i.depreciation_amortization + i.other_operating_expenses
        )
        assert i.operating_income == i.gross_profit - i.total_operating_expenses
        assert i.pre_tax_income == i.operating_income - i.interest_expense + i.other_income
        assert i.net_income == i.pre_tax_income - i.income_tax
        assert b.total_current_assets == (
            b.cash + b.accounts_receivable + b.inventory + b.prepaid_expenses
        )
        assert b.total_noncurrent_assets == (
            b.property_equipment_gross + b.accumulated_depreciation + b.other_assets
        )
        assert b.total_assets == b.total_current_assets + b.total_noncurrent_assets
        assert b.total_current_liabilities == (
            b.accounts_payable + b.accrued_liabilities + b.current_portion_debt
        )
        assert b.total_liabilities == b.total_current_liabilities + b.long_term_debt
        assert b.total_equity == b.common_stock + b.retained_earnings
        assert b.total_liabilities_and_equity == b.total_liabilities + b.total_equity
        assert b.total_liabilities_and_equity == b.total_assets
        assert b.accumulated_depreciation <= 0
        assert b.cash > 0
    for later, earlier in itertools.pairwise(years):
        # Equity rolls forward: same stock; retained earnings grow by net income less
        # dividends (never negative dividends).
        assert earlier.balance.common_stock == later.balance.common_stock
        dividends = (
            earlier.balance.retained_earnings
            + later.income.net_income
            - later.balance.retained_earnings
        )
        assert 0 <= dividends <= max(0.0, later.income.net_income)


def check_policy(world: World) -> None:
    policy = world.policy
    assert day(policy.completion_date) < day(policy.effective_date) < day(policy.expiration_date)
    assert cents(policy.total_premium) == sum(cents(line.premium) for line in policy.lines)
    numbers = [line.policy_number for line in policy.lines]
    assert len(set(numbers)) == len(numbers) and policy.number == numbers[0]
    for line in policy.lines:
        assert line.policy_number.startswith(POLICY_PREFIXES[line.line])
    sections = {
        "gl": world.general_liability,
        "auto": world.business_auto,
        "wc": world.workers_comp,
        "umbrella": world.umbrella,
        "cargo": world.cargo,
    }
    for line_id, section in sections.items():
        # A line is carried exactly when its terms exist, and its premium is theirs.
        assert world.carries(line_id) == (section is not None), line_id
        if section is not None:
            assert cents(world.policy_line(line_id).premium) == cents(section.premium)
    assert (world.businessowners is not None) == world.carries("property")
    assert [a.question for a in world.underwriting] == [q.id for q in QUESTIONS]
    for answer in world.underwriting:
        assert (answer.explanation is not None) == answer.answer


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_world_invariants(tier: str) -> None:
    knobs = resolve(tier)
    for seed in SEEDS:
        world = build_world(seed, knobs)
        drawn = drawn_from(seed, knobs)  # N5: one long table, the others shorter
        try:
            check_property(world, drawn)
            check_losses(world, drawn)
            check_fleet(world, drawn)
            check_financials(world, knobs)
            check_policy(world)
            check_lines(world, knobs)
            check_workforce(world)
            check_general_liability(world)
            check_business_auto(world)
            check_workers_comp(world)
            check_umbrella_and_cargo(world)
            check_businessowners(world)
            check_parties(world)
            check_paperwork(world)
        except AssertionError as error:
            raise AssertionError(f"{tier} seed {seed}: {error}") from error


def test_invariant_checks_can_fail() -> None:
    world = build_world(1, resolve("N1"))
    building = world.locations[0].buildings[0]
    broken = building.model_copy(update={"tiv": building.tiv + 1})
    location = world.locations[0].model_copy(update={"buildings": (broken,)})
    bad = world.model_copy(update={"locations": (location, *world.locations[1:])})
    with pytest.raises(AssertionError):
        check_property(bad, resolve("N1"))
    unmortgaged = world.model_copy(
        update={
            "locations": tuple(
                loc.model_copy(
                    update={
                        "buildings": tuple(
                            b.model_copy(update={"mortgagee": None, "loan_number": None})
                            for b in loc.buildings
                        )
                    }
                )
                for loc in world.locations
            )
        }
    )
    with pytest.raises(AssertionError):
        check_property(unmortgaged, resolve("N1"))


def _nudge_first(items: tuple, **update: object) -> tuple:  # type: ignore[type-arg]
    return (items[0].model_copy(update=update), *items[1:])


def _broken_worlds(world: World) -> list[tuple[str, World, object]]:
    """One world per line check, each with a single fact off by a cent or a flag."""
    gl, auto, wc = world.general_liability, world.business_auto, world.workers_comp
    assert gl is not None and auto is not None and wc is not None
    bop, umbrella = world.businessowners, world.umbrella
    assert bop is not None and umbrella is not None
    hazard = gl.hazards[0]
    unit = auto.units[0]
    rating = wc.classes[0]
    return [
        (
            "gl premium",
            world.model_copy(
                update={
                    "general_liability": gl.model_copy(
                        update={
                            "hazards": _nudge_first(
                                gl.hazards, premises_premium=hazard.premises_premium + 0.01
                            )
                        }
                    )
                }
            ),
            check_general_liability,
        ),
        (
            "gl exposure",
            world.model_copy(
                update={
                    "general_liability": gl.model_copy(
                        update={"hazards": _nudge_first(gl.hazards, exposure=hazard.exposure + 1)}
                    )
                }
            ),
            check_general_liability,
        ),
        (
            "auto unit",
            world.model_copy(
                update={
                    "business_auto": auto.model_copy(
                        update={"units": _nudge_first(auto.units, premium=unit.premium + 1)}
                    )
                }
            ),
            check_business_auto,
        ),
        (
            "wc manual",
            world.model_copy(
                update={
                    "workers_comp": wc.model_copy(
                        update={
                            "classes": _nudge_first(
                                wc.classes, manual_premium=rating.manual_premium + 0.01
                            )
                        }
                    )
                }
            ),
            check_workers_comp,
        ),
        (
            "wc payroll",
            world.model_copy(
                update={
                    "workers_comp": wc.model_copy(
                        update={"classes": _nudge_first(wc.classes, payroll=rating.payroll + 100)}
                    )
                }
            ),
            check_workers_comp,
        ),
        (
            "bop premium",
            world.model_copy(
                update={"businessowners": bop.model_copy(update={"premium": bop.premium + 0.01})}
            ),
            check_businessowners,
        ),
        (
            "umbrella underlying",
            world.model_copy(
                update={"umbrella": umbrella.model_copy(update={"underlying": ("gl",)})}
            ),
            check_umbrella_and_cargo,
        ),
        (
            "workforce",
            world.model_copy(
                update={
                    "payroll": _nudge_first(
                        world.payroll, full_time_employees=world.payroll[0].full_time_employees + 1
                    )
                }
            ),
            check_workforce,
        ),
        ("interests", world.model_copy(update={"interests": world.interests[1:]}), check_parties),
    ]


def test_line_checks_can_fail() -> None:
    world = build_world(1, resolve("N5"))
    for name, broken, check in _broken_worlds(world):
        check(world)  # type: ignore[operator]
        with pytest.raises(AssertionError):
            check(broken)  # type: ignore[operator]
            pytest.fail(f"{name}: the check passed a broken world")


def test_lines_knob_sets_the_lines_and_keeps_the_other_facts() -> None:
    base = build_world(4, resolve("N2"))
    assert base.lines() == ("property",)
    assert base.vehicles == () and base.general_liability is None
    every = resolve("N2", {"lines": ("property", "gl", "auto", "wc", "umbrella", "cargo")})
    full = build_world(4, every)
    assert full.lines()[:3] == ("property", "gl", "auto")
    # The insured, its premises and the BOP do not depend on which lines are carried.
    assert full.insured == base.insured and full.locations == base.locations
    assert full.businessowners == base.businessowners
    # Each line's terms come from their own stream: dropping auto leaves GL and WC as they
    # were; adding the umbrella changes only the limits it requires of them.
    with_auto = build_world(4, resolve("N2", {"lines": ("property", "gl", "auto", "wc")}))
    no_auto = build_world(4, resolve("N2", {"lines": ("property", "gl", "wc")}))
    assert no_auto.general_liability == with_auto.general_liability
    assert no_auto.workers_comp == with_auto.workers_comp
    assert no_auto.vehicles == () and no_auto.business_auto is None
    assert full.general_liability is not None and with_auto.general_liability is not None
    assert full.general_liability.hazards == with_auto.general_liability.hazards


def test_a_world_is_the_same_whatever_was_built_before_it_in_the_process() -> None:
    """A world's Fakers are made once per thread and seeded again for each world
    (`world.build._Fakers`): a world built after others equals one built from new Fakers,
    and a world built within another's lending gets new ones, not that world's."""
    from packetbench.generator.world import build

    knobs = resolve("N3")
    first = build_world(11, knobs)
    for seed in (12, 13):
        build_world(seed, knobs)
    assert build_world(11, knobs) == first
    with build._FAKERS.lending() as lend:
        held = lend(99)
        assert build_world(11, knobs) == first
        assert lend(99) is not held
    fresh = build.new_faker(5)
    with build._FAKERS.lending() as lend:
        lent = lend(5)
        assert [lent.name() for _ in range(5)] == [fresh.name() for _ in range(5)]
