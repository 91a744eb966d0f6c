"""Question banks and vocabulary of the carriers' supplemental applications, by class of
business: trucking, contractors, restaurants and habitational risks.

Each supplement's document model declares one field per question id, and the world stores one
answer per question, so the form and the world agree (a test keeps the two in step).
"""

from __future__ import annotations

from packetbench.generator.fakers.insurance import Question

TRUCKING_QUESTIONS: tuple[Question, ...] = (
    Question(
        "hazmat",
        "Are hazardous materials requiring placards ever hauled?",
        0.08,
        ("Placarded loads of paint and solvents, under ten per year.",),
    ),
    Question(
        "team_drivers",
        "Are team drivers or sleeper berths used?",
        0.25,
        ("Two husband-and-wife teams run the coast-to-coast lanes.",),
    ),
    Question(
        "owner_operators",
        "Are owner-operators or leased-on drivers used?",
        0.3,
        ("Owner-operators under one-year leases with their own physical damage cover.",),
    ),
    Question(
        "drug_testing",
        "Is there a DOT drug and alcohol testing program?",
        0.95,
        ("Consortium program with random testing at the federal rate.",),
    ),
    Question(
        "eld",
        "Are electronic logging devices installed in every power unit?",
        0.92,
        ("Cab-mounted ELDs with dispatch integration in every tractor.",),
    ),
    Question(
        "mvr_annual",
        "Are driver MVRs reviewed at hire and at least annually?",
        0.9,
        ("MVRs pulled at hire and every January by the safety manager.",),
    ),
    Question(
        "trailer_interchange",
        "Are trailers interchanged with other carriers?",
        0.2,
        ("Interchange agreements with two rail-ramp drayage partners.",),
    ),
    Question(
        "refrigerated",
        "Are refrigerated loads hauled?",
        0.15,
        ("Produce in reefer trailers with temperature recorders.",),
    ),
)

CONTRACTOR_QUESTIONS: tuple[Question, ...] = (
    Question(
        "over_three_stories",
        "Is any work performed on exteriors above three stories?",
        0.15,
        ("Occasional siding repair on four-story buildings from lifts.",),
    ),
    Question(
        "excavation",
        "Is any excavation, trenching or blasting performed?",
        0.2,
        ("Shallow trenching for utility runs, no blasting.",),
    ),
    Question(
        "roofing",
        "Is any roofing work performed?",
        0.1,
        ("Minor roof penetrations for equipment curbs only.",),
    ),
    Question(
        "hazardous_waste",
        "Is any asbestos, lead or mold abatement performed?",
        0.05,
        ("Lead-safe practices on pre-1978 residential remodels.",),
    ),
    Question(
        "written_contracts",
        "Are written contracts used with every customer?",
        0.85,
        ("Standard AIA-form contracts on every commercial job.",),
    ),
    Question(
        "hold_harmless",
        "Do subcontract agreements include hold-harmless clauses?",
        0.75,
        ("Mutual indemnity clause in every subcontract.",),
    ),
    Question(
        "sub_certificates",
        "Are certificates of insurance obtained from every subcontractor?",
        0.85,
        ("Certificates with $1,000,000 limits kept on file.",),
    ),
    Question(
        "safety_program",
        "Is there a written safety program with jobsite inspections?",
        0.8,
        ("Weekly toolbox talks and monthly jobsite audits.",),
    ),
)

RESTAURANT_QUESTIONS: tuple[Question, ...] = (
    Question(
        "deep_fryers",
        "Are deep-fat fryers used?",
        0.8,
        ("Two fryers under the hood, protected by the wet-chemical system.",),
    ),
    Question(
        "hood_system",
        "Is a UL 300 wet-chemical hood suppression system installed?",
        0.9,
        ("UL 300 system inspected semi-annually by a licensed vendor.",),
    ),
    Question(
        "hood_cleaning",
        "Are hoods and ducts professionally cleaned at least quarterly?",
        0.85,
        ("Quarterly contract cleaning with service tags on file.",),
    ),
    Question(
        "entertainment",
        "Is live entertainment or dancing offered?",
        0.2,
        ("Acoustic music on Friday evenings, no dance floor.",),
    ),
    Question(
        "security_staff",
        "Is security staff or door staff employed?",
        0.1,
        ("A door host checks identification after 9 p.m. on weekends.",),
    ),
    Question(
        "delivery",
        "Does the restaurant offer delivery by its own employees?",
        0.3,
        ("Two employees deliver within five miles in their own cars.",),
    ),
    Question(
        "catering",
        "Is catering off premises offered?",
        0.25,
        ("Catering of corporate lunches, about twice a month.",),
    ),
    Question(
        "late_hours",
        "Is the premises open after midnight?",
        0.1,
        ("Bar service until 1 a.m. on Fridays and Saturdays.",),
    ),
)

