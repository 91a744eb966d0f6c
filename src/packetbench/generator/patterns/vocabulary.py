"""Words carriers and brokers use for the same thing: jargon headers, abbreviations, synonyms.

Keyed by leaf name (the last part of a path: ``reserve``, ``loss_date``) for table columns,
and by the label a renderer draws for boxes. Both `table.column_synonyms` and
`data.terminology` draw from here, as does `table.continuation_header` for its abbreviations.
"""

from __future__ import annotations

# Leaf name -> carrier jargon for its column header (first entries are the mildest).
JARGON: dict[str, tuple[str, ...]] = {
    "claim_number": ("Clm #", "Claim Ref", "Loss File #", "Occurrence #"),
    "loss_date": ("DOL", "Loss Dt", "Event Date", "Accident Date"),
    "report_date": ("Rptd", "Date Rptd", "Notice Date", "FNOL Date"),
    "closed_date": ("Clsd", "Close Dt", "Date Closed Out"),
    "claimant": ("Clmt", "Claimant Name", "Injured Party", "Plaintiff"),
    "description": ("Loss Desc", "Cause", "Accident Type", "Narrative"),
    "location_number": ("Loc", "Site #", "Prem #"),
    "status": ("Stat", "Disposition", "Clm Status"),
    "paid": ("Pd", "Paid to Date", "Total Pd", "Net Paid"),
    "reserve": ("O/S", "Resv", "Outstanding", "Case Reserve"),
    "incurred": ("Incd", "Tot Incd", "Total Incurred Loss", "Gross Incurred"),
    "building_number": ("Bldg", "Struct #"),
    "occupancy": ("Occ", "Occupancy Desc", "Use"),
    "construction": ("Const", "ISO Const", "Constr Class"),
    "year_built": ("YOC", "Yr Blt", "Built"),
    "square_feet": ("Sq Ftg", "Area", "Total Sq Ft"),
    "sprinklered_percent": ("Spkl %", "AS %", "Sprinkler %"),
    "protection_class": ("PPC", "Prot Cl", "ISO PC"),
    "building_value": ("Bldg Val", "Structure", "Bldg Limit"),
    "contents_value": ("BPP", "Contents", "Pers Prop"),
    "business_income_value": ("BI", "Time Element", "Bus Inc/EE"),
    "tiv": ("Total Val", "Total Insured Value", "TIV (USD)"),
    "license_number": ("DL #", "Lic No", "Operator Lic"),
    "birth_date": ("DOB", "Birth Dt"),
    "hire_date": ("DOH", "Hired"),
    "years_experience": ("Yrs Drvg", "Exp"),
    "percent_use": ("Use %", "% Drvn"),
    "vehicle_number": ("Unit #", "Veh"),
    "mvr_points": ("Pts", "Viol Pts"),
    "mvr_date": ("MVR Dt", "MVR Ordered"),
    "name": ("Nm", "Full Name"),
    "phone": ("Tel", "Ph #"),
    "email": ("E-mail Addr", "Email"),
    "line": ("LOB", "Cov", "Line of Bus"),
    "amount_incurred": ("Incd", "Amt Incurred"),
    "amount_paid": ("Pd", "Amt Pd"),
    "limit": ("Lmt", "Limit of Ins"),
    "deductible": ("Ded", "Deduct"),
    "subject": ("Subj", "Coverage"),
}

# Label -> other labels for the same concept (data.terminology varies them per section).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "Named insured": ("Insured", "Insured name", "Named insured(s)", "Account name"),
    "Carrier": ("Insurer", "Company", "Writing company", "Insurance carrier"),
    "Policy number": ("Policy no.", "Pol #", "Contract number", "Policy ID"),
    "Line of business": ("Coverage", "LOB", "Line", "Coverage type"),
    "Policy period": ("Term", "Policy term", "Effective - expiration", "Coverage period"),
    "Agency": ("Producer", "Broker", "Agent", "Producing agency"),
    "Valued as of": ("Valuation date", "As of", "Evaluation date", "Losses valued"),
    "Run date": ("Report date", "Printed", "Date run"),
    "Prepared by": ("Compiled by", "Submitted by", "Preparer"),
    "Values as of": ("Valuation date", "Effective", "As of date"),
    "Loss date": ("Date of loss", "DOL", "Occurrence date"),
    "Claim Number": ("Claim #", "Claim no.", "File number"),
    "Date of Loss": ("Loss date", "Occurrence date", "DOL"),
    "Date Reported": ("Reported", "Report date", "Notice date"),
    "Date Closed": ("Closed", "Close date", "Closed on"),
    "Outstanding Reserve": ("Reserve", "O/S reserve", "Outstanding", "Case reserve"),
    "Total Incurred": ("Incurred", "Total incurred loss", "Incurred to date"),
    "Paid": ("Paid to date", "Total paid", "Payments"),
    "Status": ("Claim status", "Disposition", "State"),
    "Description of Loss": ("Loss description", "Cause of loss", "Description"),
    "Claimant": ("Claimant name", "Injured party", "Party"),
    "Street": ("Street address", "Address", "Location address"),
    "City": ("Town", "Municipality"),
    "Limit": ("Amount of insurance", "Limit of insurance", "Coverage amount"),
    "Deductible": ("Ded.", "Deductible amount", "Retention"),
    "Building": ("Building value", "Structure", "Bldg limit"),
    "Contents": ("BPP", "Personal property", "Contents value"),
}


def abbreviate(header: str) -> str:
    """A carrier-style abbreviation of a header ("Outstanding Reserve" -> "OUTST RES")."""
    words = [w for w in header.replace("/", " / ").split() if w]
    if len(words) == 1:
        word = words[0]
        return word if len(word) <= 4 else word[:4].rstrip(".") + "."
    parts = []
    for word in words:
        if word in ("/", "#", "%", "&") or len(word) <= 3:
            parts.append(word)
        else:
            parts.append(word[:3] + ".")
    return " ".join(parts)
