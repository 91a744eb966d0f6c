"""The policy's printed wording: conditions and coverage forms as boilerplate.

Written for packetbench in plain language (no insurer's form is reproduced). These strings are
part of the rendered universe, never fields: a model that extracts a condition has read text,
not a fact of the account. Each coverage part (a LOSS_LINE value) has sections of
(heading, paragraphs).
"""

from __future__ import annotations

Section = tuple[str, tuple[str, ...]]

NOTICE: tuple[str, ...] = (
    "This policy consists of the declarations, the common policy conditions, one or more "
    "coverage parts, and the forms and endorsements listed in the schedule of forms. Read the "
    "entire policy carefully to determine the rights, duties and what is and is not covered. "
    'Throughout this policy the words "you" and "your" refer to the named insured shown in '
    'the declarations, and "we", "us" and "our" refer to the company providing this '
    "insurance.",
    "Words and phrases that appear in quotation marks have special meaning; refer to the "
    "definitions section of the coverage part that uses them. Headings are for convenience "
    "only and do not change the meaning of any provision.",
    "Terrorism disclosure: coverage for certified acts of terrorism is provided under a federal "
    "program under which the United States government shares in insured losses above a "
    "program trigger. The portion of your premium attributable to that coverage is shown in "
    "the declarations of each coverage part where it is charged.",
)

# Notices to the policyholder, printed after the jacket.
NOTICES: tuple[Section, ...] = (
    (
        "How to report a claim",
        (
            "Report every accident, occurrence, claim or loss to us as soon as you can, and in any "
            "case within the time the coverage part requires. Give the policy number, the date, "
            "place and a description of what happened, the names of anyone injured and of any "
            "witnesses, and what property was damaged. Your producer can help you report a claim "
            "and will forward any papers you receive.",
            "Do not admit liability, offer payment or settle any claim on our behalf. Keep damaged "
            "property, and records of what it cost, until we have had a chance to inspect it, and "
            "take reasonable steps to protect it from further damage.",
        ),
    ),
    (
        "Privacy notice",
        (
            "We collect information about you from your application, from the producer who "
            "submitted it, from inspections and surveys of your premises, and from consumer "
            "reporting agencies where the law allows. We use it to underwrite your policy, settle "
            "claims, and meet our legal obligations. We do not sell it.",
            "We may share information with our affiliates, reinsurers, auditors, regulators and "
            "service providers who help us handle your policy, and as the law otherwise requires "
            "or permits. You may ask to see the information we keep about you and to correct "
            "anything that is wrong.",
        ),
    ),
    (
        "Premium audit",
        (
            "Where a coverage part is rated on payroll, sales, receipts or another variable "
            "exposure, the premium shown is a deposit based on estimates. After the policy period "
            "we will audit your records and compute the earned premium; if it is more than the "
            "deposit you will owe the difference, and if it is less we will return the excess, "
            "subject to any minimum premium shown.",
        ),
    ),
)

