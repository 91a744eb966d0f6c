"""Policy forms and endorsements by line: (form number, edition, title).

Form numbers and editions follow the public ISO/NCCI numbering (facts, not text); a policy's
schedule lists its line's base forms, then the endorsements its facts call for.
"""

from __future__ import annotations

Form = tuple[str, str, str]  # number, edition (MM YY), title

BASE_FORMS: dict[str, tuple[Form, ...]] = {
    "property": (
        ("IL 00 17", "11 98", "Common Policy Conditions"),
        ("CP 00 10", "10 12", "Building and Personal Property Coverage Form"),
        ("CP 00 30", "10 12", "Business Income (and Extra Expense) Coverage Form"),
        ("CP 10 30", "09 17", "Causes of Loss - Special Form"),
        ("CP 00 90", "07 88", "Commercial Property Conditions"),
    ),
    "gl": (
        ("CG 00 01", "04 13", "Commercial General Liability Coverage Form"),
        ("CG 21 47", "12 07", "Employment-Related Practices Exclusion"),
        ("CG 21 67", "12 04", "Fungi or Bacteria Exclusion"),
        ("IL 00 21", "09 08", "Nuclear Energy Liability Exclusion Endorsement"),
    ),
    "auto": (
        ("CA 00 01", "11 20", "Business Auto Coverage Form"),
        ("CA 02 20", "12 20", "Cancellation and Nonrenewal"),
        ("CA 99 03", "10 13", "Auto Medical Payments Coverage"),
    ),
    "wc": (
        ("WC 00 00 00", "C", "Workers Compensation and Employers Liability Insurance Policy"),
        ("WC 00 01 10", "A", "Experience Rating Modification Factor Endorsement"),
        (
            "WC 00 04 22",
            "B",
            "Terrorism Risk Insurance Program Reauthorization Act Disclosure Endorsement",
        ),
    ),
    "umbrella": (
        ("CU 00 01", "04 13", "Commercial Liability Umbrella Coverage Form"),
        ("CU 21 23", "02 02", "Nuclear Energy Liability Exclusion Endorsement"),
    ),
    "cargo": (
        ("IM 7002", "08 17", "Motor Truck Cargo - Owner's Form"),
        ("IM 7810", "06 11", "Refrigeration Breakdown Coverage"),
    ),
}

# Endorsements added when a fact of the account calls for them.
LOSS_PAYABLE: Form = ("CP 12 18", "06 07", "Loss Payable Provisions")
AI_LANDLORD: Form = ("CG 20 11", "04 13", "Additional Insured - Managers or Lessors of Premises")
AI_CONTRACTOR: Form = (
    "CG 20 10",
    "04 13",
    "Additional Insured - Owners, Lessees or Contractors - Scheduled Person or Organization",
)
AI_COMPLETED: Form = (
    "CG 20 37",
    "04 13",
    "Additional Insured - Owners, Lessees or Contractors - Completed Operations",
)
AUTO_LOSS_PAYEE: Form = ("CA 20 01", "11 16", "Lessor - Additional Insured and Loss Payee")
WAIVER_GL: Form = (
    "CG 24 04",
    "05 09",
    "Waiver of Transfer of Rights of Recovery Against Others to Us",
)
WAIVER_WC: Form = ("WC 00 03 13", "", "Waiver of Our Right to Recover from Others Endorsement")
