"""Independent checks of the certificates, evidence, binder, cancellation and schedules
against their world (used by the invariants test over many seeds).

Each check recomputes from the world who the document goes to and what it must say, without
the generator's own recipient or projection helpers, so a wrong choice or a wrong limit in
the generator cannot agree with itself. Amounts are compared in integer cents.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from packetbench.core import codes
from packetbench.core.leaves import DocModel, iter_leaves
from packetbench.generator.fakers.insurance import vin_check_digit
from packetbench.generator.world.models import World
from packetbench.generator.world.parties import AdditionalInterest, CertificateHolder
from packetbench.generator.world.premises import Building
from tests.support.values import cents, day

WAIVER_FORMS = {"gl": "CG 24 04", "wc": "WC 00 03 13"}


def ai_form(holder: CertificateHolder) -> str:
    """The endorsement that makes a holder an additional insured: managers or lessors of
    premises for a property manager, scheduled person or organization for anyone else."""
    return "CG 20 11" if holder.relationship == "Property Manager" else "CG 20 10"


def yn(flag: bool) -> str:
    return "Yes" if flag else "No"


def all_null(model: DocModel) -> bool:
    return all(value is None for _, value, _ in iter_leaves(model))


def check_address(shown: Any, source: Any) -> None:
    assert (shown.street, shown.city, shown.state, shown.zip) == (
        source.street,
        source.city,
        source.state,
        source.zip,
    )


def check_parties(world: World, doc: Any) -> None:
    """Producer, insured and insurer blocks agree with the world."""
    p = world.producer
    if hasattr(doc, "producer"):
        pr = doc.producer
        assert (
            pr.name,
            pr.contact_name,
            pr.phone,
            pr.fax,
            pr.email,
            pr.agency_code,
            pr.customer_id,
        ) == (p.agency_name, p.contact_name, p.phone, p.fax, p.email, p.agency_code, p.customer_id)
        check_address(pr.address, p.address)
    if hasattr(doc, "insured"):
        assert doc.insured.name == world.insured.name
        check_address(doc.insured.address, world.insured.mailing_address)
    if hasattr(doc, "insurers"):
        assert [(i.letter, i.name, i.naic_code) for i in doc.insurers] == [
            ("A", world.carrier.name, world.carrier.naic)
        ]
    if hasattr(doc, "authorized_representative"):
        assert doc.authorized_representative == p.contact_name


def check_row(world: World, row: Any, line: str, letter: bool = True) -> None:
    """A coverage row names the line's own policy and the program's term."""
    assert row.policy_number == world.policy_line(line).policy_number
    assert (row.effective_date, row.expiration_date) == (
        world.policy.effective_date,
        world.policy.expiration_date,
    )
    assert day(row.effective_date) < day(row.expiration_date)
    if letter:
        assert row.insurer_letter == "A"


def check_issued(world: World, date: str | None) -> None:
    """Issued with the submission: on its completion date, before the term begins."""
    assert date == world.policy.completion_date
    assert day(date) < day(world.policy.effective_date)


def one_ticked(group: DocModel, chosen: str) -> None:
    """Exactly the box of `chosen` is ticked in a group with one box per code value."""
    ticked = [name for name, value, _ in iter_leaves(group) if value == "Yes"]
    assert ticked == [chosen], (ticked, chosen)
    assert all(value in ("Yes", "No") for _, value, _ in iter_leaves(group))


def field_of(value: str) -> str:
    """Code value -> its checkbox field name, spelled independently of the generator."""
    return "_".join(re.findall(r"[a-z0-9]+", value.lower().replace("'", "")))


# --- certificates ---------------------------------------------------------------------------


def liability_holder(world: World) -> CertificateHolder:
    holders = [h for h in world.certificate_holders if h.relationship != "Lender"]
    assert holders, "every world has a holder that is not a lender"
    return holders[0]


def check_acord_25(world: World, doc: Any) -> None:
    holder = liability_holder(world)
    check_parties(world, doc)
    check_issued(world, doc.certificate_date)
    assert re.fullmatch(rf"{world.policy.effective_date[:4]}-\d{{6}}", doc.certificate_number)
    assert doc.holder.name == holder.name
    check_address(doc.holder.address, holder.address)
    assert doc.description_of_operations == holder.description
    covered = set(holder.lines) & set(world.lines())
    assert covered == set(holder.lines)
    g, a, u, w = doc.general_liability, doc.automobile, doc.umbrella, doc.workers_comp
    gl = world.general_liability
    if "gl" in covered:
        assert gl is not None
        check_row(world, g.policy, "gl")
        assert g.additional_insured == yn(holder.additional_insured)
        assert g.subrogation_waived == yn(holder.waiver_of_subrogation)
        one_ticked_pair = [g.occurrence, g.claims_made]
        assert one_ticked_pair == [yn(gl.trigger == "Occurrence"), yn(gl.trigger == "Claims-Made")]
        assert sorted(
            [g.aggregate_per_policy, g.aggregate_per_project, g.aggregate_per_location]
        ) == ["No", "No", "Yes"]
        assert {
            "Policy": g.aggregate_per_policy,
            "Project": g.aggregate_per_project,
            "Location": g.aggregate_per_location,
        }[gl.aggregate_applies] == "Yes"
        assert [
            cents(v)
            for v in (
                g.each_occurrence,
                g.damage_to_rented_premises,
                g.medical_expense,
                g.personal_advertising_injury,
                g.general_aggregate,
                g.products_completed_aggregate,
            )
        ] == [
            cents(v)
            for v in (
                gl.each_occurrence,
                gl.damage_to_premises,
                gl.medical_expense,
                gl.personal_advertising,
                gl.general_aggregate,
                gl.products_aggregate,
            )
        ]
        forms = {e.form_number for e in world.endorsements if e.line == "gl"}
        if holder.additional_insured:  # an additional insured needs its endorsement
            assert ai_form(holder) in forms
        if holder.waiver_of_subrogation:
            assert WAIVER_FORMS["gl"] in forms
    else:
        assert all_null(g)
    auto = world.business_auto
    if "auto" in covered:
        assert auto is not None
        check_row(world, a.policy, "auto")
        symbols = next(s.symbols for s in auto.symbols if s.coverage == "liability")
        assert (a.any_auto, a.owned_autos_only, a.hired_autos_only, a.non_owned_autos_only) == (
            yn("1" in symbols),
            yn("2" in symbols),
            yn("8" in symbols),
            yn("9" in symbols),
        )
        assert a.any_auto == "Yes" or a.owned_autos_only == "Yes"
        assert cents(a.combined_single_limit) == cents(auto.combined_single_limit)
        assert (a.additional_insured, a.subrogation_waived) == ("No", "No")
    else:
        assert all_null(a)
    umbrella = world.umbrella
    if "umbrella" in covered:
        assert umbrella is not None
        check_row(world, u.policy, "umbrella")
        assert (u.umbrella, u.excess) == (
            yn(umbrella.form == "Umbrella"),
            yn(umbrella.form == "Excess"),
        )
        assert (u.occurrence, u.claims_made) == (
            yn(umbrella.trigger == "Occurrence"),
            yn(umbrella.trigger == "Claims-Made"),
        )
        assert [cents(u.retention), cents(u.each_occurrence), cents(u.aggregate)] == [
            cents(umbrella.retention),
            cents(umbrella.each_occurrence),
            cents(umbrella.aggregate),
        ]
    else:
        assert all_null(u)
    wc = world.workers_comp
    if "wc" in covered:
        assert wc is not None
        check_row(world, w.policy, "wc")
        assert w.subrogation_waived == yn(holder.waiver_of_subrogation)
        if holder.waiver_of_subrogation:
            assert WAIVER_FORMS["wc"] in {e.form_number for e in world.endorsements}
        assert w.proprietor_excluded == yn(not all(p.wc_included for p in world.principals))
        assert w.statutory == "Yes"
        assert [
            cents(w.each_accident),
            cents(w.disease_each_employee),
            cents(w.disease_policy_limit),
        ] == [
            cents(wc.each_accident),
            cents(wc.disease_each_employee),
            cents(wc.disease_policy_limit),
        ]
    else:
        assert all_null(w)
    if "property" in covered:
        (row,) = doc.other
        assert row.line == "Commercial Property"
        check_row(world, row.policy, "property")
        assert cents(row.limit) == sum(cents(b.tiv) for b in world.buildings())
    else:
        assert doc.other == []


def property_holder(world: World) -> CertificateHolder:
    return next(h for h in world.certificate_holders if "property" in h.lines)


def subjects(building: Building) -> dict[str, tuple[int, float]]:
    """Subject -> (limit in cents, coinsurance): every subject with a limit."""
    rows = {
        "Building": (cents(building.building_value), building.coinsurance_percent),
        "Business Personal Property": (
            cents(building.contents_value),
            building.coinsurance_percent,
        ),
        "Business Income with Extra Expense": (cents(building.business_income_value), 100.0),
    }
    return {k: v for k, v in rows.items() if v[0]}


def check_acord_24(world: World, doc: Any) -> None:
    holder = property_holder(world)
    check_parties(world, doc)
    check_issued(world, doc.certificate_date)
    assert doc.holder.name == holder.name
    check_address(doc.holder.address, holder.address)
    check_row(world, doc.policy, "property")
    assert holder.location_number is not None
    location = world.location(holder.location_number)
    assert doc.premises.location_number == location.number
    check_address(doc.premises.address, location.address)
    expected = {
        (b.building_number, subject): (limit, coins, b)
        for b in location.buildings
        for subject, (limit, coins) in subjects(b).items()
    }
    assert [(r.building_number, r.subject) for r in doc.coverages] == list(expected)
    for row in doc.coverages:
        limit, coins, building = expected[(row.building_number, row.subject)]
        assert cents(row.limit) == limit and row.coinsurance_percent == coins
        assert (row.valuation, row.causes_of_loss, cents(row.deductible)) == (
            building.valuation,
            building.causes_of_loss,
            cents(building.deductible),
        )
    for building in location.buildings:
        shown = sum(
            cents(r.limit) for r in doc.coverages if r.building_number == building.building_number
        )
        assert shown == cents(building.tiv)


def mortgaged(world: World) -> list[tuple[AdditionalInterest, Building]]:
    out = []
    for building in world.buildings():
        if building.mortgagee is None:
            continue
        interest = next(
            i
            for i in world.interests
            if i.interest_type == "Mortgagee"
            and (i.location_number, i.building_number)
            == (building.location_number, building.building_number)
        )
        assert (interest.name, interest.loan_number) == (building.mortgagee, building.loan_number)
        out.append((interest, building))
    return out


def check_evidence(
    world: World, doc: Any, interest: AdditionalInterest, building: Building
) -> None:
    check_parties(world, doc)
    check_issued(world, doc.evidence_date)
    assert (doc.company.name, doc.company.naic_code) == (world.carrier.name, world.carrier.naic)
    check_row(world, doc.policy, "property", letter=False)
    i = doc.interest
    assert (i.name, i.loan_number) == (interest.name, interest.loan_number)
    check_address(i.address, interest.address)
    assert (i.mortgagee, i.loss_payee, i.lenders_loss_payable) == ("Yes", "No", "No")
    assert doc.causes_of_loss == building.causes_of_loss
    expected = subjects(building)
    assert [r.subject for r in doc.coverages] == list(expected)
    for row in doc.coverages:
        assert cents(row.limit) == expected[row.subject][0]
        assert cents(row.deductible) == cents(building.deductible)
    assert sum(cents(r.limit) for r in doc.coverages) == cents(building.tiv)


def check_acord_27(world: World, doc: Any) -> None:
    pairs = mortgaged(world)
    low = min(cents(b.tiv) for _, b in pairs)
    interest, building = next(p for p in pairs if cents(p[1].tiv) == low)
    check_evidence(world, doc, interest, building)
    prop = doc.property
    assert (prop.location_number, prop.building_number, prop.description) == (
        building.location_number,
        building.building_number,
        building.description,
    )
    check_address(prop.address, building.address)


def check_acord_28(world: World, doc: Any) -> None:
    pairs = mortgaged(world)
    high = max(cents(b.tiv) for _, b in pairs)
    interest, building = next(p for p in pairs if cents(p[1].tiv) == high)
    check_evidence(world, doc, interest, building)
    p = doc.premises
    assert (
        p.location_number,
        p.building_number,
        p.construction,
        p.occupancy,
        p.year_built,
        p.stories,
        p.floor_area,
    ) == (
        building.location_number,
        building.building_number,
        building.construction,
        building.occupancy,
        building.year_built,
        building.stories,
        building.square_feet,
    )
    check_address(p.address, building.address)
    assert doc.building_covered == yn(building.building_value > 0) == "Yes"  # owners only
    assert doc.personal_property_covered == yn(building.contents_value > 0)
    for row in doc.coverages:
        coins = (
            100.0 if row.subject.startswith("Business Income") else (building.coinsurance_percent)
        )
        assert (row.coinsurance_percent, row.valuation) == (coins, building.valuation)
    c = doc.conditions
    income = cents(building.business_income_value)
    assert c.business_income == yn(income > 0)
    assert (c.business_income_limit is None) == (income == 0)
    if income:
        assert cents(c.business_income_limit) == income
    assert (c.replacement_cost, c.agreed_value) == (
        yn(building.valuation == "Replacement Cost"),
        yn(building.valuation == "Agreed Amount"),
    )
    assert c.coinsurance_percent == building.coinsurance_percent


def vehicle_holder(world: World) -> list[AdditionalInterest]:
    lenders = [i for i in world.interests if i.vehicle_number is not None]
    first = lenders[0]
    return [i for i in lenders if (i.name, i.interest_type) == (first.name, first.interest_type)]


def check_acord_23(world: World, doc: Any) -> None:
    held = vehicle_holder(world)
    auto = world.business_auto
    assert auto is not None
    check_parties(world, doc)
    check_issued(world, doc.certificate_date)
    check_row(world, doc.policy, "auto")
    assert doc.holder.name == held[0].name
    check_address(doc.holder.address, held[0].address)
    assert (doc.lienholder, doc.lessor) == (
        yn(held[0].interest_type == "Lienholder"),
        yn(held[0].interest_type == "Lessor"),
    )
    assert cents(doc.combined_single_limit) == cents(auto.combined_single_limit)
    assert doc.medical_payments_limit == auto.medical_payments_limit
    vehicles = {v.number: v for v in world.vehicles}
    units = {u.vehicle_number: u for u in auto.units}
    assert [v.vehicle_number for v in doc.vehicles] == [i.vehicle_number for i in held]
    for row, interest in zip(doc.vehicles, held, strict=True):
        vehicle, unit = vehicles[row.vehicle_number], units[row.vehicle_number]
        assert (row.year, row.make, row.model, row.body_type, row.vin) == (
            vehicle.year,
            vehicle.make,
            vehicle.model,
            vehicle.body_type,
            vehicle.vin,
        )
        assert len(row.vin) == 17 and vin_check_digit(row.vin) == row.vin[8]
        assert row.loan_number == interest.loan_number
        # A financed or leased vehicle always carries physical damage for its lender.
        assert unit.ownership != "Owned"
        assert row.comprehensive_deductible == unit.comprehensive_deductible is not None
        assert row.collision_deductible == unit.collision_deductible is not None


# --- schedules and paperwork ----------------------------------------------------------------


def check_header(world: World, header: Any) -> None:
    assert (
        header.agency_name,
        header.customer_id,
        header.carrier_name,
        header.naic_code,
        header.policy_number,
        header.effective_date,
        header.named_insured,
    ) == (
        world.producer.agency_name,
        world.producer.customer_id,
        world.carrier.name,
        world.carrier.naic,
        world.policy.number,
        world.policy.effective_date,
        world.insured.name,
    )


def check_acord_45(world: World, doc: Any) -> None:
    check_header(world, doc.header)
    assert len(doc.interests) == len(world.interests) > 0
    for number, (row, interest) in enumerate(
        zip(doc.interests, world.interests, strict=True), start=1
    ):
        assert row.item_number == number
        assert (
            row.interest_type,
            row.name,
            row.loan_number,
            row.location_number,
            row.building_number,
            row.vehicle_number,
        ) == (
            interest.interest_type,
            interest.name,
            interest.loan_number,
            interest.location_number,
            interest.building_number,
            interest.vehicle_number,
        )
        check_address(row.address, interest.address)
        assert row.line == codes.LINE_IDS[interest.line]
        assert row.policy_number == world.policy_line(interest.line).policy_number
        assert row.certificate_required == yn(interest.certificate_required)
        if row.vehicle_number is not None:
            assert row.vehicle_number in {v.number for v in world.vehicles}
        if row.location_number is not None:
            assert 1 <= row.location_number <= len(world.locations)


def check_acord_101(world: World, doc: Any) -> None:
    holder = liability_holder(world)
    check_header(world, doc.header)
    assert (doc.form_number, doc.form_title) == ("PB-25", "Certificate of Liability Insurance")
    assert doc.holder_name == holder.name
    assert (doc.additional_insured, doc.subrogation_waived) == (
        yn(holder.additional_insured),
        yn(holder.waiver_of_subrogation),
    )
    assert doc.remarks is not None and holder.name in doc.remarks
    assert ("not an additional insured" in doc.remarks) != holder.additional_insured
    assert [(f.line, f.form_number, f.title) for f in doc.forms] == [
        (codes.LINE_IDS[e.line], e.form_number, e.title)
        for e in world.endorsements
        if e.line in holder.lines
    ]
    for form in doc.forms:
        assert form.edition is None or re.fullmatch(r"\d\d \d\d|[A-Z]", form.edition)
    # Every endorsement the remark cites is on the schedule of the lines certified.
    cited = {e.form_number for e in world.endorsements if e.form_number in doc.remarks}
    assert cited <= {f.form_number for f in doc.forms}
    if holder.additional_insured:
        assert ai_form(holder) in cited
    assert [p.location_number for p in doc.premises] == [loc.number for loc in world.locations]
    for row, location in zip(doc.premises, world.locations, strict=True):
        check_address(row.address, location.address)


def check_acord_35(world: World, doc: Any) -> None:
    request = world.cancellation
    assert request is not None
    check_parties(world, doc)
    latest = max(t.expiration_date for t in world.loss_history.terms)
    term = next(
        t
        for t in world.loss_history.terms
        if t.expiration_date == latest and t.line == codes.LINE_IDS[request.line]
    )
    assert (doc.company.name, doc.company.naic_code) == (term.carrier, None)
    assert term.carrier != world.carrier.name
    assert (doc.policy.policy_number, doc.policy.effective_date, doc.policy.expiration_date) == (
        term.policy_number,
        term.effective_date,
        term.expiration_date,
    )
    # The expiring term ends as the new program begins: nothing is returned.
    assert doc.cancellation_date == term.expiration_date == world.policy.effective_date
    assert doc.cancellation_time == "12:01 AM"
    one_ticked(doc.policy_type, field_of(codes.LINE_IDS[request.line]))
    one_ticked(doc.reason, field_of(request.reason))
    one_ticked(doc.return_premium, field_of(request.return_premium_method))
    assert doc.return_premium.flat == "Yes"
    assert doc.lost_policy_release == yn(request.lost_policy_release)
    r = doc.replacement
    assert (r.carrier_name, r.policy_number, r.effective_date) == (
        world.carrier.name,
        world.policy_line(request.line).policy_number,
        world.policy.effective_date,
    )
    signer = world.principals[0]
    assert (doc.signature.signer_name, doc.signature.signer_title) == (signer.name, signer.title)
    assert doc.request_date == doc.signature.signature_date == world.policy.completion_date
    assert day(doc.request_date) < day(doc.cancellation_date)


def check_acord_75(world: World, doc: Any) -> None:
    binder = world.binder
    assert binder is not None
    check_parties(world, doc)
    assert (doc.company.name, doc.company.naic_code) == (world.carrier.name, world.carrier.naic)
    assert (doc.binder_number, doc.issued_date, doc.effective_date, doc.expiration_date) == (
        binder.number,
        binder.issued_date,
        binder.effective_date,
        binder.expiration_date,
    )
    policy = world.policy
    # Dates in term: issued before the term starts, the binder runs out inside it.
    assert day(policy.completion_date) <= day(doc.issued_date) < day(doc.effective_date)
    assert doc.effective_date == policy.effective_date
    assert day(doc.effective_date) < day(doc.expiration_date) < day(policy.expiration_date)
    assert doc.policy_expiration_date == policy.expiration_date
    assert [(b.line, b.policy_number, cents(b.premium)) for b in doc.lines] == [
        (line.line, line.policy_number, cents(line.premium)) for line in policy.lines
    ]
    assert (
        cents(doc.estimated_premium)
        == sum(cents(b.premium) for b in doc.lines)
        == cents(policy.total_premium)
    )
    assert doc.description_of_operations == world.insured.operations_description
    buildings = world.buildings()
    p = doc.property
    assert p.premises_count == len(buildings)
    assert cents(p.building_limit) == sum(cents(b.building_value) for b in buildings)
    assert cents(p.personal_property_limit) == sum(cents(b.contents_value) for b in buildings)
    assert cents(p.business_income_limit) == sum(cents(b.business_income_value) for b in buildings)
    gl, g = world.general_liability, doc.general_liability
    if gl is None:
        assert all_null(g)
    else:
        assert (g.trigger, g.retroactive_date, g.deductible) == (
            gl.trigger,
            gl.retroactive_date,
            gl.deductible,
        )
        assert [
            cents(v)
            for v in (
                g.each_occurrence,
                g.general_aggregate,
                g.products_aggregate,
                g.personal_advertising,
                g.damage_to_premises,
                g.medical_expense,
            )
        ] == [
            cents(v)
            for v in (
                gl.each_occurrence,
                gl.general_aggregate,
                gl.products_aggregate,
                gl.personal_advertising,
                gl.damage_to_premises,
                gl.medical_expense,
            )
        ]
    auto, a = world.business_auto, doc.automobile
    if auto is None:
        assert all_null(a)
    else:
        assert (cents(a.combined_single_limit), a.medical_payments_limit, a.vehicle_count) == (
            cents(auto.combined_single_limit),
            auto.medical_payments_limit,
            len(world.vehicles),
        )
        assert (a.hired_autos, a.non_owned_autos) == (
            yn(auto.hired_liability),
            yn(auto.non_owned_liability),
        )
    wc, w = world.workers_comp, doc.workers_comp
    if wc is None:
        assert all_null(w)
    else:
        assert (
            w.each_accident,
            w.disease_each_employee,
            w.disease_policy_limit,
            w.experience_mod,
        ) == (
            wc.each_accident,
            wc.disease_each_employee,
            wc.disease_policy_limit,
            wc.experience_mod,
        )
    umbrella, u = world.umbrella, doc.umbrella
    if umbrella is None:
        assert all_null(u)
    else:
        assert (u.form, u.each_occurrence, u.aggregate, u.retention) == (
            umbrella.form,
            umbrella.each_occurrence,
            umbrella.aggregate,
            umbrella.retention,
        )
    cargo, c = world.cargo, doc.cargo
    if cargo is None:
        assert all_null(c)
    else:
        assert (c.limit_per_vehicle, c.limit_per_occurrence, c.deductible) == (
            cargo.limit_per_vehicle,
            cargo.limit_per_occurrence,
            cargo.deductible,
        )
    latest = max(t.expiration_date for t in world.loss_history.terms)
    expiring = {t.line: t for t in world.loss_history.terms if t.expiration_date == latest}
    assert [(e.line, e.carrier, e.policy_number, e.expiration_date) for e in doc.expiring] == [
        (line.line, expiring[line.line].carrier, expiring[line.line].policy_number, latest)
        for line in policy.lines
        if line.line in expiring
    ]
    assert latest == policy.effective_date
    assert [(f.line, f.form_number, f.title) for f in doc.forms] == [
        (codes.LINE_IDS[e.line], e.form_number, e.title) for e in world.endorsements
    ]
    assert doc.interest_count == len(world.interests)
    assert len(doc.interests) == min(6, len(world.interests))
    for number, (row, interest) in enumerate(
        zip(doc.interests, world.interests, strict=False), start=1
    ):
        assert (row.item_number, row.interest_type, row.name, row.loan_number, row.line) == (
            number,
            interest.interest_type,
            interest.name,
            interest.loan_number,
            codes.LINE_IDS[interest.line],
        )


CHECKS: dict[str, Callable[[World, Any], None]] = {
    "acord_23": check_acord_23,
    "acord_24": check_acord_24,
    "acord_25": check_acord_25,
    "acord_27": check_acord_27,
    "acord_28": check_acord_28,
    "acord_35": check_acord_35,
    "acord_45": check_acord_45,
    "acord_75": check_acord_75,
    "acord_101": check_acord_101,
}


def carried(world: World) -> set[str]:
    """Which of these documents a packet of `world` must carry, decided from the world."""
    out = {"acord_25", "acord_101"}
    if any("property" in h.lines for h in world.certificate_holders):
        out.add("acord_24")
    if any(b.mortgagee for b in world.buildings()):
        out |= {"acord_27", "acord_28"}
    if world.interests:
        out.add("acord_45")
    if world.binder is not None:
        out.add("acord_75")
    if world.cancellation is not None:
        out.add("acord_35")
    if world.carries("auto") and any(i.vehicle_number is not None for i in world.interests):
        out.add("acord_23")
    return out
