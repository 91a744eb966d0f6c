"""A Faker provider for commercial-insurance data.

Data lives in class-level tuples; methods are short draws from them through `self.generator`
and `self.random_element`, so everything follows the seeded Faker instance of the packet.
Carrier names are real; every number attached to them (NAIC code, policy number) is synthetic.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from faker.providers import BaseProvider
from faker.providers.person.en_US import Provider as UsPersonProvider


@dataclass(frozen=True)
class Industry:
    """An industry profile: codes and vocabulary that belong together."""

    label: str
    sic: str
    naics: str
    gl_code: str
    nature: str  # a NATURE_OF_BUSINESS value
    occupancies: tuple[str, ...]  # OCCUPANCY values its buildings use
    trade_words: tuple[str, ...]
    operations: tuple[str, ...]  # sentences describing what the business does
    vehicles: bool  # does it run a fleet that needs CDL drivers


INDUSTRIES: tuple[Industry, ...] = (
    Industry(
        "machine shop",
        "3599",
        "332710",
        "57001",
        "Manufacturing",
        ("Light Manufacturing", "Warehouse", "Office"),
        ("Precision", "Machining", "Tool & Die", "Fabrication", "Manufacturing"),
        (
            "CNC machining of aluminum and steel components for aerospace and agricultural OEMs.",
            "Job-shop turning, milling and grinding; no heat treating or plating on premises.",
            "Finished parts are shipped by common carrier; about 15% of sales are exported.",
        ),
        True,
    ),
    Industry(
        "framing contractor",
        "1751",
        "238130",
        "91342",
        "Contractor",
        ("Warehouse", "Office"),
        ("Framing", "Builders", "Construction", "Carpentry", "Structures"),
        (
            "Wood and light-gauge steel framing for multi-family and light commercial projects.",
            "Work is performed as a subcontractor to general contractors within 150 miles.",
            "Crane and rigging work is subcontracted to certified operators.",
        ),
        True,
    ),
    Industry(
        "electrical contractor",
        "1731",
        "238210",
        "92215",
        "Contractor",
        ("Office", "Warehouse"),
        ("Electric", "Electrical Services", "Power Systems", "Wiring"),
        (
            "Commercial and industrial electrical installation, service upgrades and lighting.",
            "About 70% of revenue comes from new construction and 30% from service work.",
        ),
        True,
    ),
    Industry(
        "plumbing and HVAC contractor",
        "1711",
        "238220",
        "98483",
        "Contractor",
        ("Office", "Warehouse"),
        ("Plumbing", "Mechanical", "Heating & Air", "HVAC Services"),
        (
            "Installation and repair of plumbing, heating and air-conditioning systems.",
            "Residential service is about 40% of revenue; commercial installation the rest.",
        ),
        True,
    ),
    Industry(
        "general freight trucking",
        "4213",
        "484121",
        "99793",
        "Service",
        ("Distribution Center", "Office", "Warehouse"),
        ("Transport", "Freight Lines", "Logistics", "Trucking", "Carriers"),
        (
            "Long-haul truckload carriage of dry goods across the lower 48 states.",
            "Tractors are garaged at the terminal; drivers are W-2 employees with CDL-A licenses.",
        ),
        True,
    ),
    Industry(
        "full-service restaurant",
        "5812",
        "722511",
        "16910",
        "Restaurant",
        ("Restaurant", "Retail"),
        ("Grill", "Kitchen", "Bistro", "Tavern", "Restaurant Group"),
        (
            "Full-service restaurants with bar; alcohol is about 25% of sales.",
            "Hours are 11 a.m. to 11 p.m.; no live entertainment and no delivery drivers.",
        ),
        False,
    ),
    Industry(
        "lessor of commercial buildings",
        "6512",
        "531120",
        "61212",
        "Office",
        ("Office", "Retail", "Medical Office", "Warehouse"),
        ("Properties", "Realty", "Holdings", "Real Estate", "Property Partners"),
        (
            "Owns and leases office and retail buildings to unrelated tenants.",
            "Tenants are required to carry liability insurance naming the owner as additional "
            "insured.",
        ),
        False,
    ),
    Industry(
        "apartment owner",
        "6513",
        "531110",
        "60010",
        "Apartments",
        ("Apartments",),
        ("Apartments", "Residential", "Living", "Housing", "Communities"),
        (
            "Owns and manages garden-style apartment communities.",
            "Units are leased on twelve-month terms; no student or subsidized housing.",
        ),
        False,
    ),
    Industry(
        "wholesale distributor",
        "5085",
        "423840",
        "12841",
        "Wholesale",
        ("Warehouse", "Distribution Center", "Office"),
        ("Supply", "Distribution", "Industrial Supply", "Wholesale"),
        (
            "Wholesale distribution of industrial fasteners, fittings and MRO supplies.",
            "No manufacturing or relabeling; products are sold under the makers' labels.",
        ),
        True,
    ),
    Industry(
        "auto repair shop",
        "7538",
        "811111",
        "10073",
        "Service",
        ("Auto Repair", "Office"),
        ("Auto Care", "Automotive", "Motors", "Service Center"),
        (
            "General mechanical repair of customer automobiles and light trucks.",
            "No body or paint work; towing is subcontracted.",
        ),
        False,
    ),
    Industry(
        "hotel operator",
        "7011",
        "721110",
        "45191",
        "Service",
        ("Hotel",),
        ("Hospitality", "Inns", "Hotels", "Suites", "Lodging"),
        (
            "Operates limited-service hotels with breakfast rooms and indoor pools.",
            "No bar or restaurant open to the public; meeting rooms under 2,000 square feet.",
        ),
        False,
    ),
)


@dataclass(frozen=True)
class Question:
    """A general-information question of the application, answered Yes with `yes_rate`."""

    id: str
    text: str
    yes_rate: float
    explanations: tuple[str, ...]  # used when the answer is Yes


QUESTIONS: tuple[Question, ...] = (
    Question(
        "subsidiary",
        "Is the applicant a subsidiary of another entity?",
        0.15,
        (
            "Wholly owned subsidiary of a family holding company.",
            "Eighty percent owned by a private equity fund.",
        ),
    ),
    Question(
        "has_subsidiaries",
        "Does the applicant have any subsidiaries?",
        0.2,
        (
            "One real-estate holding LLC that owns the main premises.",
            "Two operating subsidiaries in neighbouring states.",
        ),
    ),
    Question(
        "safety_program",
        "Is there a formal written safety program in operation?",
        0.7,
        (
            "Written safety manual, monthly safety meetings and a designated safety officer.",
            "OSHA-compliant program with quarterly training.",
        ),
    ),
    Question(
        "hazardous_materials",
        "Any exposure to flammables, explosives or chemicals?",
        0.25,
        (
            "Small quantities of cleaning solvents stored in a flammables cabinet.",
            "Propane for forklifts stored in an outdoor cage.",
        ),
    ),
    Question(
        "other_insurance",
        "Any other insurance with this company?",
        0.1,
        ("Commercial auto policy written with the same carrier.",),
    ),
    Question(
        "declined_cancelled",
        "Any policy or coverage declined, cancelled or non-renewed in the prior three years?",
        0.08,
        (
            "Prior carrier non-renewed the property line after exiting the state.",
            "Umbrella non-renewed when the carrier left the class of business.",
        ),
    ),
    Question(
        "fraud_conviction",
        "During the last five years has any applicant been indicted for or convicted of "
        "fraud, bribery or arson?",
        0.0,
        (),
    ),
    Question(
        "fire_code_violations",
        "Any uncorrected fire or safety code violations?",
        0.04,
        ("Blocked exit cited at one location; corrected within ten days.",),
    ),
    Question(
        "bankruptcy",
        "Has the applicant had a foreclosure, repossession or bankruptcy in the last five years?",
        0.03,
        ("Chapter 11 reorganization completed and discharged.",),
    ),
    Question(
        "judgement_lien",
        "Has the applicant had a judgement or lien during the last five years?",
        0.05,
        ("Mechanic's lien filed by a supplier and released on payment.",),
    ),
    Question(
        "foreign_operations",
        "Does the applicant have foreign operations or products?",
        0.12,
        ("Export sales to Canada and Mexico, about 10% of revenue.",),
    ),
    Question(
        "drones",
        "Does the applicant own, lease or operate any drones?",
        0.1,
        ("One camera drone used for roof inspections by a licensed operator.",),
    ),
)

CARRIERS: tuple[str, ...] = (
    "Travelers Property Casualty Company of America",
    "Hartford Fire Insurance Company",
    "Liberty Mutual Fire Insurance Company",
    "Zurich American Insurance Company",
    "Federal Insurance Company",
    "Continental Casualty Company",
    "Selective Insurance Company of America",
    "The Cincinnati Insurance Company",
    "Hanover Insurance Company",
    "Great American Insurance Company",
    "Westfield Insurance Company",
    "Auto-Owners Insurance Company",
    "Nationwide Mutual Insurance Company",
    "Erie Insurance Exchange",
    "Sentry Insurance Company",
    "Markel American Insurance Company",
)

# Policy-number prefixes by line of business (a package policy may carry property or GL).
POLICY_PREFIXES: dict[str, tuple[str, ...]] = {
    "Commercial Property": ("CPP", "PKG", "CMP", "CPK", "ENP"),
    "General Liability": ("CGL", "GLA", "PKG", "MPL"),
    "Commercial Auto": ("BAP", "CAP", "BA"),
    "Workers Compensation": ("WC", "WCP", "WCA"),
    "Umbrella": ("UMB", "CUP", "XS"),
    "Motor Truck Cargo": ("MTC", "IMC", "CGO"),
}

AGENCY_WORDS: tuple[str, ...] = (
    "Insurance Group",
    "Risk Partners",
    "Insurance Services",
    "Insurance Agency",
    "Brokerage",
    "Risk Advisors",
    "Insurance Associates",
)

CONTACT_ROLES: tuple[str, ...] = ("Accounting", "Claims", "Inspection", "Operations")

CDL_ENDORSEMENTS: tuple[str, ...] = ("H", "N", "P", "T", "X")

VEHICLES: tuple[tuple[str, str, str, int], ...] = (
    # make, model, body type, GVW (lb)
    ("Ford", "F-150", "Pickup", 7050),
    ("Ford", "Transit 250", "Cargo Van", 9070),
    ("Chevrolet", "Silverado 2500HD", "Pickup", 10950),
    ("Ram", "ProMaster 2500", "Cargo Van", 8900),
    ("Isuzu", "NPR-HD", "Box Truck", 14500),
    ("Freightliner", "M2 106", "Straight Truck", 33000),
    ("Freightliner", "Cascadia", "Tractor", 80000),
    ("Kenworth", "T680", "Tractor", 80000),
    ("Peterbilt", "579", "Tractor", 80000),
    ("Toyota", "Tacoma", "Pickup", 5600),
)

# VIN world manufacturer identifiers by make (public WMI assignments).
WMI: dict[str, str] = {
    "Ford": "1FT",
    "Chevrolet": "1GC",
    "Ram": "3C6",
    "Isuzu": "JAL",
    "Freightliner": "1FU",
    "Kenworth": "1XK",
    "Peterbilt": "1XP",
    "Toyota": "3TM",
}

VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
_VIN_VALUES = {
    **{str(d): d for d in range(10)},
    **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
    **dict(zip("JKLMN", range(1, 6), strict=True)),
    "P": 7,
    "R": 9,
    **dict(zip("STUVWXYZ", range(2, 10), strict=True)),
}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
# Position-10 model-year codes for 2010-2030 (letters I, O, Q, U, Z and digit 0 never used).
_VIN_YEARS = {
    year: code for year, code in zip(range(2010, 2031), "ABCDEFGHJKLMNPRSTVWXY", strict=True)
}


def vin_check_digit(vin: str) -> str:
    """The ISO 3779 / 49 CFR 565 check digit of a 17-character VIN (position 9)."""
    total = sum(_VIN_VALUES[ch] * weight for ch, weight in zip(vin, _VIN_WEIGHTS, strict=True))
    remainder = total % 11
    return "X" if remainder == 10 else str(remainder)


@cache
def _cumulative(table: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Names and cumulative weights of one of Faker's weighted name tables, computed once.

    Faker rebuilds the cumulative weights of a table of thousands of names on every draw;
    packets with hundreds of drivers and claimants draw thousands of names.
    """
    names: Mapping[str, float] = getattr(UsPersonProvider, table)
    return tuple(names), tuple(itertools.accumulate(names.values()))