COMMON: tuple[Section, ...] = (
    (
        "Cancellation",
        (
            "The first named insured may cancel this policy by mailing or delivering advance "
            "written notice of cancellation to us. We may cancel this policy by mailing or "
            "delivering written notice of cancellation to the first named insured at least ten "
            "days before the effective date of cancellation if we cancel for nonpayment of "
            "premium, or thirty days before that date if we cancel for any other reason.",
            "Notice of cancellation will state the effective date of cancellation; the policy "
            "period will end on that date. If this policy is cancelled, we will send the first "
            "named insured any premium refund due. If we cancel, the refund will be pro rata; if "
            "the first named insured cancels, the refund may be less than pro rata. The "
            "cancellation will be effective even if we have not made or offered a refund.",
        ),
    ),
    (
        "Changes",
        (
            "This policy contains all the agreements between you and us concerning the insurance "
            "afforded. The first named insured is authorized to make changes in its terms with "
            "our consent. The terms of this policy can be amended or waived only by endorsement "
            "issued by us and made a part of this policy.",
        ),
    ),
    (
        "Examination of your books and records",
        (
            "We may examine and audit your books and records as they relate to this policy at any "
            "time during the policy period and for up to three years afterward.",
        ),
    ),
    (
        "Inspections and surveys",
        (
            "We have the right to make inspections and surveys at any time, to give you reports "
            "on the conditions we find, and to recommend changes. Any inspections, surveys, "
            "reports or recommendations relate only to insurability and the premiums to be "
            "charged. We do not make safety inspections, we do not undertake to perform the duty "
            "of any person or organization to provide for the health or safety of workers or the "
            "public, and we do not warrant that conditions are safe or healthful or comply with "
            "laws, regulations, codes or standards.",
        ),
    ),
    (
        "Premiums",
        (
            "The first named insured is responsible for the payment of all premiums and will be "
            "the payee for any return premiums we pay.",
        ),
    ),
    (
        "Transfer of your rights and duties",
        (
            "Your rights and duties under this policy may not be transferred without our written "
            "consent, except in the case of death of an individual named insured. In that case "
            "your rights and duties will be transferred to your legal representative, but only "
            "while acting within the scope of duties as your legal representative.",
        ),
    ),
)

