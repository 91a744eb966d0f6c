"""Build a packet's world from its seed: the insured, its parties, property, fleet and history.

All randomness flows from one Faker instance seeded with the packet seed
(`Faker.seed_instance`, never the class-wide seed) and its `random.Random`.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from faker import Faker

from packetbench.core import codes
from packetbench.generator import prose_line
from packetbench.generator.fakers.insurance import QUESTIONS, InsuranceProvider
from packetbench.generator.fakers.rating import PROFILES
from packetbench.generator.world.auto import build_business_auto
from packetbench.generator.world.bop import build_businessowners
from packetbench.generator.world.draw import (
    add_years,
    answer_all,
    date_between,
    dollars,
    iso,
    phone,
    round_to,
    stream,
    weighted,
)
from packetbench.generator.world.excess import build_cargo, build_umbrella
from packetbench.generator.world.experience import build_experience
from packetbench.generator.world.expiring import build_expiring
from packetbench.generator.world.finance import build_financials
from packetbench.generator.world.fleet import build_drivers, build_vehicles
from packetbench.generator.world.inspection import build_inspection
from packetbench.generator.world.interests import build_endorsements, build_holders, build_interests
from packetbench.generator.world.liability import build_general_liability
from packetbench.generator.world.losses import build_loss_history
from packetbench.generator.world.models import (
    Address,
    Carrier,
    Contact,
    Insured,
    Preparer,
    Producer,
    World,
)
from packetbench.generator.world.narrative import build_narrative
from packetbench.generator.world.places import HOME_STATES, address
from packetbench.generator.world.policy import Policy, PolicyLine
from packetbench.generator.world.property import build_locations, secure_mortgage
from packetbench.generator.world.supplements import build_supplements
from packetbench.generator.world.tables import drawn_from
from packetbench.generator.world.transactions import build_binder, build_cancellation
from packetbench.generator.world.valuation import build_stated_amounts
from packetbench.generator.world.workers import build_workers_comp
from packetbench.generator.world.workforce import build_payroll, build_principals

ENTITY_SUFFIX: dict[str, tuple[str, ...]] = {
    "Corporation": ("Inc.", "Corporation", "Corp."),
    "Subchapter S Corporation": ("Inc.", "Co."),
    "Limited Liability Company": ("LLC", "L.L.C."),
    "Partnership": ("Partners", "LP"),
    "Individual": ("",),
}

TITLES = (
    "Account Manager",
    "Commercial Lines Account Executive",
    "Senior Account Manager",
    "Producer",
)


def new_faker(seed: int) -> Faker:
    """The packet's Faker: en_US, our provider, seeded on the instance only."""
    fake = Faker("en_US")
    fake.add_provider(InsuranceProvider)
    fake.seed_instance(seed)
    return fake


class _Fakers(threading.local):
    """The Fakers one world draws from, made once per thread and seeded again for each world.

    Making a Faker (its locale's providers bound one by one) cost about 2 % of an N1 packet,
    and a world makes four. Seeding one again is the same as making it: `seed_instance`
    seeds its own `random.Random` afresh (`Random.seed` resets the whole state), and a
    Faker keeps nothing else between draws (no `unique` proxy is used here)."""

    def __init__(self) -> None:
        self.made: list[Faker] = []
        self.lent = 0

    @contextmanager
    def lending(self) -> Iterator[Callable[[int], Faker]]:
        """`new_faker` for one world: each call hands out a Faker no other call of this world
        holds; all of them come back when the world is built."""
        if self.lent:  # a world within a world: fresh ones, not this world's
            yield new_faker
            return

        def lend(seed: int) -> Faker:
            if self.lent == len(self.made):
                self.made.append(new_faker(seed))
            fake = self.made[self.lent]
            self.lent += 1
            fake.seed_instance(seed)
            return fake

        try:
            yield lend
        finally:
            self.lent = 0


