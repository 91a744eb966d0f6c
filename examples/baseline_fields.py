"""What the two offline baselines share: printed labels mapped to schema fields.

`textlayer_baseline.py` (the PDF text layer, pypdfium2) and `ppocr_baseline.py` (PP-OCR on
rendered pages) differ only in how they read a page. Both hand this module the same two
things: the page's text lines in reading order, and its pieces of text, each with its box
(`Cell`, PDF points, y upwards). From those it fills the fields of three document types by
the labels printed beside them (ACORD 125, the statement of values, the loss run), and it runs
the program's command line (one answer on stdout, `--version`, `--predictions`).

It was written against the layout of the documents, never against their truth files, and it
is not tuned: a label it does not find leaves its field null, a table row whose cells it cannot
place goes wrong, a value it misreads is answered as misread.
"""

# ruff: noqa: SIM905  (word lists read best as one string)
from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
DATE = (
    r"(?:\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}-[A-Za-z]{3}-\d{2,4}"
    r"|[A-Z][a-z]{2,8}\.? \d{1,2}, \d{4})"
)
MONEY = r"(?:(?:USD|US\$|\$)\s?)?-?\(?[\d,]+(?:\.\d+)?\)?"


# -- what a reader hands over ----------------------------------------------------------------


class Cell:
    def __init__(self, page: int, left: float, bottom: float, right: float, top: float, text: str):
        self.page, self.left, self.bottom, self.right, self.top = page, left, bottom, right, top
        self.text = text.strip()

    @property
    def middle(self) -> float:
        return (self.bottom + self.top) / 2


# A page reader: a PDF's path -> its text lines in reading order, and its positioned text.
Reader = Callable[[str], tuple[list[str], list[Cell]]]


# -- labels and values ------------------------------------------------------------------------


def label_key(text: str) -> str:
    """A label as compared: upper case, without spaces (an OCR engine often drops them)."""
    return re.sub(r"\s+", "", text).upper()


def clean(text: str) -> str:
    """A value without footnote marks (superscript digits, a trailing asterisk)."""
    return re.sub(r"[¹²³⁴⁵⁶⁷⁸⁹⁰*†‡]+", "", text).strip()


def after(
    lines: list[str], label: str, start: int = 0, labels: frozenset[str] = frozenset()
) -> str | None:
    """The line after the first line that is exactly `label` (from `start`), or None when
    there is no such line or the next line is itself a label."""
    for i in range(start, len(lines) - 1):
        if label_key(lines[i]) == label_key(label):
            value = lines[i + 1]
            return None if label_key(value) in {label_key(x) for x in labels} else clean(value)
    return None


def number(text: str | None) -> float | None:
    if text is None:
        return None
    text = clean(text)
    match = re.search(r"-?\(?[\d,]*\d(?:\.\d+)?\)?", text.replace("USD", "").replace("$", ""))
    if not match:
        return None
    raw = match.group(0)
    negative = raw.startswith("(") or raw.startswith("-")
    try:
        value = float(raw.strip("()-").replace(",", ""))
    except ValueError:
        return None
    return -value if negative else value


def integer(text: str | None) -> int | None:
    value = number(text)
    return int(value) if value is not None and value == int(value) else None


def iso(text: str | None) -> str | None:
    """A printed date as YYYY-MM-DD (None when it is not one)."""
    if not text:
        return None
    text = clean(text)
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2,4})", text)
    try:
        if m:
            year = int(m.group(3))
            return date(
                year + 2000 if year < 100 else year, int(m.group(1)), int(m.group(2))
            ).isoformat()
        m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
        if m:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
        m = re.fullmatch(r"(\d{1,2})-([A-Za-z]{3})-(\d{2,4})", text)
        if m and m.group(2).lower() in MONTHS:
            year = int(m.group(3))
            year = year + 2000 if year < 100 else year
            return date(year, MONTHS[m.group(2).lower()], int(m.group(1))).isoformat()
        m = re.fullmatch(r"([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})", text)
        if m and m.group(1).lower() in MONTHS:
            return date(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2))).isoformat()
    except ValueError:
        return None
    return None


STATES = set(
    (
        "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV "
        "NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP"
    ).split()
)


