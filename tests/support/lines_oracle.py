"""Independent checks of the world's line-of-business terms (used by the invariants test).

Each premium is recomputed here from its rate and exposure with exact rational arithmetic,
not with the generator's helpers, so a wrong formula in the generator cannot agree with
itself.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction

from packetbench.core import codes
from packetbench.generator.fakers import forms
from packetbench.generator.fakers.questions import (
    ASSIGNED_RISK_QUESTIONS,
    AUTO_QUESTIONS,
    BOP_QUESTIONS,
    GL_QUESTIONS,
    UMBRELLA_QUESTIONS,
    WC_QUESTIONS,
)
from packetbench.generator.fakers.rating import MONOPOLISTIC_STATES
from packetbench.generator.world.base import Answer
from packetbench.generator.world.models import World
from tests.support.values import cents, day

MONOPOLISTIC = {"ND", "OH", "WA", "WY"}


def half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2))


def check_answers(answers: tuple[Answer, ...], questions: tuple[object, ...]) -> None:
    assert [a.question for a in answers] == [q.id for q in questions]  # type: ignore[attr-defined]
    for answer in answers:
        assert (answer.explanation is not None) == answer.answer


def check_lines(world: World, knobs: dict[str, object]) -> None:
    wanted = list(knobs["lines"])  # type: ignore[call-overload]
    lines = list(world.lines())
    assert lines == [line for line in codes.LINE_IDS if line in lines]
    assert set(lines) <= set(wanted)
    locations_states = {loc.address.state for loc in world.locations}
    for line in set(wanted) - set(lines):
        # Only workers compensation can be impossible: every location in a state fund state.
        assert line == "wc" and locations_states <= MONOPOLISTIC
    assert MONOPOLISTIC == MONOPOLISTIC_STATES
    terms = {term.line for term in world.loss_history.terms}
    assert terms == {codes.LINE_IDS[line] for line in lines if line != "umbrella"}


def check_workforce(world: World) -> None:
    insured = world.insured
    for location in world.locations:
        rows = [p for p in world.payroll if p.location_number == location.number]
        assert sum(p.full_time_employees for p in rows) == location.full_time_employees
        assert sum(p.part_time_employees for p in rows) == location.part_time_employees
        for row in rows:
            assert row.state == location.address.state
            assert row.full_time_employees + row.part_time_employees > 0
            assert cents(row.payroll) % 10_000 == 0 and row.payroll > 0
    total = sum(p.payroll for p in world.payroll)
    assert 0.05 <= total / insured.annual_revenue <= 0.8, total / insured.annual_revenue
    principals = world.principals
    assert principals
    owned = sum(p.ownership_percent for p in principals)
    assert owned == 100 or (insured.entity_type == "Corporation" and 0 < owned < 100)
    completion = day(world.policy.completion_date)
    for principal in principals:
        assert (completion - day(principal.birth_date)).days // 365.25 >= 18
        assert cents(principal.remuneration) % 10_000 == 0
    if insured.entity_type == "Individual":
        assert principals[0].name == insured.name


def check_general_liability(world: World) -> None:
    gl = world.general_liability
    if gl is None:
        return
    units = {"Gross Sales": 1000, "Payroll": 1000, "Area": 1000, "Units": 1, "Total Cost": 1000}
    primary = [h for h in gl.hazards if h.hazard_number == 1]
    assert [h.location_number for h in primary] == [loc.number for loc in world.locations]
    for hazard in primary:
        location = world.location(hazard.location_number)
        assert hazard.class_code == world.insured.gl_code
        area = sum(b.square_feet for b in location.buildings)
        expected = {
            "Gross Sales": round(location.annual_revenue),
            "Payroll": round(
                sum(
                    p.payroll
                    for p in world.payroll
                    if p.location_number == location.number and p.class_code not in ("8810", "8742")
                )
            ),
            "Area": area,
            "Units": max(1, area // 950),
        }[hazard.premium_basis]
        assert hazard.exposure == max(1, expected)
    assert len({(h.location_number, h.hazard_number) for h in gl.hazards}) == len(gl.hazards)
    for hazard in gl.hazards:
        assert hazard.premium_basis in codes.GL_PREMIUM_BASIS.values
        unit = units[hazard.premium_basis]
        rate = Fraction(str(hazard.premises_rate))
        assert cents(hazard.premises_premium) == half_up(rate * hazard.exposure / unit * 100)
        if hazard.products_rate is None:
            assert hazard.products_premium == 0
        else:
            rate = Fraction(str(hazard.products_rate))
            assert cents(hazard.products_premium) == half_up(rate * hazard.exposure / unit * 100)
    premises = sum(cents(h.premises_premium) for h in gl.hazards)
    products = sum(cents(h.products_premium) for h in gl.hazards)
    assert cents(gl.premises_premium) == premises and cents(gl.products_premium) == products
    assert cents(gl.premium) == premises + products
    assert gl.general_aggregate >= gl.each_occurrence
    assert gl.products_aggregate >= gl.each_occurrence >= gl.personal_advertising / 2
    assert gl.damage_to_premises < gl.each_occurrence and gl.medical_expense <= 10_000
    assert (gl.trigger == "Claims-Made") == (gl.retroactive_date is not None)
    if gl.retroactive_date:
        assert day(gl.retroactive_date) < day(world.policy.effective_date)
    assert (gl.deductible is None) == (gl.deductible_basis is None)
    check_answers(gl.answers, GL_QUESTIONS)


def check_business_auto(world: World) -> None:
    auto = world.business_auto
    if auto is None:
        return
    vehicles = world.vehicles
    assert [u.vehicle_number for u in auto.units] == [v.number for v in vehicles]
    for vehicle, unit in zip(vehicles, auto.units, strict=True):
        garage = world.location(vehicle.garage_location)
        assert unit.registration_state == garage.address.state
        if vehicle.body_type == "Tractor":
            assert unit.size_class.endswith("Truck-Tractor")
        else:
            limits = (
                (10_000, "Light Truck"),
                (20_000, "Medium Truck"),
                (45_000, "Heavy Truck"),
                (10**9, "Extra-Heavy Truck"),
            )
            assert unit.size_class == next(name for top, name in limits if vehicle.gvw <= top)
        assert len(unit.class_code) == 5 and unit.class_code.isdigit()
        assert (unit.comprehensive_deductible is None) == (unit.collision_deductible is None)
        covered = unit.comprehensive_deductible is not None
        assert covered == (unit.physical_damage_premium > 0)
        if unit.ownership != "Owned":
            assert covered  # a lender or lessor always requires physical damage
        assert cents(unit.premium) == cents(unit.liability_premium) + cents(
            unit.physical_damage_premium
        )
        assert unit.medical_payments == (auto.medical_payments_limit is not None)
    assert cents(auto.premium) == sum(cents(u.premium) for u in auto.units) + cents(
        auto.hired_non_owned_premium
    )
    counts = Counter(u.registration_state for u in auto.units)
    assert {s.state: s.vehicle_count for s in auto.states} == dict(counts)
    for state in auto.states:
        in_state = [u for u in auto.units if u.registration_state == state.state]
        assert all(u.uninsured_motorists == (not state.um_rejected) for u in in_state)
        if state.um_rejected:
            assert state.uninsured_motorists_limit == 0 == state.underinsured_motorists_limit
        else:
            assert state.uninsured_motorists_limit == auto.combined_single_limit
    symbols = {s.coverage: s.symbols for s in auto.symbols}
    if symbols["liability"] == ("1",):
        assert auto.hired_liability and auto.non_owned_liability
    else:
        assert ("8" in symbols["liability"]) == auto.hired_liability
        assert ("9" in symbols["liability"]) == auto.non_owned_liability
    assert (auto.hired_cost > 0) == auto.hired_liability
    if world.umbrella is not None:
        assert auto.combined_single_limit >= 1_000_000
    check_answers(auto.answers, AUTO_QUESTIONS)


def check_workers_comp(world: World) -> None:
    wc = world.workers_comp
    if wc is None:
        return
    states = [s.state for s in wc.states]
    assert not set(states) & MONOPOLISTIC
    assert set(wc.excluded_states) == {loc.address.state for loc in world.locations} & (
        MONOPOLISTIC
    )
    # The worksheet is the payroll of every covered location, plus included officers.
    expected: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in world.payroll:
        if row.state in MONOPOLISTIC:
            continue
        cell = expected[(row.state, row.class_code)]
        cell[0] += row.full_time_employees
        cell[1] += row.part_time_employees
        cell[2] += cents(row.payroll)
    for principal in world.principals:
        if principal.wc_included:
            cell = expected[(wc.officer_state, wc.officer_class)]
            cell[0] += 1
            cell[2] += cents(principal.remuneration)
    assert {
        (c.state, c.class_code): [c.full_time_employees, c.part_time_employees, cents(c.payroll)]
        for c in wc.classes
    } == expected
    mod = Fraction(str(wc.experience_mod))
    assert Fraction(72, 100) <= mod <= Fraction(138, 100)
    for c in wc.classes:
        assert cents(c.manual_premium) == half_up(
            Fraction(cents(c.payroll), 100) * Fraction(str(c.rate))
        )
    for state in wc.states:
        rows = [c for c in wc.classes if c.state == state.state]
        assert cents(state.payroll) == sum(cents(c.payroll) for c in rows)
        manual = sum(cents(c.manual_premium) for c in rows)
        assert cents(state.manual_premium) == manual
        assert cents(state.modified_premium) == half_up(manual * mod)
        assert cents(state.premium_discount) == half_up(
            cents(state.modified_premium) * Fraction(str(state.discount_percent)) / 100
        )
        assert cents(state.terrorism_premium) == half_up(
            Fraction(cents(state.payroll), 10_000) * Fraction(str(state.terrorism_rate)) * 100
        )
        assert cents(state.estimated_premium) == (
            cents(state.modified_premium)
            - cents(state.premium_discount)
            + cents(state.expense_constant)
            + cents(state.terrorism_premium)
        )
    assert cents(wc.premium) == sum(cents(s.estimated_premium) for s in wc.states)
    assert wc.deposit_premium < wc.premium
    assert wc.disease_policy_limit >= wc.each_accident >= wc.disease_each_employee / 1
    assert wc.mod_effective_date == world.policy.effective_date
    assigned = wc.market == "Assigned Risk"
    assert assigned == bool(wc.declinations) == bool(wc.plan_answers)
    for declination in wc.declinations:
        assert declination.carrier != world.carrier.name
        assert day(declination.date) <= day(world.policy.completion_date)
    if world.umbrella is not None:
        assert wc.each_accident >= 1_000_000
    check_answers(wc.answers, WC_QUESTIONS)
    if assigned:
        check_answers(wc.plan_answers, ASSIGNED_RISK_QUESTIONS)


def check_umbrella_and_cargo(world: World) -> None:
    umbrella = world.umbrella
    if umbrella is not None:
        assert world.general_liability is not None
        assert list(umbrella.underlying) == [
            line for line in ("gl", "auto", "wc") if world.carries(line)
        ]
        assert world.general_liability.each_occurrence == 1_000_000
        assert umbrella.aggregate == umbrella.each_occurrence >= 1_000_000
        assert (umbrella.retention == 0) == (umbrella.form == "Excess")
        assert umbrella.trigger == world.general_liability.trigger
        check_answers(umbrella.answers, UMBRELLA_QUESTIONS)
    cargo = world.cargo
    if cargo is not None:
        assert cargo.vehicle_count == len(world.vehicles) > 0
        assert cents(cargo.premium) == cents(cargo.rate_per_vehicle) * cargo.vehicle_count
        assert cargo.limit_per_occurrence == 2 * cargo.limit_per_vehicle


def check_businessowners(world: World) -> None:
    bop = world.businessowners
    if bop is None:
        return
    buildings = world.buildings()
    assert [(p.location_number, p.building_number) for p in bop.premises] == [
        (b.location_number, b.building_number) for b in buildings
    ]
    for premises, building in zip(bop.premises, buildings, strict=True):
        assert cents(premises.building_limit) == cents(building.building_value)
        assert cents(premises.bpp_limit) == cents(building.contents_value)
        value = Fraction(cents(building.building_value + building.contents_value), 100)
        assert cents(premises.premium) == int(value / 100 * Fraction(str(premises.rate)) * 100)
    assert cents(bop.property_premium) == sum(cents(p.premium) for p in bop.premises)
    assert cents(bop.optional_premium) == sum(cents(o.premium) for o in bop.options)
    assert cents(bop.premium) == (
        cents(bop.property_premium) + cents(bop.liability_premium) + cents(bop.optional_premium)
    )
    assert len({o.coverage for o in bop.options}) == len(bop.options)
    assert bop.general_aggregate >= bop.each_occurrence
    check_answers(bop.answers, BOP_QUESTIONS)


def check_parties(world: World) -> None:
    lines = set(world.lines())
    mortgages = {
        (b.location_number, b.building_number): (b.mortgagee, b.loan_number)
        for b in world.buildings()
        if b.mortgagee
    }
    scheduled = {
        (i.location_number, i.building_number): (i.name, i.loan_number)
        for i in world.interests
        if i.interest_type == "Mortgagee"
    }
    assert scheduled == mortgages
    lenders = {i.vehicle_number: i for i in world.interests if i.vehicle_number is not None}
    units = world.business_auto.units if world.business_auto else ()
    assert set(lenders) == {u.vehicle_number for u in units if u.ownership != "Owned"}
    for unit in units:
        if unit.ownership != "Owned":
            kind = lenders[unit.vehicle_number].interest_type
            assert kind == ("Lienholder" if unit.ownership == "Financed" else "Lessor")
    by_name: dict[str, set[str]] = defaultdict(set)
    for interest in world.interests:
        assert interest.interest_type in codes.INTEREST_TYPE.values
        assert interest.line in lines
        by_name[interest.name].add(interest.address.one_line())
        if interest.interest_type == "Additional Insured":
            location = world.location(interest.location_number or 0)
            assert location.buildings[0].interest == "Tenant"
    assert all(len(addresses) == 1 for addresses in by_name.values())
    assert 2 <= len(world.certificate_holders) <= 5
    for holder in world.certificate_holders:
        assert holder.lines and set(holder.lines) <= lines
        assert not holder.additional_insured or "gl" in holder.lines
        assert not holder.waiver_of_subrogation or {"gl", "wc"} & set(holder.lines)
        if holder.location_number is not None:
            assert 1 <= holder.location_number <= len(world.locations)
    listed = [(e.line, e.form_number) for e in world.endorsements]
    assert len(set(listed)) == len(listed)
    assert {e.line for e in world.endorsements} == lines
    for line in lines:
        for number, _, _ in forms.BASE_FORMS[line]:
            assert (line, number) in listed


def check_paperwork(world: World) -> None:
    policy = world.policy
    binder = world.binder
    assert (binder is not None) == (policy.status in ("Bound", "Renew"))
    if binder is not None:
        assert day(policy.completion_date) <= day(binder.issued_date) < day(policy.effective_date)
        assert binder.effective_date == policy.effective_date
        assert (day(binder.expiration_date) - day(binder.effective_date)).days in (30, 60)
        assert binder.lines == world.lines()
    request = world.cancellation
    latest = max(t.expiration_date for t in world.loss_history.terms)
    expiring = {t.line: t for t in world.loss_history.terms if t.expiration_date == latest}
    if request is None:
        assert all(t.carrier == world.carrier.name for t in expiring.values())
        return
    assert world.carries(request.line)
    term = expiring[codes.LINE_IDS[request.line]]
    assert (term.carrier, term.policy_number, term.effective_date, term.expiration_date) == (
        request.carrier,
        request.policy_number,
        request.term_effective_date,
        request.term_expiration_date,
    )
    assert request.carrier != world.carrier.name
    assert request.cancel_effective_date == request.term_expiration_date == (policy.effective_date)
    assert request.request_date == policy.completion_date
    assert request.reason in codes.CANCELLATION_REASON.values
    assert request.return_premium_method in codes.RETURN_PREMIUM_METHOD.values