HABITATIONAL_QUESTIONS: tuple[Question, ...] = (
    Question(
        "pool",
        "Is there a swimming pool, spa or fitness room?",
        0.4,
        ("Fenced outdoor pool with self-closing gate, no diving board.",),
    ),
    Question(
        "playground",
        "Is there a playground?",
        0.2,
        ("Playground with rubber surfacing inspected quarterly.",),
    ),
    Question(
        "subsidized",
        "Are any units government-subsidized?",
        0.15,
        ("Twelve units under a housing assistance contract.",),
    ),
    Question(
        "student_housing",
        "Is any building more than 25% student housing?",
        0.08,
        ("One building near campus leased mostly to graduate students.",),
    ),
    Question(
        "short_term",
        "Are any units rented for terms under 30 days?",
        0.12,
        ("Four furnished units offered for corporate stays.",),
    ),
    Question(
        "smoke_detectors",
        "Are hard-wired smoke detectors installed in every unit?",
        0.9,
        ("Hard-wired interconnected detectors replaced in 2021.",),
    ),
    Question(
        "aluminum_wiring",
        "Is there any aluminum branch wiring?",
        0.05,
        ("Aluminum wiring remediated with COPALUM connectors.",),
    ),
    Question(
        "security_patrol",
        "Is there on-site management or a security patrol?",
        0.55,
        ("Resident manager on site and a patrol service at night.",),
    ),
)

# The general supplemental application every packet carries (whatever the class of business).
# Questions whose answer the world already knows (the application's own questions, the
# buildings' protection) repeat it: see generator.world.supplements._general.
GENERAL_QUESTIONS: tuple[Question, ...] = (
    Question(
        "declined_cancelled",
        "Has any carrier declined, cancelled or non-renewed "
        "coverage for the applicant in the past three years?",
        0.0,
        (),
    ),
    Question(
        "safety_program",
        "Is a written safety program in place, with a person responsible for it?",
        0.0,
        (),
    ),
    Question(
        "code_violations",
        "Are there any uncorrected fire, building or safety code violations at any premises?",
        0.0,
        (),
    ),
    Question(
        "fully_sprinklered",
        "Is every scheduled building fully protected by automatic sprinklers?",
        0.0,
        ("Automatic sprinklers cover 100% of every building.",),
    ),
    Question(
        "central_alarm",
        "Is every scheduled building monitored by a central-station fire alarm?",
        0.0,
        ("UL-listed central-station monitoring at every building.",),
    ),
    Question(
        "vacancy",
        "Is any premises vacant, unoccupied or under renovation?",
        0.08,
        (
            "One storage building unoccupied since the spring, heat maintained.",
            "Second-floor suite under renovation, sprinklers in service.",
        ),
    ),
    Question(
        "unscheduled_premises",
        "Are operations conducted at any premises not scheduled on this application?",
        0.1,
        (
            "Seasonal booth at the county fairgrounds, one week a year.",
            "Materials stored at a customer's yard during one contract.",
        ),
    ),
    Question(
        "osha",
        "Has any OSHA or state safety citation been issued in the past three years?",
        0.06,
        ("One citation for missing guardrail signage, abated in 30 days.",),
    ),
    Question(
        "subcontractor_certificates",
        "Are certificates of insurance obtained from every contractor working on the premises?",
        0.8,
        ("Certificates with additional-insured wording kept on file for each vendor.",),
    ),
    Question(
        "acquisitions",
        "Are any mergers, acquisitions or new operations planned in the next twelve months?",
        0.12,
        (
            "Letter of intent to acquire a competitor's branch in a neighbouring county.",
            "A second shift and a new product line planned for next year.",
        ),
    ),
    Question(
        "ev_charging",
        "Are electric-vehicle charging stations installed at any premises?",
        0.25,
        ("Four level-2 chargers in the employee lot.",),
    ),
    Question(
        "claims_pending",
        "Is the applicant aware of any incident that may give rise "
        "to a claim not shown in the loss history?",
        0.04,
        ("A customer reported a fall last month; no claim has been made.",),
    ),
)

# Commodities a trucking supplement schedules: (name, lowest and highest value of one load).
COMMODITIES: tuple[tuple[str, int, int], ...] = (
    ("General dry freight", 40_000, 120_000),
    ("Building materials", 25_000, 80_000),
    ("Packaged foods", 50_000, 150_000),
    ("Paper products", 30_000, 70_000),
    ("Auto parts", 60_000, 200_000),
    ("Machinery and equipment", 80_000, 250_000),
    ("Beverages", 35_000, 90_000),
    ("Household goods", 20_000, 60_000),
    ("Steel coils", 45_000, 110_000),
    ("Lumber", 20_000, 55_000),
)

PROJECT_KINDS: tuple[str, ...] = (
    "Medical office fit-out",
    "Elementary school addition",
    "Warehouse expansion",
    "Retail center renovation",
    "Apartment complex",
    "Bank branch",
    "Church remodel",
    "Distribution center",
    "Hotel renovation",
    "Fire station",
    "Office building core and shell",
    "Library renovation",
    "Townhome phase",
    "Restaurant build-out",
    "Manufacturing plant",
)
CLIENT_WORDS: tuple[str, ...] = (
    "Builders",
    "Construction",
    "Development",
    "Properties",
    "Partners",
    "Group",
)