def address(text: str | None) -> dict[str, Any]:
    """ "street, city, ST zip" as the schema's address."""
    empty = {"street": None, "city": None, "state": None, "zip": None}
    if not text:
        return empty
    m = re.fullmatch(r"(.+?),\s*(.+?),?\s+([A-Z]{2})\s+(\d{5}(?:-\d{4})?)", clean(text))
    if not m:
        return {**empty, "street": clean(text)}
    state = m.group(3) if m.group(3) in STATES else None
    return {"street": m.group(1), "city": m.group(2), "state": state, "zip": m.group(4)}


def checked(text: str, options: list[str]) -> dict[str, str | None]:
    """Which of `options` (printed checkbox labels) carry an X before them in `text`: Yes or
    No for each option printed, None for one not found."""
    found: dict[str, str | None] = {}
    taken = [False] * len(text)
    for option in sorted(options, key=len, reverse=True):  # "Subchapter S Corporation" first
        found[option] = None
        for m in re.finditer(r"(X\s+)?\b" + re.escape(option) + r"\b", text, re.IGNORECASE):
            start = m.start() + (len(m.group(1)) if m.group(1) else 0)
            if any(taken[start : m.end()]):
                continue
            for i in range(start, m.end()):
                taken[i] = True
            found[option] = "Yes" if m.group(1) else "No"
            break
    return found


def enum(value: str | None, allowed: list[str]) -> str | None:
    if value is None:
        return None
    for choice in allowed:
        if choice.lower() == clean(value).lower():
            return choice
    return None


def between(lines: list[str], first: str, last: str) -> str:
    """The text from the line starting with `first` to the line starting with `last`."""
    start = next(
        (i for i, line in enumerate(lines) if label_key(line).startswith(label_key(first))), None
    )
    if start is None:
        return ""
    end = next(
        (
            i
            for i in range(start + 1, len(lines))
            if label_key(lines[i]).startswith(label_key(last))
        ),
        len(lines),
    )
    return " ".join(lines[start:end])


# -- tables, from the text runs' boxes ---------------------------------------------------------


def rows_of(cells: list[Cell]) -> list[list[Cell]]:
    """Cells grouped into rows (same page, overlapping heights), top to bottom."""
    rows: list[list[Cell]] = []
    for cell in sorted(cells, key=lambda c: (c.page, -c.top, c.left)):
        row = rows[-1] if rows else None
        if row and row[0].page == cell.page and abs(row[0].middle - cell.middle) < 3:
            row.append(cell)
        else:
            rows.append([cell])
    return [sorted(row, key=lambda c: c.left) for row in rows]


def columns(
    header: list[Cell], rules: list[tuple[str, tuple[str, ...]]]
) -> list[tuple[float, float, str]]:
    """Each header cell's x-range and the field its words name (the first rule matching)."""
    found = []
    for cell in header:
        words = cell.text.upper()
        for field, keys in rules:
            if any(key in words for key in keys):
                found.append((cell.left, cell.right, field))
                break
    return found


def merge(header: list[Cell], row: list[Cell]) -> list[Cell]:
    """A header with the cells of its next line joined to those above them."""
    merged = [Cell(c.page, c.left, c.bottom, c.right, c.top, c.text) for c in header]
    for cell in row:
        above = max(merged, key=lambda h: min(h.right, cell.right) - max(h.left, cell.left))
        if min(above.right, cell.right) - max(above.left, cell.left) > 0:
            above.text = f"{above.text} {cell.text}"
            above.left, above.right = min(above.left, cell.left), max(above.right, cell.right)
        else:
            merged.append(Cell(cell.page, cell.left, cell.bottom, cell.right, cell.top, cell.text))
    return sorted(merged, key=lambda c: c.left)


def place(row: list[Cell], cols: list[tuple[float, float, str]]) -> dict[str, str]:
    """Each cell of `row` under the column it overlaps most."""
    placed: dict[str, str] = {}
    for cell in row:
        best, field = 0.0, None
        for left, right, name in cols:
            overlap = min(right, cell.right) - max(left, cell.left)
            if overlap > best:
                best, field = overlap, name
        if field is None:  # no overlap: the nearest column
            field = min(cols, key=lambda c: abs((c[0] + c[1]) / 2 - (cell.left + cell.right) / 2))[
                2
            ]
        placed[field] = (placed.get(field, "") + " " + cell.text).strip()
    return placed


