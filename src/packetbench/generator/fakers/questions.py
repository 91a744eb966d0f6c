"""Underwriting questions of the line sections, with how often each is answered Yes.

Each section's document model declares one field per question id (a test keeps the two in
step), and the world stores one answer per question, so a form and the world agree.
"""

from __future__ import annotations

from packetbench.generator.fakers.insurance import Question

GL_QUESTIONS: tuple[Question, ...] = (
    Question(
        "medical_facilities",
        "Any medical facilities provided or medical professionals employed or contracted?",
        0.05,
        ("First-aid room staffed by a contracted nurse two days a week.",),
    ),
    Question(
        "hazardous_materials",
        "Any exposure to radioactive or hazardous materials, their storage, disposal or transport?",
        0.1,
        ("Waste oil and solvents collected by a licensed hauler monthly.",),
    ),
    Question(
        "operations_changed",
        "Any operations sold, acquired or discontinued in the last five years?",
        0.12,
        ("Sold a small service division in a neighbouring county three years ago.",),
    ),
    Question(
        "equipment_loaned",
        "Is machinery or equipment loaned or rented to others?",
        0.08,
        ("Small tools lent to subcontractors on jobsites, with instructions.",),
    ),
    Question(
        "parking",
        "Are parking facilities owned or rented, and is a fee charged?",
        0.3,
        ("Surface lots at each premises for employees and visitors, no fee.",),
    ),
    Question(
        "subcontractors",
        "Are subcontractors used, and are certificates of insurance obtained from them?",
        0.35,
        ("Certificates with $1,000,000 limits required before work starts.",),
    ),
    Question(
        "safety_program",
        "Is there a written safety and security policy in effect?",
        0.7,
        ("Written safety manual reviewed each year with every supervisor.",),
    ),
    Question(
        "events",
        "Any sponsored social events or athletic teams?",
        0.1,
        ("Annual employee picnic held at a rented park pavilion.",),
    ),
)

AUTO_QUESTIONS: tuple[Question, ...] = (
    Question(
        "non_owned_registration",
        "Are any vehicles not owned by or registered to the applicant?",
        0.1,
        ("Two leased units registered to the leasing company.",),
    ),
    Question(
        "maintenance_program",
        "Is there a formal vehicle maintenance program?",
        0.8,
        ("Preventive maintenance every 10,000 miles at the company shop.",),
    ),
    Question(
        "leased_to_others",
        "Are any vehicles leased to others?",
        0.03,
        ("One pickup leased to a related company under a written lease.",),
    ),
    Question(
        "hazardous_cargo",
        "Are hazardous materials transported?",
        0.06,
        ("Placarded propane deliveries, under 1,000 gallons per load.",),
    ),
    Question(
        "mvr_checks",
        "Are motor vehicle records obtained for every driver?",
        0.9,
        ("MVRs pulled at hire and every twelve months.",),
    ),
    Question(
        "family_use",
        "Do family members use company vehicles?",
        0.08,
        ("Owner's spouse drives one pickup for errands.",),
    ),
    Question(
        "telematics",
        "Are vehicles fitted with electronic monitoring or telematics?",
        0.45,
        ("GPS telematics on every power unit; harsh-braking alerts reviewed weekly.",),
    ),
)

WC_QUESTIONS: tuple[Question, ...] = (
    Question(
        "aircraft_watercraft",
        "Does the applicant own, operate or lease aircraft or watercraft?",
        0.02,
        ("One pontoon boat used at a client's lakeside site.",),
    ),
    Question(
        "height_work",
        "Is work performed underground or above 15 feet?",
        0.25,
        ("Roof and mezzanine work up to 30 feet with fall protection.",),
    ),
    Question(
        "subcontractors",
        "Are subcontractors used?",
        0.35,
        ("Certificates of workers compensation collected from every subcontractor.",),
    ),
    Question(
        "safety_program",
        "Is there a written safety program?",
        0.75,
        ("Written program with a safety committee meeting monthly.",),
    ),
    Question(
        "minors_seniors",
        "Any employees under 16 or over 60 years of age?",
        0.15,
        ("Three part-time employees over 60 in clerical roles.",),
    ),
    Question(
        "seasonal",
        "Are seasonal employees hired?",
        0.2,
        ("About ten seasonal workers from May through September.",),
    ),
    Question(
        "out_of_state",
        "Do employees travel out of state?",
        0.3,
        ("Sales staff visit customers in neighbouring states.",),
    ),
    Question(
        "leased_employees",
        "Are employees leased to or from other employers?",
        0.05,
        ("Two drivers leased from a staffing agency in peak season.",),
    ),
    Question(
        "health_plan",
        "Is group health insurance provided to employees?",
        0.7,
        ("Group medical plan for full-time employees after 60 days.",),
    ),
)