_FAKERS = _Fakers()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _insured(
    fake: Faker,
    rng: Any,
    industry: Any,
    home: Address,
    effective: dt.date,
    employees: int,
    revenue: int,
    location_count: int,
) -> Insured:
    entity = weighted(
        rng,
        [
            ("Corporation", 3),
            ("Subchapter S Corporation", 2),
            ("Limited Liability Company", 4),
            ("Partnership", 1),
            ("Individual", 0.5),
        ],
    )
    trade = rng.choice(industry.trade_words)
    stem = weighted(
        rng,
        [
            (fake.person_last_name(), 3),
            (home.city, 1),
            (f"{fake.person_last_name()} & {fake.person_last_name()}", 1),
        ],
    )
    dba = None
    if entity == "Individual":
        name = fake.person_name()
        dba = f"{stem} {trade}"
    else:
        name = f"{stem} {trade} {rng.choice(ENTITY_SUFFIX[entity])}"
        if rng.random() < 0.15:
            dba = f"{stem} {trade}"
    start = date_between(rng, dt.date(1972, 1, 1), add_years(effective, -3))
    domain = f"{_slug(stem)[:16]}{_slug(trade.split()[0])}.com"
    contacts = tuple(
        Contact(
            role=role, name=fake.person_name(), phone=phone(rng), email=f"{role.lower()}@{domain}"
        )
        for role in rng.sample(("Accounting", "Claims", "Inspection", "Operations"), 2)
    )
    return Insured(
        name=name,
        dba=dba,
        entity_type=entity,
        fein=fake.fein(),
        sic=industry.sic,
        naics=industry.naics,
        gl_code=industry.gl_code,
        industry=industry.label,
        nature_of_business=industry.nature,
        business_start_date=iso(start),
        phone=phone(rng),
        website=f"www.{domain}",
        mailing_address=home,
        operations_description=prose_line.render(
            "operations",
            name=dba or name,
            industry=industry.label,
            founded=start.year,
            sentences=rng.sample(industry.operations, min(2, len(industry.operations))),
            employees=employees,
            locations=location_count,
        ),
        full_time_employees=employees,
        part_time_employees=0,  # replaced below by the sum over locations
        annual_revenue=float(revenue),
        contacts=contacts,
    )


def _producer(fake: Faker, rng: Any, state: str) -> Producer:
    last = fake.person_last_name()
    agency = fake.agency_name(last)
    contact_first, contact_last = fake.person_first_name(), fake.person_last_name()
    return Producer(
        agency_name=agency,
        address=address(fake, state),
        contact_name=f"{contact_first} {contact_last}",
        phone=phone(rng),
        fax=phone(rng),
        email=f"{contact_first[0].lower()}{contact_last.lower()}@{_slug(agency)[:20]}.com",
        agency_code=fake.agency_code(),
        customer_id=fake.customer_id(),
        license_number=fake.producer_license(state),
        npn=fake.npn(),
    )