# -- the three document types ------------------------------------------------------------------


def skeleton(schema: dict[str, Any]) -> Any:
    """An answer with every field null and every list empty."""
    kinds = schema.get("type")
    if kinds == "object" or "properties" in schema:
        return {name: skeleton(sub) for name, sub in schema.get("properties", {}).items()}
    if kinds == "array":
        return []
    for option in schema.get("anyOf", []):
        if option.get("type") == "object":
            return None
    return None


def enum_of(schema: dict[str, Any], *path: str) -> list[str]:
    node = schema
    for key in path:
        node = node["items"] if key == "[]" else node["properties"][key]
    return [v for v in node.get("enum", []) if v is not None]


SOV_RULES = [
    ("location_number", ("LOC",)), ("building_number", ("BLDG",)), ("street", ("STREET",)),
    ("city", ("CITY",)), ("state", ("ST",)), ("zip", ("ZIP",)), ("occupancy", ("OCCUP",)),
    ("construction", ("CONST",)), ("year_built", ("YR", "BUILT", "YEAR")),
    ("stories", ("STOR",)), ("square_feet", ("SQ",)), ("sprinklered_percent", ("SPR",)),
    ("protection_class", ("PC", "PROT")), ("building_value", ("BUILDING", "BLDG VAL")),
    ("contents_value", ("CONTENTS",)), ("business_income_value", ("BI", "INCOME")),
    ("tiv", ("TIV", "TOTAL")),
]  # fmt: skip


