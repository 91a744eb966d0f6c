"""Code lists: the one place every enumerated value lives.

Schemas take their enums from here, renderers draw these values (or their documented
abbreviations), and scoring reads `ALIASES` to accept an abbreviation for its full name and the
other way round. A value a renderer can draw that is missing here would be silently nulled under
strict structured output, so renderers only ever draw `CodeList` members.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from packetbench.core.errors import UsageError

# The difficulty tiers, easiest first (presets in generator.tiers).
TIERS: tuple[str, ...] = ("N1", "N2", "N3", "N4", "N5")


def parse_tiers(text: str) -> tuple[str, ...]:
    """The tiers a `--tiers` value names (`N1,n3` -> ("N1", "N3")), each known and named once."""
    tiers = tuple(t.strip().upper() for t in text.split(",") if t.strip())
    if not tiers:
        raise UsageError("--tiers names no tier")
    unknown = [t for t in tiers if t not in TIERS]
    if unknown:
        raise UsageError(f"unknown tier {unknown[0]!r}; choose from {', '.join(TIERS)}")
    if len(set(tiers)) != len(tiers):
        raise UsageError("--tiers names a tier twice")
    return tiers


@dataclass(frozen=True)
class CodeList:
    """An enumeration with canonical values and optional ACORD-style abbreviations."""

    name: str
    values: tuple[str, ...]
    abbreviations: dict[str, str] = field(default_factory=dict)  # canonical -> abbreviation

    def __post_init__(self) -> None:
        unknown = set(self.abbreviations) - set(self.values)
        if unknown:
            raise ValueError(f"{self.name}: abbreviations for unknown values {sorted(unknown)}")

    def abbreviation(self, value: str) -> str:
        """The abbreviation of `value`, or the value itself when it has none."""
        return self.abbreviations.get(value, value)


STATES = CodeList(
    "state",
    (
        "AL",
        "AK",
        "AZ",
        "AR",
        "CA",
        "CO",
        "CT",
        "DE",
        "DC",
        "FL",
        "GA",
        "HI",
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
        "PR",
        "GU",
        "VI",
        "AS",
        "MP",
    ),
)

CONSTRUCTION = CodeList(
    "construction",
    (
        "Frame",
        "Joisted Masonry",
        "Non-Combustible",
        "Masonry Non-Combustible",
        "Modified Fire Resistive",
        "Fire Resistive",
    ),
    {
        "Frame": "F",
        "Joisted Masonry": "JM",
        "Non-Combustible": "NC",
        "Masonry Non-Combustible": "MNC",
        "Modified Fire Resistive": "MFR",
        "Fire Resistive": "FR",
    },
)

ROOF_COVERING = CodeList(
    "roof_covering",
    (
        "Asphalt Shingle",
        "Architectural Shingle",
        "Built-Up with Gravel",
        "Modified Bitumen",
        "Single-Ply TPO",
        "Single-Ply EPDM",
        "Standing Seam Metal",
        "Metal Panel",
        "Clay Tile",
        "Concrete Tile",
        "Slate",
        "Spray Foam",
    ),
)

SPRINKLER_TYPE = CodeList(
    "sprinkler_type", ("Wet Pipe", "Dry Pipe", "Pre-Action", "Deluge", "ESFR", "None")
)

FIRE_ALARM = CodeList(
    "fire_alarm", ("Central Station", "Local", "Proprietary", "Remote Station", "None")
)

BURGLAR_ALARM = CodeList(
    "burglar_alarm", ("Central Station", "Local Gong", "Police Connect", "None")
)

WIND_CLASS = CodeList("wind_class", ("Resistive", "Semi-Resistive", "Other"))

OCCUPANCY = CodeList(
    "occupancy",
    (
        "Office",
        "Retail",
        "Warehouse",
        "Light Manufacturing",
        "Heavy Manufacturing",
        "Restaurant",
        "Apartments",
        "Hotel",
        "Medical Office",
        "Distribution Center",
        "Auto Repair",
        "School",
        "Self Storage",
        "Vacant Land",
    ),
)

VALUATION = CodeList(
    "valuation",
    ("Replacement Cost", "Actual Cash Value", "Agreed Amount", "Market Value"),
    {
        "Replacement Cost": "RC",
        "Actual Cash Value": "ACV",
        "Agreed Amount": "AA",
        "Market Value": "MV",
    },
)

CAUSES_OF_LOSS = CodeList(
    "causes_of_loss", ("Basic", "Broad", "Special", "Special Excluding Theft", "Earthquake")
)

SUBJECT_OF_INSURANCE = CodeList(
    "subject_of_insurance",
    (
        "Building",
        "Business Personal Property",
        "Business Income with Extra Expense",
        "Extra Expense",
        "Stock",
        "Machinery and Equipment",
    ),
    {
        "Building": "BLDG",
        "Business Personal Property": "BPP",
        "Business Income with Extra Expense": "BUSIN",
        "Extra Expense": "EE",
        "Stock": "STK",
        "Machinery and Equipment": "MACEQ",
    },
)

DEDUCTIBLE_TYPE = CodeList("deductible_type", ("Flat Dollar", "Percentage", "Waiting Period"))

CLAIM_STATUS = CodeList(
    "claim_status",
    ("Open", "Closed", "Closed Without Payment", "Re-opened", "Denied", "Subrogation", "In Suit"),
    {"Closed Without Payment": "CWP"},
)

# A claim in one of these statuses is closed (no reserve); every other status is open.
CLOSED_CLAIM_STATUSES: frozenset[str] = frozenset({"Closed", "Closed Without Payment", "Denied"})
OPEN_CLAIM_STATUSES: frozenset[str] = frozenset(CLAIM_STATUS.values) - CLOSED_CLAIM_STATUSES

LOSS_LINE = CodeList(
    "loss_line",
    (
        "Commercial Property",
        "General Liability",
        "Commercial Auto",
        "Workers Compensation",
        "Umbrella",
        "Motor Truck Cargo",
    ),
    {
        "Commercial Property": "PROP",
        "General Liability": "GL",
        "Commercial Auto": "AUTO",
        "Workers Compensation": "WC",
        "Umbrella": "UMB",
        "Motor Truck Cargo": "MTC",
    },
)

# The short ids of the lines of business (the `lines` knob, and the lines a document type
# needs), in packet order, each naming its LOSS_LINE value.
LINE_IDS: dict[str, str] = {
    "property": "Commercial Property",
    "gl": "General Liability",
    "auto": "Commercial Auto",
    "wc": "Workers Compensation",
    "umbrella": "Umbrella",
    "cargo": "Motor Truck Cargo",
}

ENTITY_TYPE = CodeList(
    "entity_type",
    (
        "Corporation",
        "Subchapter S Corporation",
        "Limited Liability Company",
        "Partnership",
        "Joint Venture",
        "Individual",
        "Trust",
        "Not For Profit",
    ),
    {"Limited Liability Company": "LLC", "Subchapter S Corporation": "S Corp"},
)

NATURE_OF_BUSINESS = CodeList(
    "nature_of_business",
    (
        "Apartments",
        "Contractor",
        "Manufacturing",
        "Office",
        "Restaurant",
        "Retail",
        "Service",
        "Wholesale",
        "Institutional",
    ),
)

TRANSACTION_STATUS = CodeList(
    "transaction_status", ("Quote", "Issue", "Renew", "Bound", "Change", "Cancel")
)

PAYMENT_PLAN = CodeList(
    "payment_plan",
    ("Annual", "Semi-Annual", "Quarterly", "Monthly"),
    {"Annual": "AN", "Semi-Annual": "SA", "Quarterly": "QT", "Monthly": "MO"},
)

BILLING_METHOD = CodeList("billing_method", ("Direct Bill", "Agency Bill"))

AUDIT_FREQUENCY = CodeList(
    "audit_frequency",
    ("Annual", "Semi-Annual", "Quarterly", "Monthly"),
    {"Annual": "A", "Semi-Annual": "S", "Quarterly": "Q", "Monthly": "M"},
)

GENDER = CodeList("gender", ("Male", "Female", "Unspecified"), {"Male": "M", "Female": "F"})

MARITAL_STATUS = CodeList(
    "marital_status",
    ("Single", "Married", "Divorced", "Separated", "Widowed", "Domestic Partner"),
    {
        "Single": "S",
        "Married": "M",
        "Divorced": "D",
        "Separated": "P",
        "Widowed": "W",
        "Domestic Partner": "C",
    },
)

LICENSE_CLASS = CodeList("license_class", ("CDL-A", "CDL-B", "CDL-C", "Regular"))

DRIVER_POSITION = CodeList(
    "driver_position", ("Owner", "Employee", "Independent Contractor", "Officer")
)

FINANCIAL_BASIS = CodeList(
    "financial_basis", ("Audited", "Reviewed", "Compiled", "Internally Prepared")
)

GL_PREMIUM_BASIS = CodeList(
    "gl_premium_basis",
    ("Gross Sales", "Payroll", "Area", "Units", "Total Cost", "Admissions"),
    {
        "Gross Sales": "S",
        "Payroll": "P",
        "Area": "A",
        "Units": "U",
        "Total Cost": "C",
        "Admissions": "M",
    },
)

COVERAGE_TRIGGER = CodeList("coverage_trigger", ("Occurrence", "Claims-Made"))

AGGREGATE_APPLIES = CodeList("aggregate_applies", ("Policy", "Project", "Location"))

DEDUCTIBLE_BASIS = CodeList("deductible_basis", ("Per Claim", "Per Occurrence"))

VEHICLE_SIZE_CLASS = CodeList(
    "vehicle_size_class",
    (
        "Light Truck",
        "Medium Truck",
        "Heavy Truck",
        "Extra-Heavy Truck",
        "Heavy Truck-Tractor",
        "Extra-Heavy Truck-Tractor",
    ),
    {
        "Light Truck": "LT",
        "Medium Truck": "MT",
        "Heavy Truck": "HT",
        "Extra-Heavy Truck": "XHT",
        "Heavy Truck-Tractor": "HTT",
        "Extra-Heavy Truck-Tractor": "XTT",
    },
)

VEHICLE_USE = CodeList("vehicle_use", ("Service", "Retail", "Commercial"))

RADIUS_CLASS = CodeList(
    "radius_class",
    ("Local", "Intermediate", "Long Distance"),
    {"Local": "L", "Intermediate": "I", "Long Distance": "LD"},
)

VEHICLE_OWNERSHIP = CodeList("vehicle_ownership", ("Owned", "Financed", "Leased"))

# Covered-auto symbols of the business auto coverage form that a schedule can tick.
AUTO_SYMBOL = CodeList("auto_symbol", ("1", "2", "3", "4", "7", "8", "9"))

WC_MARKET = CodeList("wc_market", ("Voluntary", "Assigned Risk"))

# NCCI injury types of the claims on an experience-rating worksheet, with their one-digit codes.
INJURY_TYPE = CodeList(
    "injury_type",
    (
        "Death",
        "Permanent Total",
        "Major Permanent Partial",
        "Minor Permanent Partial",
        "Temporary Total",
        "Medical Only",
    ),
    {
        "Death": "1",
        "Permanent Total": "2",
        "Major Permanent Partial": "3",
        "Minor Permanent Partial": "4",
        "Temporary Total": "5",
        "Medical Only": "6",
    },
)

# Whether a claim on the unit-statistical report was still open or reported final.
EXPERIENCE_CLAIM_STATUS = CodeList(
    "experience_claim_status", ("Open", "Final"), {"Open": "O", "Final": "F"}
)

# Operating authority of a trucking supplement's carrier, and how a habitational risk rents.
TRUCKING_AUTHORITY = CodeList(
    "trucking_authority", ("Common Carrier", "Contract Carrier", "Private Carrier")
)
RENTAL_BASIS = CodeList("rental_basis", ("Monthly", "Nightly"))

INCLUSION = CodeList("inclusion", ("Included", "Excluded"))

INTEREST_TYPE = CodeList(
    "interest_type",
    (
        "Mortgagee",
        "Loss Payee",
        "Lender's Loss Payable",
        "Lienholder",
        "Additional Insured",
        "Lessor",
    ),
)

UMBRELLA_FORM = CodeList("umbrella_form", ("Umbrella", "Excess"))

BOP_POLICY_TYPE = CodeList("bop_policy_type", ("Standard", "Special"))

INSURED_INTEREST = CodeList("insured_interest", ("Owner", "Tenant"))

CANCELLATION_REASON = CodeList(
    "cancellation_reason",
    ("Insured's Request", "Policy Rewritten", "Non-Payment", "Underwriting", "Other"),
)

RETURN_PREMIUM_METHOD = CodeList("return_premium_method", ("Flat", "Pro Rata", "Short Rate"))

YES_NO = CodeList("yes_no", ("Yes", "No"))

# --- correspondence, inspections and policies ----------------------------------------------

SUBMISSION_TYPE = CodeList("submission_type", ("New Business", "Renewal"))

MARKETING_REASON = CodeList(
    "marketing_reason",
    (
        "Rate Increase at Renewal",
        "Incumbent Non-Renewal",
        "Broader Coverage Sought",
        "Service Concerns",
        "Carrier Appetite Change",
        "Account Growth",
    ),
)

SURVEY_TYPE = CodeList(
    "survey_type",
    ("New Business Survey", "Renewal Survey", "Recommendation Follow-up", "Post-Loss Survey"),
)

RISK_GRADE = CodeList(
    "risk_grade",
    ("Superior", "Above Average", "Average", "Below Average", "Poor"),
)

CONDITION = CodeList("condition", ("Good", "Fair", "Poor"))

FLOOD_ZONE = CodeList("flood_zone", ("X", "X500", "A", "AE", "VE"))

RECOMMENDATION_PRIORITY = CodeList(
    "recommendation_priority",
    ("Critical", "Important", "Advisory"),
)

RECOMMENDATION_CATEGORY = CodeList(
    "recommendation_category",
    (
        "Fire Protection",
        "Electrical",
        "Housekeeping",
        "Roof",
        "Security",
        "Natural Hazard",
        "Management",
    ),
)

RECOMMENDATION_STATUS = CodeList(
    "recommendation_status",
    ("New", "Open", "Complete", "Waived"),
)


ALL: tuple[CodeList, ...] = (
    STATES,
    CONSTRUCTION,
    ROOF_COVERING,
    SPRINKLER_TYPE,
    FIRE_ALARM,
    BURGLAR_ALARM,
    WIND_CLASS,
    OCCUPANCY,
    VALUATION,
    CAUSES_OF_LOSS,
    SUBJECT_OF_INSURANCE,
    DEDUCTIBLE_TYPE,
    CLAIM_STATUS,
    LOSS_LINE,
    ENTITY_TYPE,
    NATURE_OF_BUSINESS,
    TRANSACTION_STATUS,
    PAYMENT_PLAN,
    BILLING_METHOD,
    AUDIT_FREQUENCY,
    GENDER,
    MARITAL_STATUS,
    LICENSE_CLASS,
    DRIVER_POSITION,
    FINANCIAL_BASIS,
    GL_PREMIUM_BASIS,
    COVERAGE_TRIGGER,
    AGGREGATE_APPLIES,
    DEDUCTIBLE_BASIS,
    VEHICLE_SIZE_CLASS,
    VEHICLE_USE,
    RADIUS_CLASS,
    VEHICLE_OWNERSHIP,
    AUTO_SYMBOL,
    WC_MARKET,
    INJURY_TYPE,
    EXPERIENCE_CLAIM_STATUS,
    TRUCKING_AUTHORITY,
    RENTAL_BASIS,
    INCLUSION,
    INTEREST_TYPE,
    UMBRELLA_FORM,
    BOP_POLICY_TYPE,
    INSURED_INTEREST,
    CANCELLATION_REASON,
    RETURN_PREMIUM_METHOD,
    YES_NO,
    SUBMISSION_TYPE,
    MARKETING_REASON,
    SURVEY_TYPE,
    RISK_GRADE,
    CONDITION,
    FLOOD_ZONE,
    RECOMMENDATION_PRIORITY,
    RECOMMENDATION_CATEGORY,
    RECOMMENDATION_STATUS,
)


def aliases() -> dict[str, tuple[str, str]]:
    """Every (abbreviation, full name) pair, keyed by code-list name and abbreviation.

    Returned as ``{"construction:MNC": ("MNC", "Masonry Non-Combustible"), ...}`` so scoring
    can accept either spelling in both directions.
    """
    pairs: dict[str, tuple[str, str]] = {}
    for code_list in ALL:
        for full, abbr in code_list.abbreviations.items():
            pairs[f"{code_list.name}:{abbr}"] = (abbr, full)
    return pairs
