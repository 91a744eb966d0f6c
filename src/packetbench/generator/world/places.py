"""Addresses for the insured, its locations and its broker."""

from __future__ import annotations

from faker import Faker

from packetbench.generator.world.models import Address

# Common US county names; the world is fictional, so a county only has to look plausible.
COUNTIES: tuple[str, ...] = (
    "Washington",
    "Jefferson",
    "Franklin",
    "Jackson",
    "Lincoln",
    "Madison",
    "Montgomery",
    "Clay",
    "Marion",
    "Monroe",
    "Greene",
    "Union",
    "Wayne",
    "Warren",
    "Hamilton",
    "Marshall",
    "Clark",
    "Lake",
    "Polk",
    "Douglas",
    "Fayette",
    "Grant",
    "Harrison",
    "Johnson",
    "Lee",
)

# States the insured can be domiciled in (the 50 states and DC).
HOME_STATES: tuple[str, ...] = (
    "AL",
    "AZ",
    "AR",
    "CA",
    "CO",
    "CT",
    "DE",
    "DC",
    "FL",
    "GA",
    "ID",
    "IL",
    "IN",
    "IA",
    "KS",
    "KY",
    "LA",
    "ME",
    "MD",
    "MA",
    "MI",
    "MN",
    "MS",
    "MO",
    "MT",
    "NE",
    "NV",
    "NH",
    "NJ",
    "NM",
    "NY",
    "NC",
    "ND",
    "OH",
    "OK",
    "OR",
    "PA",
    "RI",
    "SC",
    "SD",
    "TN",
    "TX",
    "UT",
    "VT",
    "VA",
    "WA",
    "WV",
    "WI",
    "WY",
)


def address(fake: Faker, state: str) -> Address:
    street = f"{fake.building_number()} {fake.street_name()}"
    if fake.random.random() < 0.2:
        street += f" Suite {fake.random.randint(100, 950)}"
    return Address(
        street=street,
        city=fake.city(),
        state=state,
        zip=fake.zipcode_in_state(state),
        county=fake.random_element(COUNTIES),
    )