PARTS: dict[str, tuple[Section, ...]] = {
    "Commercial Property": (
        (
            "Property coverage - what is covered",
            (
                "We will pay for direct physical loss of or damage to covered property at the "
                "premises described in the declarations caused by or resulting from any covered "
                "cause of loss. Covered property means the building, business personal property "
                "and other property for which a limit of insurance is shown.",
                "Building means the structure described, including completed additions, fixtures, "
                "permanently installed machinery and equipment, outdoor fixtures, and personal "
                "property owned by you that is used to maintain or service the building. Business "
                "personal property means furniture and fixtures, machinery and equipment, stock, "
                "and all other personal property owned by you and used in your business, located "
                "in or on the building or in the open within one hundred feet of the premises.",
            ),
        ),
        (
            "Property not covered",
            (
                "Covered property does not include accounts, bills, currency, deeds or evidences "
                "of debt; animals; automobiles held for sale; bridges, roadways, walks and other "
                "paved surfaces; contraband; the cost of excavations, grading or backfilling; "
                "foundations below the lowest basement floor; land, water or growing crops; "
                "property while airborne or waterborne; retaining walls that are not part of a "
                "building; underground pipes and drains; or vehicles licensed for road use.",
            ),
        ),
        (
            "Additional coverages",
            (
                "Debris removal: we will pay your expense to remove debris of covered property "
                "caused by a covered cause of loss, provided the expense is reported to us within "
                "one hundred eighty days of the loss. Preservation of property: if it is "
                "necessary to move covered property to preserve it from loss, we will pay for "
                "loss to it while it is being moved or temporarily stored elsewhere.",
                "Fire department service charge: when the fire department is called to save or "
                "protect covered property from a covered cause of loss, we will pay up to the "
                "amount stated in the schedule for your liability for fire department charges. "
                "Pollutant clean-up: we will pay your expense to extract pollutants from land or "
                "water at the premises if their discharge is caused by a covered cause of loss.",
            ),
        ),
        (
            "Exclusions",
            (
                "We will not pay for loss or damage caused directly or indirectly by the "
                "enforcement of any ordinance or law regulating construction, use or repair; earth "
                "movement, including earthquake, landslide and subsidence, unless fire or "
                "explosion ensues; governmental action; nuclear hazard; utility service "
                "interruption originating away from the premises; war and military action; or "
                "flood, surface water, waves, tides, mudslide or water that backs up through "
                "sewers or drains. Such loss is excluded regardless of any other cause or event "
                "that contributes concurrently or in any sequence to the loss.",
                "We will not pay for loss or damage caused by or resulting from wear and tear; "
                "rust, corrosion, decay or deterioration; smog; settling or cracking of pavements, "
                "foundations, walls or roofs; nesting or infestation of insects or rodents; "
                "mechanical breakdown; dishonest acts of you or your employees; voluntary parting "
                "with property induced by fraud; or continuous seepage of water over fourteen "
                "days or more.",
            ),
        ),
        (
            "Limits of insurance and deductible",
            (
                "The most we will pay for loss or damage in any one occurrence is the applicable "
                "limit of insurance shown in the declarations. We will not pay for loss or damage "
                "in any one occurrence until the amount of loss exceeds the deductible shown, and "
                "then only the amount above the deductible, up to the limit of insurance.",
            ),
        ),
        (
            "Loss conditions",
            (
                "In the event of loss or damage you must notify the police if a law may have been "
                "broken; give us prompt notice with a description of the property involved; take "
                "all reasonable steps to protect covered property from further damage and keep a "
                "record of your expenses; permit us to inspect the property and examine your "
                "books and records; send us a signed, sworn proof of loss within sixty days of "
                "our request; and cooperate with us in the investigation and settlement of the "
                "claim.",
                "Appraisal: if we and you disagree on the value of the property or the amount of "
                "loss, either may make written demand for an appraisal. Each party will select a "
                "competent and impartial appraiser, and the two will select an umpire. A decision "
                "agreed to by any two will be binding. Each party will pay its own appraiser and "
                "bear the other expenses of the appraisal and umpire equally.",
                "Valuation: we will determine the value of covered property at replacement cost "
                "without deduction for depreciation where the declarations show replacement cost, "
                "and otherwise at actual cash value as of the time of loss. We will not pay on a "
                "replacement cost basis until the lost or damaged property is actually repaired or "
                "replaced, as soon as reasonably possible after the loss.",
            ),
        ),
        (
            "Additional conditions",
            (
                "Coinsurance: if a coinsurance percentage is shown, we will not pay the full "
                "amount of any loss if the value of covered property at the time of loss times "
                "the coinsurance percentage is greater than the limit of insurance. In that case "
                "we will pay the proportion of the loss that the limit bears to that product, "
                "less the deductible.",
                "Mortgageholders: the term mortgageholder includes a trustee. We will pay for "
                "covered loss of or damage to buildings to each mortgageholder shown in the "
                "declarations in their order of precedence, as interests may appear. A "
                "mortgageholder has the right to receive loss payment even if the mortgageholder "
                "has started foreclosure. If we cancel this policy, we will give written notice "
                "to the mortgageholder at least ten days before cancellation for nonpayment and "
                "thirty days before cancellation for any other reason.",
            ),
        ),
        (
            "Business income",
            (
                "We will pay for the actual loss of business income you sustain due to the "
                "necessary suspension of your operations during the period of restoration, caused "
                "by direct physical loss of or damage to property at the premises. Business "
                "income means net income that would have been earned or incurred, plus continuing "
                "normal operating expenses, including payroll. We will also pay necessary extra "
                "expense you incur during the period of restoration that you would not have "
                "incurred if there had been no loss.",
            ),
        ),
    ),
    "General Liability": (
        (
            "Coverage A - bodily injury and property damage liability",
            (
                "We will pay those sums that the insured becomes legally obligated to pay as "
                "damages because of bodily injury or property damage to which this insurance "
                "applies. We will have the right and duty to defend the insured against any suit "
                "seeking those damages, but no duty to defend a suit to which this insurance does "
                "not apply. This insurance applies only if the bodily injury or property damage "
                "is caused by an occurrence that takes place in the coverage territory and occurs "
                "during the policy period.",
            ),
        ),
        (
            "Coverage B - personal and advertising injury liability",
            (
                "We will pay those sums that the insured becomes legally obligated to pay as "
                "damages because of personal and advertising injury caused by an offense arising "
                "out of your business, committed in the coverage territory during the policy "
                "period: false arrest, malicious prosecution, wrongful eviction, publication of "
                "material that slanders or libels a person or organization or violates a "
                "person's right of privacy, or the use of another's advertising idea.",
            ),
        ),
        (
            "Coverage C - medical payments",
            (
                "We will pay medical expenses for bodily injury caused by an accident on premises "
                "you own or rent or because of your operations, provided the expenses are "
                "incurred and reported within one year of the accident, regardless of fault, up "
                "to the medical expense limit shown.",
            ),
        ),
        (
            "Exclusions",
            (
                "This insurance does not apply to bodily injury or property damage expected or "
                "intended from the standpoint of the insured; liability assumed by contract, "
                "except in an insured contract; liquor liability where you are in the business of "
                "selling alcoholic beverages; obligations under any workers compensation or "
                "similar law; bodily injury to an employee arising out of employment; pollution; "
                "the ownership, maintenance or use of any aircraft, auto or watercraft; damage to "
                "your product or your work; or the recall of products.",
            ),
        ),
        (
            "Who is an insured",
            (
                "If you are an organization other than a partnership, joint venture or limited "
                "liability company, you are an insured, and your executive officers and directors "
                "are insureds only with respect to their duties as officers or directors. Your "
                "employees are insureds for acts within the scope of their employment. Any person "
                "or organization acting as your real estate manager is an insured while acting in "
                "that capacity.",
            ),
        ),
        (
            "Conditions",
            (
                "You must see to it that we are notified as soon as practicable of an occurrence "
                "or an offense which may result in a claim, and that we receive written notice of "
                "any claim or suit as soon as practicable. No insured will, except at that "
                "insured's own cost, voluntarily make a payment, assume any obligation, or incur "
                "any expense, other than for first aid, without our consent.",
                "The limits of insurance shown in the declarations fix the most we will pay "
                "regardless of the number of insureds, claims made or suits brought. The general "
                "aggregate limit is the most we will pay for the sum of damages under coverages A "
                "and B and medical expenses under coverage C, except damages included in the "
                "products-completed operations hazard.",
            ),
        ),
    ),
    "Commercial Auto": (
        (
            "Covered autos liability coverage",
            (
                "We will pay all sums an insured legally must pay as damages because of bodily "
                "injury or property damage to which this insurance applies, caused by an accident "
                "and resulting from the ownership, maintenance or use of a covered auto. We have "
                "the right and duty to defend any insured against a suit asking for such damages. "
                "Our duty to defend or settle ends when the covered autos liability coverage "
                "limit of insurance has been exhausted by payment of judgments or settlements.",
            ),
        ),
        (
            "Physical damage coverage",
            (
                "We will pay for loss to a covered auto or its equipment under comprehensive "
                "coverage from any cause except collision or overturn, and under collision "
                "coverage caused by the covered auto's collision with another object or its "
                "overturn. For each covered auto, our obligation to pay for, repair, return or "
                "replace damaged or stolen property will be reduced by the applicable deductible "
                "shown in the declarations.",
            ),
        ),
        (
            "Exclusions",
            (
                "This insurance does not apply to bodily injury or property damage expected or "
                "intended from the standpoint of the insured; liability assumed under a contract, "
                "except an insured contract; obligations under workers compensation or similar "
                "law; bodily injury to an employee of the insured arising out of employment; "
                "property damage to property owned or transported by the insured; or the "
                "operation of mobile equipment at a jobsite.",
            ),
        ),
        (
            "Conditions",
            (
                "In the event of accident, claim, suit or loss, you must give us or our "
                "authorized representative prompt notice of it, including how, when and where it "
                "happened, the insured's name and address, and the names and addresses of any "
                "injured persons and witnesses. You must cooperate with us in the investigation "
                "and defense, and submit to examination under oath at our request.",
            ),
        ),
    ),
    "Workers Compensation": (
        (
            "Part one - workers compensation insurance",
            (
                "We will pay promptly when due the benefits required of you by the workers "
                "compensation law of each state listed in the declarations. This insurance "
                "applies to bodily injury by accident or by disease; bodily injury by accident "
                "must occur during the policy period, and bodily injury by disease must be caused "
                "or aggravated by the conditions of your employment, with the employee's last day "
                "of last exposure occurring during the policy period.",
            ),
        ),
        (
            "Part two - employers liability insurance",
            (
                "We will pay all sums you legally must pay as damages because of bodily injury "
                "to your employees, provided the bodily injury is covered by this employers "
                "liability insurance. Our liability is limited as shown in the declarations: the "
                "limit for bodily injury by accident is the most we will pay for all damages "
                "from any one accident, and the disease limits apply per policy and per employee.",
            ),
        ),
        (
            "Part four - your duties if injury occurs",
            (
                "Tell us at once if injury occurs that may be covered by this policy. Provide for "
                "immediate medical and other services required by the workers compensation law; "
                "give us the names and addresses of the injured persons and of witnesses; "
                "promptly give us all notices, demands and legal papers related to the injury; "
                "and do nothing after an injury occurs that would interfere with our right to "
                "recover from others.",
            ),
        ),
        (
            "Part five - premium",
            (
                "All premium for this policy will be determined by our manuals of rules, rates, "
                "rating plans and classifications. The premium shown in the declarations is an "
                "estimate; the final premium is determined after the policy ends by using the "
                "actual, not the estimated, premium basis and the proper classifications and "
                "rates that lawfully apply to the business and work covered.",
            ),
        ),
    ),
    "Motor Truck Cargo": (
        (
            "Cargo coverage",
            (
                "We cover direct physical loss to covered property of others in your care, "
                "custody or control while in due course of transit on a scheduled vehicle, "
                "including while temporarily at a terminal for up to seventy-two hours, caused by "
                "a covered peril. Covered property means lawful goods you have accepted for "
                "transport under a bill of lading or shipping receipt.",
            ),
        ),
        (
            "Exclusions and limits",
            (
                "We do not cover loss caused by delay, loss of market, spoilage unless caused by "
                "a covered peril to the vehicle, mysterious disappearance, unattended vehicles "
                "left unlocked, or infidelity of you or your employees. The most we will pay in "
                "any one occurrence is the limit shown for any one vehicle or any one occurrence, "
                "after the deductible.",
            ),
        ),
    ),
}

