"""Rating classifications by industry: GL hazards, workers-compensation classes, fleet use.

Class codes follow the public numbering schemes (ISO five-digit GL classes, NCCI four-digit
WC classes); descriptions are paraphrased and every rate range is synthetic, chosen to give
premiums of a plausible size. The first GL class of a profile is the industry's own
`Industry.gl_code`, so the application and the GL section name the same classification.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GlClass:
    """A GL classification: exposure basis and the rate range per basis unit."""

    code: str
    description: str
    basis: str  # a GL_PREMIUM_BASIS value
    premises_rate: tuple[float, float]
    products_rate: tuple[float, float] | None  # None: products-completed ops included


@dataclass(frozen=True)
class WcClass:
    """A workers-compensation class: share of the headcount, rate per $100 of payroll, and
    the wage of its employees relative to the account's base wage."""

    code: str
    description: str
    share: float
    rate: tuple[float, float]
    wage_factor: float


@dataclass(frozen=True)
class RatingProfile:
    gl: tuple[GlClass, ...]  # the first is the primary classification, at every location
    subcontracted: GlClass | None  # an account-level class on the cost of subcontracted work
    wc: tuple[WcClass, ...]  # headcount shares sum to 1
    commodities: str  # what the fleet carries (motor truck cargo)
    vehicle_use: str  # a VEHICLE_USE value
    radius: tuple[str, ...]  # RADIUS_CLASS values the fleet runs at


CLERICAL = WcClass("8810", "Clerical Office Employees NOC", 0.15, (0.08, 0.24), 0.85)
OUTSIDE_SALES = WcClass("8742", "Salespersons or Collectors - Outside", 0.08, (0.22, 0.58), 1.3)
SUBCONTRACTED = GlClass(
    "91583",
    "Contractors - Subcontracted Work - in Connection with Building Construction, "
    "Reconstruction, Repair or Erection - NOC",
    "Total Cost",
    (0.55, 1.65),
    (0.45, 1.35),
)

