"""Build a packet's world from its seed: the insured, its parties, property, fleet and history.

All randomness flows from one Faker instance seeded with the packet seed
(`Faker.seed_instance`, never the class-wide seed) and its `random.Random`.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from faker import Faker

from generator import prose
from generator.providers.insurance import QUESTIONS, InsuranceProvider
from generator.world.draw import add_years, date_between, dollars, iso, phone, round_to, weighted
from generator.world.finance import build_financials
from generator.world.fleet import build_drivers, build_vehicles
from generator.world.losses import build_loss_history
from generator.world.models import (
    Address,
    Answer,
    Carrier,
    Contact,
    Insured,
    Policy,
    PolicyLine,
    Preparer,
    Producer,
    World,
)
from generator.world.places import HOME_STATES, address
from generator.world.property import build_locations

ENTITY_SUFFIX: dict[str, tuple[str, ...]] = {
    "Corporation": ("Inc.", "Corporation", "Corp."),
    "Subchapter S Corporation": ("Inc.", "Co."),
    "Limited Liability Company": ("LLC", "L.L.C."),
    "Partnership": ("Partners", "LP"),
    "Individual": ("",),
}

TITLES = ("Account Manager", "Commercial Lines Account Executive", "Senior Account Manager",
          "Producer")


def new_faker(seed: int) -> Faker:
    """The packet's Faker: en_US, our provider, seeded on the instance only."""
    fake = Faker("en_US")
    fake.add_provider(InsuranceProvider)
    fake.seed_instance(seed)
    return fake


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _insured(fake: Faker, rng: Any, industry: Any, home: Address, effective: dt.date,
             employees: int, revenue: int, location_count: int) -> Insured:
    entity = weighted(rng, [("Corporation", 3), ("Subchapter S Corporation", 2),
                            ("Limited Liability Company", 4), ("Partnership", 1),
                            ("Individual", 0.5)])
    trade = rng.choice(industry.trade_words)
    stem = weighted(rng, [(fake.person_last_name(), 3), (home.city, 1),
                          (f"{fake.person_last_name()} & {fake.person_last_name()}", 1)])
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
        Contact(role=role, name=fake.person_name(), phone=phone(rng),
                email=f"{role.lower()}@{domain}")
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
        operations_description=prose.render(
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


def _policy(fake: Faker, rng: Any, effective: dt.date, completion: dt.date, tiv: float,
            revenue: int, lines: list[str], vehicles: int, payroll: int) -> Policy:
    premiums = [
        ("Commercial Property", round_to(tiv * rng.uniform(0.0012, 0.0035), 1)),
        ("General Liability", round_to(revenue * rng.uniform(0.002, 0.007), 1)),
    ]
    if "Commercial Auto" in lines:
        premiums.append(("Commercial Auto", round_to(vehicles * rng.uniform(2_200, 6_500), 1)))
    if "Workers Compensation" in lines:
        # Roughly 1-4% of payroll across mixed class codes.
        premiums.append(("Workers Compensation", round_to(payroll * rng.uniform(0.01, 0.04), 1)))
    if rng.random() < 0.5:
        premiums.append(("Umbrella", round_to(rng.uniform(3_500, 28_000), 1)))
    total = sum(p for _, p in premiums)
    plan = weighted(rng, [("Annual", 4), ("Quarterly", 3), ("Monthly", 2), ("Semi-Annual", 1)])
    share = {"Annual": 1.0, "Semi-Annual": 0.5, "Quarterly": 0.25, "Monthly": 0.1}[plan]
    return Policy(
        number=fake.policy_number("Commercial Property"),
        status=weighted(rng, [("Quote", 6), ("Renew", 3), ("Bound", 1)]),
        effective_date=iso(effective),
        expiration_date=iso(add_years(effective, 1)),
        lines=tuple(PolicyLine(line=line, premium=float(p)) for line, p in premiums),
        payment_plan=plan,
        billing_method=weighted(rng, [("Direct Bill", 3), ("Agency Bill", 2)]),
        audit_frequency=weighted(rng, [("Annual", 6), ("Semi-Annual", 1), ("Quarterly", 1)]),
        deposit=float(round(total * share)),
        minimum_premium=float(round_to(total * 0.25, 50)),
        total_premium=float(total),
        completion_date=iso(completion),
    )


def build_world(seed: int, knobs: dict[str, Any]) -> World:
    """The whole world model of packet `seed` under `knobs`."""
    fake = new_faker(seed)
    rng = fake.random
    industry = fake.industry()
    effective = dt.date(rng.randint(2025, 2026), rng.randint(1, 12), rng.choice((1, 1, 1, 15)))
    completion = effective - dt.timedelta(days=rng.randint(20, 75))
    home = address(fake, rng.choice(HOME_STATES))
    rows = rng.randint(knobs["sov.min_rows"], knobs["sov.max_rows"])
    employees = rng.randint(max(8, 3 * rows), max(450, 8 * rows))
    revenue = round_to(employees * rng.uniform(90_000, 260_000), 1000)
    locations = build_locations(fake, rng, industry, home, effective, rows, employees, revenue)
    insured = _insured(fake, rng, industry, home, effective, employees, revenue, len(locations))
    insured = insured.model_copy(update={
        "part_time_employees": sum(loc.part_time_employees for loc in locations),
    })
    location_numbers = [loc.number for loc in locations]
    driver_ceiling = knobs["drivers.max_rows"]
    vehicle_count = max(1, min(driver_ceiling, round(driver_ceiling * rng.uniform(0.4, 0.9))))
    vehicles = build_vehicles(fake, rng, industry, vehicle_count, effective, location_numbers)
    drivers = build_drivers(fake, rng, knobs, vehicles, home.state,
                            dt.date.fromisoformat(insured.business_start_date), completion)
    # Every packet carries a driver schedule, so the account insures autos; about half also
    # buy workers compensation here, and then their loss history has WC terms too.
    lines = ["Commercial Property", "General Liability", "Commercial Auto"]
    if rng.random() < 0.5:
        lines.append("Workers Compensation")
    carrier = Carrier(
        name=fake.carrier_name(),
        naic=fake.naic_code(),
        underwriter=fake.person_name(),
        underwriter_office=f"{fake.city()} Office",
    )
    incumbent = fake.carrier_name()
    loss_history = build_loss_history(
        fake, rng, knobs, effective, completion, insured.name, incumbent,
        location_numbers, lines,
    )
    tiv_cents = sum(round(b.tiv * 100) for loc in locations for b in loc.buildings)
    payroll = round_to(revenue * rng.uniform(0.12, 0.30), 1000)
    policy = _policy(fake, rng, effective, completion, dollars(tiv_cents), revenue, lines,
                     len(vehicles), payroll)
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
        rng, knobs, revenue, completion, industry.nature in ("Service", "Office", "Apartments"),
        (fake.person_last_name(), fake.person_last_name()), insured.dba or insured.name,
    )
    underwriting = []
    for question in QUESTIONS:
        yes = rng.random() < question.yes_rate
        underwriting.append(Answer(
            question=question.id,
            answer=yes,
            explanation=rng.choice(question.explanations) if yes else None,
        ))
    return World(
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
        underwriting=tuple(underwriting),
    )