# What each form of the schedule prints: whole sections of a part's wording for the main
# forms, a paragraph for an endorsement. A form the table does not know prints GENERIC.
ENDORSEMENT = "This endorsement changes the policy. Please read it carefully."
GENERIC = (
    "The provisions of this form apply to the coverage part named in its heading. All "
    "other terms and conditions of the policy remain unchanged."
)


def _part(line: str, *headings: str) -> tuple[Section, ...]:
    return tuple(s for s in PARTS[line] if s[0] in headings)


SHORT: dict[str, str] = {
    "CP 12 18": "Loss payable provisions: for covered property in which a loss payee shown in "
    "the schedule has an insurable interest, we will adjust losses with you and pay "
    "any claim for loss jointly to you and the loss payee, as interests may appear. "
    "Where the loss payee is a lender, it may receive payment even if you fail to "
    "comply with the policy's terms, provided it pays any premium due on demand.",
    "CG 21 47": "This insurance does not apply to bodily injury to a person arising out of a "
    "refusal to employ, termination of employment, or employment-related practices "
    "such as coercion, demotion, evaluation, reassignment, discipline, defamation, "
    "harassment, humiliation or discrimination directed at that person, nor to the "
    "spouse, child, parent or sibling of that person as a consequence.",
    "CG 21 67": "This insurance does not apply to bodily injury or property damage which would "
    "not have occurred in whole or in part but for the actual, alleged or "
    "threatened inhalation of, ingestion of, contact with, exposure to, existence "
    "of, or presence of any fungi or bacteria on or within a building or structure, "
    "including its contents, regardless of any other contributing cause.",
    "IL 00 21": "This insurance does not apply to injury, damage or loss arising out of the "
    "hazardous properties of nuclear material, where the insured is also an insured "
    "under a nuclear energy liability policy or would be but for its exhaustion, or "
    "where the nuclear material is at or from a nuclear facility.",
    "CG 20 11": "Who is an insured is amended to include as an additional insured the person or "
    "organization shown in the schedule, but only with respect to liability arising "
    "out of the ownership, maintenance or use of that part of the premises leased to "
    "you and shown in the schedule.",
    "CG 20 10": "Who is an insured is amended to include as an additional insured the person or "
    "organization shown in the schedule, but only with respect to bodily injury, "
    "property damage or personal and advertising injury caused in whole or in part "
    "by your acts or omissions in the performance of your ongoing operations for "
    "that additional insured.",
    "CG 20 37": "Who is an insured is amended to include as an additional insured the person or "
    "organization shown in the schedule, but only with respect to bodily injury or "
    "property damage caused in whole or in part by your work at the location "
    "designated and included in the products-completed operations hazard.",
    "CG 24 04": "We waive any right of recovery we may have against the person or organization "
    "shown in the schedule because of payments we make for injury or damage arising "
    "out of your ongoing operations or your work done under a contract with that "
    "person or organization.",
    "CA 02 20": "If we cancel or do not renew this policy, we will mail or deliver notice to the "
    "first named insured at least the number of days before the effective date that "
    "the law of the state where the policy was issued requires, and we will state "
    "our reason where that law requires it.",
    "CA 99 03": "We will pay reasonable expenses incurred for necessary medical and funeral "
    "services to or for an insured who sustains bodily injury caused by an accident, "
    "provided the expenses are incurred and reported within three years of the "
    "accident, up to the limit shown for each insured.",
    "CA 20 01": "Any lessor shown in the schedule is an insured for covered autos liability "
    "coverage, but only for the leased auto. Loss to the leased auto will be paid to "
    "you and the lessor as interests may appear, and the lessor's interest will not "
    "be invalidated by your acts or omissions.",
    "WC 00 01 10": "The premium for this policy will be adjusted by an experience rating "
    "modification factor. If the factor is not available when the policy "
    "begins, an estimated factor may be used and the premium adjusted when the "
    "factor is issued by the rating organization.",
    "WC 00 04 22": "This endorsement discloses the portion of premium attributable to coverage "
    "for certified acts of terrorism under the federal terrorism risk insurance "
    "program, and the federal share of compensation for insured losses above "
    "the program trigger.",
    "WC 00 03 13": "We have the right to recover our payments from anyone liable for an injury "
    "covered by this policy. We will not enforce our right against the person or "
    "organization named in the schedule, where you are required by a written "
    "contract to obtain this agreement from us.",
    "IM 7810": "We extend this coverage to loss to covered property caused by the mechanical "
    "breakdown or failure of refrigerating or heating units on the scheduled "
    "vehicle, provided the unit was inspected and maintained as the manufacturer "
    "recommends.",
}

FORM_SECTIONS: dict[str, tuple[Section, ...]] = {
    "IL 00 17": COMMON,
    "CP 00 10": _part(
        "Commercial Property",
        "Property coverage - what is covered",
        "Property not covered",
        "Additional coverages",
        "Limits of insurance and deductible",
    ),
    "CP 00 30": _part("Commercial Property", "Business income"),
    "CP 10 30": _part("Commercial Property", "Exclusions"),
    "CP 00 90": _part("Commercial Property", "Loss conditions", "Additional conditions"),
    "CG 00 01": PARTS["General Liability"],
    "CA 00 01": PARTS["Commercial Auto"],
    "WC 00 00 00": PARTS["Workers Compensation"],
    "IM 7002": PARTS["Motor Truck Cargo"],
}


def form_text(form_number: str) -> tuple[Section, ...]:
    """The sections a form prints: its own wording, or an endorsement's paragraph."""
    if form_number in FORM_SECTIONS:
        return FORM_SECTIONS[form_number]
    return (("Provisions", (ENDORSEMENT, SHORT.get(form_number, GENERIC))),)