PROFILES: dict[str, RatingProfile] = {
    "machine shop": RatingProfile(
        (
            GlClass(
                "57001",
                "Machine Shops - Metalworking - NOC",
                "Gross Sales",
                (0.45, 1.2),
                (0.8, 2.4),
            ),
        ),
        None,
        (WcClass("3632", "Machine Shop NOC", 0.77, (2.2, 4.8), 1.0), CLERICAL, OUTSIDE_SALES),
        "machined metal parts and tooling",
        "Commercial",
        ("Local", "Intermediate"),
    ),
    "framing contractor": RatingProfile(
        (
            GlClass(
                "91342",
                "Carpentry - Construction of Residential Property Not Exceeding Three Stories",
                "Payroll",
                (8.0, 18.0),
                (6.0, 14.0),
            ),
        ),
        SUBCONTRACTED,
        (
            WcClass(
                "5645", "Carpentry - Detached One or Two Family Dwellings", 0.6, (9.0, 18.0), 1.0
            ),
            WcClass("5403", "Carpentry NOC", 0.25, (6.0, 13.0), 1.05),
            CLERICAL,
        ),
        "lumber, trusses and framing materials",
        "Service",
        ("Local", "Intermediate"),
    ),
    "electrical contractor": RatingProfile(
        (
            GlClass(
                "92215", "Electrical Work - Within Buildings", "Payroll", (4.0, 10.0), (3.0, 8.0)
            ),
        ),
        SUBCONTRACTED,
        (
            WcClass("5190", "Electrical Wiring - Within Buildings", 0.77, (3.0, 7.0), 1.05),
            CLERICAL,
            OUTSIDE_SALES,
        ),
        "electrical wire, conduit and fixtures",
        "Service",
        ("Local", "Intermediate"),
    ),
    "plumbing and HVAC contractor": RatingProfile(
        (
            GlClass(
                "98483", "Plumbing - Commercial and Industrial", "Payroll", (5.0, 12.0), (4.0, 10.0)
            ),
        ),
        SUBCONTRACTED,
        (WcClass("5183", "Plumbing NOC", 0.77, (3.5, 7.5), 1.05), CLERICAL, OUTSIDE_SALES),
        "pipe, fittings and HVAC equipment",
        "Service",
        ("Local", "Intermediate"),
    ),
    "general freight trucking": RatingProfile(
        (GlClass("99793", "Truckers", "Gross Sales", (0.4, 1.1), None),),
        None,
        (
            WcClass("7219", "Trucking - NOC - All Employees and Drivers", 0.75, (5.0, 11.0), 1.0),
            WcClass("8380", "Automobile Service or Repair Center", 0.1, (2.5, 5.0), 0.95),
            CLERICAL,
        ),
        "general dry freight, no hazardous materials",
        "Commercial",
        ("Intermediate", "Long Distance"),
    ),
    "full-service restaurant": RatingProfile(
        (
            GlClass(
                "16910",
                "Restaurants - with Sale of Alcoholic Beverages - with Table Service",
                "Gross Sales",
                (1.8, 4.5),
                (0.4, 1.0),
            ),
        ),
        None,
        (
            WcClass("9079", "Restaurant NOC", 0.88, (1.2, 3.2), 1.0),
            WcClass("8810", "Clerical Office Employees NOC", 0.12, (0.08, 0.24), 1.2),
        ),
        "food, beverages and restaurant supplies",
        "Retail",
        ("Local",),
    ),
    "lessor of commercial buildings": RatingProfile(
        (
            GlClass(
                "61212",
                "Buildings or Premises - Bank or Office - Mercantile or "
                "Manufacturing (Lessor's Risk Only)",
                "Area",
                (45.0, 140.0),
                None,
            ),
        ),
        None,
        (
            WcClass(
                "9015",
                "Building Operation by Owner, Lessee or Real Estate Management Firm",
                0.6,
                (2.5, 6.0),
                1.0,
            ),
            WcClass("8810", "Clerical Office Employees NOC", 0.4, (0.08, 0.24), 1.15),
        ),
        "building maintenance supplies",
        "Service",
        ("Local",),
    ),
    "apartment owner": RatingProfile(
        (GlClass("60010", "Apartment Buildings", "Units", (55.0, 140.0), None),),
        None,
        (
            WcClass(
                "9015",
                "Building Operation by Owner, Lessee or Real Estate Management Firm",
                0.7,
                (2.5, 6.0),
                1.0,
            ),
            WcClass("8810", "Clerical Office Employees NOC", 0.3, (0.08, 0.24), 1.1),
        ),
        "maintenance supplies and appliances",
        "Service",
        ("Local",),
    ),
    "wholesale distributor": RatingProfile(
        (
            GlClass(
                "12841",
                "Industrial Supply Distributors - Wholesale",
                "Gross Sales",
                (0.35, 0.9),
                (0.3, 0.8),
            ),
        ),
        None,
        (
            WcClass("8018", "Store - Wholesale NOC", 0.7, (1.8, 4.2), 1.0),
            CLERICAL,
            WcClass("8742", "Salespersons or Collectors - Outside", 0.15, (0.22, 0.58), 1.3),
        ),
        "industrial fasteners and MRO supplies",
        "Commercial",
        ("Local", "Intermediate"),
    ),
    "auto repair shop": RatingProfile(
        (
            GlClass(
                "10073",
                "Automobile Repair or Service Shops - NOC",
                "Payroll",
                (6.0, 15.0),
                (2.0, 5.0),
            ),
        ),
        None,
        (WcClass("8380", "Automobile Service or Repair Center", 0.85, (2.5, 5.5), 1.0), CLERICAL),
        "auto parts and customer vehicle components",
        "Service",
        ("Local",),
    ),
    "hotel operator": RatingProfile(
        (
            GlClass(
                "45191",
                "Hotels and Motels - with Pools - without Restaurants",
                "Gross Sales",
                (1.2, 3.0),
                None,
            ),
        ),
        None,
        (WcClass("9052", "Hotel - All Other Employees", 0.85, (1.6, 4.0), 1.0), CLERICAL),
        "linens, food and guest supplies",
        "Service",
        ("Local",),
    ),
}

# States whose workers compensation is written only by a state fund: a private carrier's
# policy cannot cover employees there.
MONOPOLISTIC_STATES: frozenset[str] = frozenset({"ND", "OH", "WA", "WY"})