UMBRELLA_QUESTIONS: tuple[Question, ...] = (
    Question(
        "excluded_exposures",
        "Are any exposures excluded, uninsured or self-insured in the underlying policies?",
        0.05,
        ("Pollution excluded on the underlying GL; none known.",),
    ),
    Question(
        "aircraft",
        "Does the applicant own, lease or charter aircraft?",
        0.02,
        ("Occasional charter flights with a certified operator.",),
    ),
    Question(
        "hired_non_owned",
        "Is hired and non-owned auto liability provided by the underlying policy?",
        0.9,
        ("Symbols 8 and 9 on the business auto policy.",),
    ),
    Question(
        "cranes",
        "Are cranes or heavy lifting equipment used?",
        0.08,
        ("Cranes are hired with certified operators.",),
    ),
    Question(
        "foreign_operations",
        "Any foreign operations?",
        0.06,
        ("Sales trips to Canada; no foreign premises.",),
    ),
    Question(
        "product_losses",
        "Any product liability losses in the last five years?",
        0.04,
        ("One product claim closed without payment.",),
    ),
)

BOP_QUESTIONS: tuple[Question, ...] = (
    Question(
        "hazardous_materials",
        "Any hazardous materials stored on premises?",
        0.15,
        ("Small quantities of cleaning chemicals in a locked cabinet.",),
    ),
    Question(
        "certificates",
        "Are certificates of insurance obtained from subcontractors?",
        0.4,
        ("Certificates required from every contractor working on premises.",),
    ),
    Question(
        "other_business",
        "Does the applicant operate any other business?",
        0.08,
        ("A small property-management affiliate with no employees.",),
    ),
    Question(
        "relabeling",
        "Does the applicant manufacture, relabel or repackage products of others?",
        0.05,
        ("Kits assembled from purchased components, own label.",),
    ),
    Question(
        "equipment_rental",
        "Is equipment rented or loaned to others?",
        0.05,
        ("Pallet jacks loaned to a neighbouring tenant.",),
    ),
    Question(
        "late_hours",
        "Any operations after 9 p.m. or 24 hours a day?",
        0.2,
        ("Second shift ends at 11 p.m. on weekdays.",),
    ),
)

ASSIGNED_RISK_QUESTIONS: tuple[Question, ...] = (
    Question(
        "prior_coverage",
        "Has the applicant had workers compensation coverage in this "
        "state in the last three years?",
        0.85,
        ("Covered by the expiring voluntary-market policy.",),
    ),
    Question(
        "unpaid_premium",
        "Is any workers compensation premium unpaid or in dispute?",
        0.04,
        ("Audit premium of the prior term under appeal.",),
    ),
    Question(
        "ownership_change",
        "Any change in ownership, merger or acquisition in the last five years?",
        0.1,
        ("Acquired a competitor's assets two years ago.",),
    ),
    Question(
        "common_ownership",
        "Is there common ownership with any entity not listed?",
        0.08,
        ("Owners also hold a real-estate LLC with no employees.",),
    ),
    Question(
        "peo",
        "Does the applicant use a professional employer organization or temporary labor?",
        0.06,
        ("Temporary labor used in peak season only.",),
    ),
    Question(
        "financed",
        "Is the premium financed?",
        0.2,
        ("Financed through the agency's premium finance company.",),
    ),
)