class InsuranceProvider(BaseProvider):
    """Domain data for submission packets."""

    industries = INDUSTRIES
    carriers = CARRIERS
    policy_prefixes = POLICY_PREFIXES
    agency_words = AGENCY_WORDS
    contact_roles = CONTACT_ROLES
    vehicle_models = VEHICLES

    def _weighted_name(self, table: str) -> str:
        names, cumulative = _cumulative(table)
        rng: random.Random = self.generator.random
        return rng.choices(names, cum_weights=cumulative, k=1)[0]

    def person_last_name(self) -> str:
        """A US surname, weighted by frequency like Faker's `last_name`."""
        return self._weighted_name("last_names")

    def person_first_name(self, sex: str | None = None) -> str:
        """A US given name for `sex` ("Male"/"Female"), or of either sex."""
        if sex == "Male":
            return self._weighted_name("first_names_male")
        if sex == "Female":
            return self._weighted_name("first_names_female")
        return self._weighted_name("first_names")

    def person_name(self) -> str:
        return f"{self.person_first_name()} {self.person_last_name()}"

    def industry(self) -> Industry:
        return self.random_element(self.industries)

    def carrier_name(self) -> str:
        return self.random_element(self.carriers)

    def naic_code(self) -> str:
        return self.numerify("%####")

    def fein(self) -> str:
        return self.numerify("%#-#######")

    def policy_number(self, line: str = "Commercial Property") -> str:
        prefix = self.random_element(self.policy_prefixes[line])
        return f"{prefix}{self.numerify('%######')}"

    def claim_number(self, year: int) -> str:
        return f"CL-{year}-{self.numerify('%####')}"

    def agency_code(self) -> str:
        return self.bothify("AG-####??").upper()

    def customer_id(self) -> str:
        return self.numerify("C%#####")

    def npn(self) -> str:
        return self.numerify("%#######")

    def producer_license(self, state: str) -> str:
        return f"{state}{self.numerify('%######')}"

    def agency_name(self, last_name: str) -> str:
        return f"{last_name} {self.random_element(self.agency_words)}"

    def driver_license(self, state: str) -> str:
        # One synthetic shape for all states: a letter then 8 digits, prefixed by the state
        # so numbers never collide across states within a packet.
        return f"{state[0]}{self.numerify('%#######')}"

    def vehicle_model(self) -> tuple[str, str, str, int]:
        return self.random_element(self.vehicle_models)

    def vin_for(self, make: str, year: int) -> str:
        """A VIN with a valid check digit and the model-year code at position 10."""
        rng = self.generator.random
        body = "".join(rng.choices(VIN_CHARS, k=5))
        serial = f"{rng.randrange(1_000_000):06d}"
        vin = f"{WMI[make]}{body}0{_VIN_YEARS[year]}{rng.choice(VIN_CHARS)}{serial}"
        return vin[:8] + vin_check_digit(vin) + vin[9:]