def sov(lines: list[str], cells: list[Cell], schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = skeleton(schema)
    labels = frozenset({"NAMED INSURED", "PREPARED BY", "VALUES AS OF"})
    out["insured_name"] = after(lines, "NAMED INSURED", labels=labels)
    out["prepared_by"] = after(lines, "PREPARED BY", labels=labels)
    out["as_of_date"] = iso(after(lines, "VALUES AS OF", labels=labels))
    legend = " ".join(lines)
    codes = dict(
        re.findall(
            r"\b([A-Z]{1,3}) ((?:[a-z]+[ -])*?(?:frame|masonry|combustible|resistive))", legend
        )
    )
    constructions = enum_of(schema, "buildings", "[]", "construction")
    occupancies = enum_of(schema, "buildings", "[]", "occupancy")
    rows = rows_of(cells)
    header = next((r for r in rows if {"OCCUPANCY", "TIV"} <= {c.text.upper() for c in r}), None)
    if header is None:
        return out
    cols = columns(header, SOV_RULES)
    # Header cells reach for the columns' x; rows below the header are buildings until a
    # row starts with a word (GRAND TOTAL, a note).
    start = rows.index(header) + 1
    for row in rows[start:]:
        first = clean(row[0].text)
        if first.upper().startswith("GRAND TOTAL") or first.upper().startswith("TOTAL"):
            placed = place(row, cols)
            out["totals"] = {
                "building_value": number(placed.get("building_value")),
                "contents_value": number(placed.get("contents_value")),
                "business_income_value": number(placed.get("business_income_value")),
                "tiv": number(placed.get("tiv")),
            }
            break
        if not re.fullmatch(r"\d+", first):
            continue  # a wrapped header line, or something else
        placed = place(row, cols)
        code = clean(placed.get("construction", ""))
        spelled = codes.get(code, code)
        out["buildings"].append(
            {
                "location_number": integer(placed.get("location_number")),
                "building_number": integer(placed.get("building_number")),
                "address": {
                    "street": clean(placed.get("street", "")) or None,
                    "city": clean(placed.get("city", "")) or None,
                    "state": clean(placed.get("state", ""))
                    if clean(placed.get("state", "")) in STATES
                    else None,
                    "zip": clean(placed.get("zip", "")) or None,
                },
                "occupancy": enum(placed.get("occupancy"), occupancies),
                "construction": next(
                    (
                        c
                        for c in constructions
                        if c.lower().replace("-", " ") == spelled.lower().replace("-", " ")
                    ),
                    None,
                ),
                "year_built": integer(placed.get("year_built")),
                "stories": integer(placed.get("stories")),
                "square_feet": integer(placed.get("square_feet")),
                "sprinklered_percent": number(placed.get("sprinklered_percent")),
                "protection_class": integer(placed.get("protection_class")),
                "building_value": number(placed.get("building_value")),
                "contents_value": number(placed.get("contents_value")),
                "business_income_value": number(placed.get("business_income_value")),
                "tiv": number(placed.get("tiv")),
            }
        )
    return out


CLAIM_RULES = [
    ("incurred", ("INCURRED", "INCD")), ("report_date", ("REPORTED", "RPTD")),
    ("closed_date", ("CLOSE",)), ("claimant", ("CLAIMANT", "PARTY")),
    ("description", ("DESCRIPTION", "CAUSE")), ("location_number", ("LOC", "SITE")),
    ("status", ("STATUS", "DISPOSITION")), ("paid", ("PAID", "PAYMENT")),
    ("reserve", ("OUTSTANDING", "RESERVE", "RESV")), ("claim_number", ("CLAIM",)),
    ("loss_date", ("LOSS", "OCCURRENCE", "DATE OF")),
]  # fmt: skip
STATUS_WORDS = {"CWP": "Closed Without Payment", "REOPENED": "Re-opened", "SUBRO": "Subrogation"}
LINES = {
    "PROPERTY": "Commercial Property", "PROP": "Commercial Property", "GL": "General Liability",
    "GENERAL LIABILITY": "General Liability", "AUTO": "Commercial Auto",
    "COMMERCIAL AUTO": "Commercial Auto", "WC": "Workers Compensation",
    "WORKERS COMP": "Workers Compensation", "UMB": "Umbrella", "UMBRELLA": "Umbrella",
    "MTC": "Motor Truck Cargo", "TRUCK CARGO": "Motor Truck Cargo",
}  # fmt: skip


def line_of(text: str | None, allowed: list[str]) -> str | None:
    if text is None:
        return None
    return enum(text, allowed) or LINES.get(clean(text).upper())


def money_or_none(text: str | None) -> float | None:
    if text is None or clean(text) in ("", "—", "-", "–"):
        return None
    return number(text)


def loss_run(lines: list[str], cells: list[Cell], schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = skeleton(schema)
    labels = frozenset({"NAMED INSURED", "AGENCY", "VALUED AS OF", "RUN DATE", "CARRIER"})
    out["insured_name"] = after(lines, "NAMED INSURED", labels=labels)
    out["agency_name"] = after(lines, "AGENCY", labels=labels)
    out["valuation_date"] = iso(after(lines, "VALUED AS OF", labels=labels))
    out["run_date"] = iso(after(lines, "RUN DATE", labels=labels))
    statuses = enum_of(schema, "policies", "[]", "claims", "[]", "status")
    lobs = enum_of(schema, "policies", "[]", "line_of_business")
    # A policy block starts at its carrier's label; its fields follow as label / value lines.
    starts = [
        i for i, line in enumerate(lines) if label_key(line) in ("CARRIER", "COMPANY", "INSURER")
    ]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        block = lines[start:end]
        values: dict[str, str] = {}
        for i in range(len(block) - 1):
            values.setdefault(label_key(block[i]), clean(block[i + 1]))

        def pick(*names: str, values: dict[str, str] = values) -> str | None:
            return next((values[label_key(k)] for k in names if label_key(k) in values), None)

        period = pick("POLICY PERIOD", "POLICY TERM", "TERM", "PERIOD") or ""
        dates = re.findall(DATE, period)
        totals = next((line for line in block if label_key(line).startswith("POLICYTOTAL")), "")
        out["policies"].append(
            {
                "carrier": pick("CARRIER", "COMPANY", "INSURER"),
                "policy_number": pick("POLICY NUMBER", "POL #", "POLICY NO.", "POLICY #"),
                "line_of_business": line_of(pick("LINE OF BUSINESS", "LOB", "LINE"), lobs),
                "effective_date": iso(dates[0]) if dates else None,
                "expiration_date": iso(dates[1]) if len(dates) > 1 else None,
                "claims": [],
                "totals": _totals(totals),
            }
        )
    # Claims: table rows under a header naming CLAIMANT (or PARTY), in page order; each row
    # belongs to the policy whose block its claim number's line falls in.
    rows = rows_of(cells)
    cols: list[tuple[float, float, str]] = []
    policy_of = _policy_lines(lines, starts)
    pending: dict[str, str] | None = None
    header: list[Cell] | None = None  # the header's cells, its wrapped lines merged in
    for row in rows:
        words = " ".join(c.text.upper() for c in row)
        first = clean(row[0].text)
        claim = re.match(r"[A-Z]{1,4}-?\d{2,4}-\d{3,}", first)
        if ("CLAIMANT" in words or "PARTY" in words) and ("PAID" in words or "PAYMENT" in words):
            header, cols = list(row), []
            continue
        upper = header is not None and not re.search(r"[a-z]", words)
        if upper and not claim and not words.startswith(("POLICY TOTAL", "NO LOSSES")):
            assert header is not None
            header = merge(header, row)
            continue
        if header is not None:
            cols, header = columns(header, CLAIM_RULES), None
        if not cols:
            continue
        if claim:
            if pending is not None:
                _add_claim(out, pending, policy_of, statuses)
            pending = place(row, cols)
            pending["_id"] = first
        elif pending is not None and not words.startswith(("POLICY TOTAL", "GRAND TOTAL")):
            for key, text in place(row, cols).items():  # a wrapped cell's second line
                pending[key] = (pending.get(key, "") + " " + text).strip()
        elif pending is not None:
            _add_claim(out, pending, policy_of, statuses)
            pending = None
    if pending is not None:
        _add_claim(out, pending, policy_of, statuses)
    grand: dict[str, str] = {}
    for label, key in (("TOTAL CLAIMS", "claim_count"), ("OPEN CLAIMS", "open_claims"),
                       ("TOTAL PAID", "paid"), ("TOTAL OUTSTANDING RESERVE", "reserve"),
                       ("TOTAL INCURRED", "incurred")):  # fmt: skip
        found = after(lines, label, start=max(0, len(lines) - 40))
        if found is not None:
            grand[key] = found
    out["grand_totals"] = {
        "claim_count": integer(grand.get("claim_count")),
        "open_claims": integer(grand.get("open_claims")),
        "paid": number(grand.get("paid")),
        "reserve": number(grand.get("reserve")),
        "incurred": number(grand.get("incurred")),
    }
    return out


def _totals(line: str) -> dict[str, Any]:
    m = re.search(r"Claims:\s*(\d+)\s+Open:\s*(\d+)\s*(.*)", line)
    if not m:
        return {
            "claim_count": None,
            "open_claims": None,
            "paid": None,
            "reserve": None,
            "incurred": None,
        }
    amounts = re.findall(MONEY, m.group(3))
    amounts = [a for a in amounts if re.search(r"\d", a)]
    pad = ([*amounts, None, None, None])[:3]
    return {
        "claim_count": int(m.group(1)),
        "open_claims": int(m.group(2)),
        "paid": number(pad[0]),
        "reserve": number(pad[1]),
        "incurred": number(pad[2]),
    }


def _policy_lines(lines: list[str], starts: list[int]) -> dict[str, int]:
    """Claim number -> the index of the policy block whose lines hold it."""
    found: dict[str, int] = {}
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        for line in lines[start:end]:
            m = re.match(r"([A-Z]{1,4}-?\d{2,4}-\d{3,})", clean(line))
            if m:
                found.setdefault(m.group(1), n)
    return found


def _add_claim(
    out: dict[str, Any], placed: dict[str, str], policy_of: dict[str, int], statuses: list[str]
) -> None:
    number_ = placed.pop("_id")
    index = policy_of.get(number_)
    if index is None or index >= len(out["policies"]):
        return
    status = clean(placed.get("status", ""))
    out["policies"][index]["claims"].append(
        {
            "claim_number": number_,
            "loss_date": iso(placed.get("loss_date")),
            "report_date": iso(placed.get("report_date")),
            "closed_date": iso(placed.get("closed_date")),
            "claimant": clean(placed.get("claimant", "")) or None,
            "description": clean(placed.get("description", "")) or None,
            "location_number": integer(placed.get("location_number")),
            "status": enum(status, statuses) or STATUS_WORDS.get(status.upper().replace("-", "")),
            "paid": money_or_none(placed.get("paid")),
            "reserve": money_or_none(placed.get("reserve")),
            "incurred": money_or_none(placed.get("incurred")),
        }
    )


ACORD_LABELS = frozenset(
    """AGENCY;AGENCY CODE;AGENCY CUSTOMER ID;AGENCY MAILING ADDRESS;CONTACT NAME;
    PHONE (A/C, NO, EXT);FAX;E-MAIL ADDRESS;CARRIER;NAIC CODE;POLICY NUMBER;UNDERWRITER;
    UNDERWRITER OFFICE;DATE COMPLETED;DOING BUSINESS AS;MAILING ADDRESS;BUSINESS PHONE;WEBSITE;
    FEIN;SIC;NAICS;GL CODE;BUSINESS STARTED;PAYMENT PLAN;AUDIT;DEPOSIT;MINIMUM PREMIUM;
    TOTAL ESTIMATED PREMIUM""".replace("\n", "")
    .replace("    ", "")
    .split(";")
)
QUESTIONS = [
    ("subsidiary", "subsidiary of another"), ("has_subsidiaries", "have any subsidiaries"),
    ("safety_program", "safety program"), ("hazardous_materials", "flammables"),
    ("other_insurance", "other insurance"), ("declined_cancelled", "declined"),
    ("fraud_conviction", "fraud"), ("fire_code_violations", "code violations"),
    ("bankruptcy", "bankruptcy"), ("judgement_lien", "lien"),
    ("foreign_operations", "foreign operations"), ("drones", "drones"),
]  # fmt: skip


def acord_125(lines: list[str], cells: list[Cell], schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = skeleton(schema)

    def get(label: str) -> str | None:
        return after(lines, label, labels=ACORD_LABELS)

    agency = out["agency"]
    agency.update(
        name=get("AGENCY"), contact_name=get("CONTACT NAME"), phone=get("PHONE (A/C, NO, EXT)"),
        fax=get("FAX"), email=get("E-MAIL ADDRESS"), agency_code=get("AGENCY CODE"),
        customer_id=get("AGENCY CUSTOMER ID"), address=address(get("AGENCY MAILING ADDRESS")),
    )  # fmt: skip
    out["carrier"].update(
        name=get("CARRIER"), naic_code=get("NAIC CODE"), underwriter=get("UNDERWRITER"),
        underwriter_office=get("UNDERWRITER OFFICE"), policy_number=get("POLICY NUMBER"),
        completion_date=iso(get("DATE COMPLETED")),
    )  # fmt: skip
    text = " ".join(lines)
    status = checked(between(lines, "STATUS OF TRANSACTION", "LINES OF BUSINESS"),
                     ["Quote", "Issue", "Renew", "Bound", "Change", "Cancel"])  # fmt: skip
    out["transaction_status"] = {k.lower(): v for k, v in status.items()}
    block = lines[
        next((i for i, text in enumerate(lines) if label_key(text) == "LINESOFBUSINESS"), 0) :
        next((i for i, text in enumerate(lines) if label_key(text).startswith("ATTACHMENTS")), 0)
    ]  # fmt: skip
    names = {"Property": "commercial_property", "General Liability": "general_liability",
             "Commercial Auto": "commercial_auto", "Workers Comp": "workers_compensation",
             "Umbrella": "umbrella", "Truck Cargo": "motor_truck_cargo"}  # fmt: skip
    by_key = {label_key(name): field for name, field in names.items()}
    for i, line in enumerate(block):
        bare = label_key(re.sub(r"^X\s+", "", line))
        if bare in by_key:
            premium = (
                block[i + 1]
                if i + 1 < len(block) and block[i + 1].upper().startswith("PREMIUM")
                else ""
            )
            out["lines_of_business"][by_key[bare]] = {
                "selected": "Yes" if line.startswith("X ") else "No",
                "premium": number(premium[len("PREMIUM") :]) if premium else None,
            }
    attached = checked(
        text, ["Statement of values", "Loss runs", "Driver schedule", "Financial statements"]
    )
    out["attachments"] = {
        "statement_of_values": attached["Statement of values"], "loss_runs": attached["Loss runs"],
        "driver_schedule": attached["Driver schedule"],
        "financial_statements": attached["Financial statements"],
    }  # fmt: skip
    plans = enum_of(schema, "policy", "payment_plan")
    billing = checked(between(lines, "BILLING", "PAYMENT PLAN"), ["Direct", "Agency"])
    out["policy"].update(
        effective_date=iso(get("PROPOSED EFFECTIVE DATE")),
        expiration_date=iso(get("PROPOSED EXPIRATION DATE")),
        direct_bill=billing["Direct"], agency_bill=billing["Agency"],
        payment_plan=enum(get("PAYMENT PLAN"), plans), audit_frequency=enum(get("AUDIT"), plans),
        deposit=number(get("DEPOSIT")), minimum_premium=number(get("MINIMUM PREMIUM")),
        estimated_premium=number(get("TOTAL ESTIMATED PREMIUM")),
    )  # fmt: skip
    entity = checked(between(lines, "LEGAL ENTITY", "CONTACT INFORMATION"),
                     ["Corporation", "Subchapter S Corporation", "Limited Liability Company",
                      "Partnership", "Joint Venture", "Individual", "Trust",
                      "Not For Profit"])  # fmt: skip
    applicant = out["applicant"]
    applicant.update(
        name=get("NAME (FIRST NAMED INSURED)"), dba=get("DOING BUSINESS AS"),
        mailing_address=address(get("MAILING ADDRESS")), phone=get("BUSINESS PHONE"),
        website=get("WEBSITE"), fein=get("FEIN"), sic=get("SIC"), naics=get("NAICS"),
        gl_code=get("GL CODE"), business_start_date=iso(get("BUSINESS STARTED")),
        legal_entity={k.lower().replace(" ", "_"): v for k, v in entity.items()},
    )  # fmt: skip
    contacts = between(lines, "CONTACT TYPE", "PB-125").split("E-MAIL", 1)[-1]
    for m in re.finditer(
        r"([A-Z][a-z]+) ([A-Z][A-Za-z.'-]+(?: [A-Z][A-Za-z.'-]+)+) "
        r"(\(\d{3}\) \d{3}-\d{4}) (\S+@\S+)",
        contacts,
    ):
        out["contacts"].append(
            {"role": m.group(1), "name": m.group(2), "phone": m.group(3), "email": m.group(4)}
        )
    out["premises_count"] = integer(get("TOTAL NUMBER OF PREMISES"))
    for i, line in enumerate(lines):
        if label_key(line) == "LOC#":
            rest = lines[i:]

            def at(label: str, rest: list[str] = rest) -> str | None:
                return after(rest, label, labels=ACORD_LABELS)

            interest = checked(" ".join(rest[:40]), ["Owner", "Tenant"])
            state = at("STATE")
            out["premises"].append(
                {
                    "location_number": integer(at("LOC #")),
                    "building_number": integer(at("BLDG #")),
                    "address": {"street": at("STREET"), "city": at("CITY"),
                                "state": state if state in STATES else None, "zip": at("ZIP")},
                    "owner": interest["Owner"], "tenant": interest["Tenant"],
                    "full_time_employees": integer(at("FULL-TIME EMPLOYEES")),
                    "part_time_employees": integer(at("PART-TIME EMPLOYEES")),
                    "annual_revenue": number(at("ANNUAL REVENUE")),
                    "occupied_area": integer(at("OCCUPIED AREA (SQ FT)")),
                    "operations": at("OPERATIONS AT THIS PREMISES"),
                }
            )  # fmt: skip
    nature = checked(between(lines, "NATURE OF BUSINESS", "DESCRIPTION OF PRIMARY OPERATIONS"),
                     ["Apartments", "Contractor", "Manufacturing", "Office", "Restaurant",
                      "Retail", "Service", "Wholesale", "Institutional"])  # fmt: skip
    described = between(lines, "DESCRIPTION OF PRIMARY OPERATIONS", "PB-125")
    out["nature_of_business"] = {
        **{k.lower(): v for k, v in nature.items()},
        "operations_description": described[len("DESCRIPTION OF PRIMARY OPERATIONS") :].strip()
        or None,
    }
    general = between(lines, "GENERAL INFORMATION", "PRIOR CARRIER")
    for chunk in re.split(r"\s(?=\d{1,2}\. )", general):
        for key, words in QUESTIONS:
            if words in chunk.lower():
                said = re.search(
                    r"\?\s*(?:PB-125.*?Underwriting file copy\s*)?([YN])\b\s*(.*)", chunk
                )
                if said:
                    out["general_information"][key] = {
                        "answer": "Yes" if said.group(1) == "Y" else "No",
                        "explanation": said.group(2).strip() or None,
                    }
                break
    losses = between(lines, "LOSS HISTORY", "SIGNATURES")
    out["loss_history"]["no_prior_losses"] = checked(losses, ["No prior losses"])["No prior losses"]
    row = re.compile(rf"({DATE}) (PROP|GL|AUTO|WC|UMB|MTC) (.+?) ({MONEY}) ({MONEY}) ([YN])\b")
    for m in row.finditer(losses):
        out["loss_history"]["losses"].append(
            {
                "loss_date": iso(m.group(1)), "line": LINES.get(m.group(2)),
                "description": m.group(3), "paid": number(m.group(4)),
                "reserved": number(m.group(5)), "open": "Yes" if m.group(6) == "Y" else "No",
            }
        )  # fmt: skip
    total = next((i for i, text in enumerate(lines) if "TOTALINCURRED" in label_key(text)), None)
    if total is not None and total + 1 < len(lines):
        out["loss_history"]["total_incurred"] = number(lines[total + 1])
    signed = next(
        (i for i, text in enumerate(lines) if label_key(text).startswith("APPLICANT'SSIGNATURE")),
        None,
    )
    if signed is not None:
        rest = lines[signed:]
        out["signature"] = {
            "applicant_signer": clean(rest[1]) if len(rest) > 1 else None,
            "producer_name": after(rest, "PRODUCER'S SIGNATURE PRODUCER NAME"),
            "producer_license_number": after(rest, "STATE LICENCE #")
            or after(rest, "STATE LICENSE #"),
            "producer_npn": after(rest, "NATIONAL PRODUCER # (NPN)"),
            "signature_date": iso(after(rest, "DATE")),
        }
    return out


READERS = {"acord_125": acord_125, "sov": sov, "loss_run": loss_run}


def answer(read: Reader, path: str, schema_path: str, doc_type: str) -> dict[str, Any]:
    schema = json.loads(Path(schema_path).read_text(encoding="utf-8"))
    lines, cells = read(path)
    result: dict[str, Any] = READERS[doc_type](lines, cells, schema)
    return result


def predictions(read: Reader, packets: Path, out: Path) -> int:
    """Answer every PDF of the three types in `packets` into the predictions folder `out`."""
    schemas = Path(__file__).resolve().parents[1] / "src" / "packetbench" / "schemas"
    written = 0
    for manifest in sorted(packets.glob("*/manifest_*.json")):
        doc = json.loads(manifest.read_text(encoding="utf-8"))
        doc_id, doc_type = doc.get("doc_id"), doc.get("doc_type")
        pdf = manifest.parent / f"{doc_id}.pdf"
        if doc_type not in READERS or not pdf.is_file():
            continue
        target = out / manifest.parent.name / f"{doc_id}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        found = answer(read, str(pdf), str(schemas / f"{doc_type}.schema.json"), doc_type)
        target.write_text(json.dumps(found, ensure_ascii=False), encoding="utf-8")
        written += 1
    say(f"{written} answers written to {out}")
    return 0


def say(text: str, stream: Any = None) -> None:
    (stream or sys.stdout).write(text + "\n")


def main(argv: list[str], version: str, read: Reader) -> int:
    """The program's command line: `FILE SCHEMA` (the command provider's call; the document
    type from PACKETBENCH_DOCUMENT_TYPE), `--version`, or `--predictions PACKETS DIR`."""
    program = Path(sys.argv[0]).name
    if argv == ["--version"]:
        say(version)
        return 0
    if len(argv) == 3 and argv[0] == "--predictions":
        return predictions(read, Path(argv[1]), Path(argv[2]))
    if len(argv) != 2:
        say(f"usage: {program} FILE SCHEMA | --predictions PACKETS DIR", sys.stderr)
        return 2
    doc_type = os.environ.get("PACKETBENCH_DOCUMENT_TYPE", "")
    if doc_type not in READERS:
        say(f"no rules for document type {doc_type!r} (only {', '.join(READERS)})", sys.stderr)
        return 2
    # Both read pages of a PDF; a workbook or CSV is left unanswered (an `error` record),
    # not guessed at.
    if Path(argv[0]).suffix.lower() != ".pdf":
        say(f"{argv[0]}: reads PDF pages only", sys.stderr)
        return 2
    say(json.dumps(answer(read, argv[0], argv[1], doc_type), ensure_ascii=False))
    return 0