def _policy(
    fake: Faker, rng: Any, effective: dt.date, completion: dt.date, premiums: dict[str, float]
) -> Policy:
    """The submission's policy: one line per carried line of business, in line order."""
    numbers: dict[str, str] = {}
    for line_id in premiums:
        line = codes.LINE_IDS[line_id]
        numbers[line_id] = fake.policy_number(line)
    lines = tuple(
        PolicyLine(line=codes.LINE_IDS[line_id], policy_number=numbers[line_id], premium=premium)
        for line_id, premium in premiums.items()
    )
    total = sum(round(line.premium * 100) for line in lines)
    plan = weighted(rng, [("Annual", 4), ("Quarterly", 3), ("Monthly", 2), ("Semi-Annual", 1)])
    share = {"Annual": 100, "Semi-Annual": 50, "Quarterly": 25, "Monthly": 10}[plan]
    return Policy(
        number=lines[0].policy_number,
        status=weighted(rng, [("Quote", 5), ("Renew", 3), ("Bound", 2)]),
        effective_date=iso(effective),
        expiration_date=iso(add_years(effective, 1)),
        lines=lines,
        payment_plan=plan,
        billing_method=weighted(rng, [("Direct Bill", 3), ("Agency Bill", 2)]),
        audit_frequency=weighted(rng, [("Annual", 6), ("Semi-Annual", 1), ("Quarterly", 1)]),
        deposit=float(total * share // 10_000),  # whole dollars, never above the total
        minimum_premium=float(round_to(total / 100 * 0.25, 50)),
        total_premium=dollars(total),
        completion_date=iso(completion),
    )


def build_world(seed: int, knobs: dict[str, Any]) -> World:
    """The whole world model of packet `seed` under `knobs`.

    The insured, its premises, fleet, parties and history are drawn first from the packet's
    Faker, whatever lines the packet carries; each line's terms then draw from a stream of
    their own, so `--set lines=...` changes which lines exist, not the facts of the others.
    """
    with _FAKERS.lending() as faker:
        return _build_world(seed, knobs, faker)


def _build_world(seed: int, knobs: dict[str, Any], faker: Callable[[int], Faker]) -> World:
    knobs = drawn_from(seed, knobs)  # the row ranges of this packet's tables
    fake = faker(seed)
    rng = fake.random
    industry = fake.industry()
    profile = PROFILES[industry.label]
    effective = dt.date(rng.randint(2025, 2026), rng.randint(1, 12), rng.choice((1, 1, 1, 15)))
    completion = effective - dt.timedelta(days=rng.randint(20, 75))
    home = address(fake, rng.choice(HOME_STATES))
    rows = rng.randint(knobs["sov.min_rows"], knobs["sov.max_rows"])
    employees = rng.randint(max(8, 3 * rows), max(450, 8 * rows))
    revenue = round_to(employees * rng.uniform(90_000, 260_000), 1000)
    locations = build_locations(fake, rng, industry, home, effective, rows, employees, revenue)
    locations = secure_mortgage(stream(seed, "mortgage"), locations)
    insured = _insured(fake, rng, industry, home, effective, employees, revenue, len(locations))
    insured = insured.model_copy(
        update={
            "part_time_employees": sum(loc.part_time_employees for loc in locations),
        }
    )
    location_numbers = [loc.number for loc in locations]
    driver_ceiling = knobs["drivers.max_rows"]
    vehicle_count = max(1, min(driver_ceiling, round(driver_ceiling * rng.uniform(0.4, 0.9))))
    vehicles = build_vehicles(fake, rng, industry, vehicle_count, effective, location_numbers)
    drivers = build_drivers(
        fake,
        rng,
        knobs,
        vehicles,
        home.state,
        dt.date.fromisoformat(insured.business_start_date),
        completion,
    )
    carrier = Carrier(
        name=fake.carrier_name(),
        naic=fake.naic_code(),
        underwriter=fake.person_name(),
        underwriter_office=f"{fake.city()} Office",
    )
    incumbent = fake.carrier_name()
    preparer_first, preparer_last = fake.person_first_name(), fake.person_last_name()
    producer = _producer(fake, rng, home.state)
    agency_domain = producer.email.split("@", 1)[1]
    preparer = Preparer(
        name=f"{preparer_first} {preparer_last}",
        title=rng.choice(TITLES),
        email=f"{preparer_first.lower()}.{preparer_last.lower()}@{agency_domain}",
        phone=phone(rng),
    )
    financials = build_financials(
        rng,
        knobs,
        revenue,
        completion,
        industry.nature in ("Service", "Office", "Apartments"),
        (fake.person_last_name(), fake.person_last_name()),
        insured.dba or insured.name,
    )
    underwriting = answer_all(rng, QUESTIONS)
    principals = build_principals(fake, rng, insured, completion)
    payroll = build_payroll(rng, profile, insured, locations)

    wanted = tuple(line for line in codes.LINE_IDS if line in knobs["lines"])
    umbrella_wanted = "umbrella" in wanted
    gl = (
        build_general_liability(
            stream(seed, "gl"), profile, insured, locations, payroll, effective, umbrella_wanted
        )
        if "gl" in wanted
        else None
    )
    auto = (
        build_business_auto(
            stream(seed, "auto"),
            profile,
            vehicles,
            locations,
            insured.full_time_employees,
            effective,
            umbrella_wanted,
        )
        if "auto" in wanted
        else None
    )
    wc = (
        build_workers_comp(
            stream(seed, "wc"),
            profile,
            payroll,
            principals,
            locations,
            effective,
            completion,
            umbrella_wanted,
            carrier.name,
        )
        if "wc" in wanted
        else None
    )
    # A line the account cannot buy here is not carried: workers compensation where every
    # location is in a monopolistic-fund state.
    lines = tuple(line for line in wanted if line != "wc" or wc is not None)
    if auto is None:
        vehicles, drivers = (), ()
    umbrella = (
        build_umbrella(
            stream(seed, "umbrella"),
            gl,
            lines,
            insured.annual_revenue,
            gl.premium + (auto.premium if auto else 0.0),
        )
        if gl is not None and umbrella_wanted
        else None
    )
    cargo = (
        build_cargo(stream(seed, "cargo"), profile, len(vehicles))
        if "cargo" in lines and vehicles
        else None
    )
    lines = tuple(
        line
        for line in lines
        if (line != "umbrella" or umbrella is not None) and (line != "cargo" or cargo is not None)
    )
    buildings = [b for loc in locations for b in loc.buildings]
    bop = (
        build_businessowners(stream(seed, "bop"), buildings, insured.annual_revenue)
        if "property" in lines
        else None
    )
    parties = stream(seed, "parties")
    party_faker = faker(parties.randrange(2**32))
    interests = build_interests(party_faker, parties, locations, auto.units if auto else (), lines)
    holders = build_holders(party_faker, parties, locations, lines, insured.operations_description)
    loss_history = build_loss_history(
        fake,
        rng,
        knobs,
        effective,
        completion,
        insured.name,
        incumbent,
        location_numbers,
        [codes.LINE_IDS[line] for line in lines if line != "umbrella"],
    )
    tiv_cents = sum(round(b.tiv * 100) for b in buildings)
    # Each casualty line's premium is its section's; property is rated on the whole TIV.
    premiums = {
        line: section.premium
        for line, section in (
            ("gl", gl),
            ("auto", auto),
            ("wc", wc),
            ("umbrella", umbrella),
            ("cargo", cargo),
        )
        if section is not None
    }
    if "property" in lines:
        premiums["property"] = float(round_to(dollars(tiv_cents) * rng.uniform(0.0012, 0.0035), 1))
    policy = _policy(fake, rng, effective, completion, {line: premiums[line] for line in lines})
    paperwork = stream(seed, "paperwork")
    # The documents added last (certificates, correspondence, supplements) draw last, each from its
    # own stream: no fact above moves.
    expiring_stream = stream(seed, "expiring")
    expiring = build_expiring(
        faker(expiring_stream.randrange(2**32)),
        expiring_stream,
        loss_history,
        policy,
        (carrier.name, carrier.naic),
    )
    survey_stream = stream(seed, "inspection")
    signer = principals[0]
    inspection = (
        build_inspection(
            faker(survey_stream.randrange(2**32)),
            survey_stream,
            buildings,
            (signer.name, signer.title),
            completion,
            effective,
        )
        if "property" in lines
        else None
    )
    narrative = build_narrative(
        stream(seed, "narrative"),
        completion,
        effective,
        sum(p.premium for p in expiring.parts) if expiring else None,
        policy.total_premium,
        expiring is not None and expiring.carrier == carrier.name,
    )
    world = World(
        insured=insured,
        producer=producer,
        carrier=carrier,
        preparer=preparer,
        policy=policy,
        locations=locations,
        vehicles=vehicles,
        drivers=drivers,
        loss_history=loss_history,
        financials=financials,
        underwriting=underwriting,
        principals=principals,
        payroll=payroll,
        general_liability=gl,
        business_auto=auto,
        workers_comp=wc,
        umbrella=umbrella,
        cargo=cargo,
        businessowners=bop,
        interests=interests,
        certificate_holders=holders,
        endorsements=build_endorsements(lines, interests, holders),
        binder=build_binder(paperwork, policy, lines),
        cancellation=build_cancellation(
            paperwork, loss_history, carrier.name, lines, policy.completion_date
        ),
        expiring=expiring,
        inspection=inspection,
        narrative=narrative,
        experience_rating=(
            build_experience(
                stream(seed, "experience"),
                wc,
                loss_history,
                tuple(dict.fromkeys(t.carrier for t in loss_history.terms)) or (incumbent,),
                effective,
                completion,
            )
            if wc is not None
            else None
        ),
        stated_amounts=build_stated_amounts(stream(seed, "stated"), vehicles, effective),
    )
    return world.model_copy(update={"supplements": build_supplements(seed, world)})
