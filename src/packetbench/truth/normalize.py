"""Normalization: the one definition of when two values are the same (docs/design.md §7).

Every comparison in packetbench goes through this module: the universe builder, the audit, the
field view, grounding and verdicts. Numbers compare with `==` after parsing, never within a
tolerance: the generator renders exact values, so any difference after normalization is an
extraction error (a tolerance once hid $24,344,800 read for $24,514,100).
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from functools import lru_cache
from typing import Any

from packetbench.core import codes

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_ID_DROP = re.compile(r"[^0-9a-z]")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
# A number JSON (and so a record) cannot carry: NaN, Infinity, a literal beyond a double
# (1e999) or an integer beyond 64 bits. A model answer holding one is kept as its text.
_UNCARRIED = re.compile(r"^-?(?:NaN|Infinity|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)$")
INT_LIMIT = 2**63


def uncarried(text: str) -> bool:
    """Whether `text` is a number JSON cannot carry, kept as text (`"1e999"`, `"NaN"`)."""
    if len(text) > 400 or not _UNCARRIED.match(text):
        return False
    if text.lstrip("-").isdigit():
        return abs(int(text)) >= INT_LIMIT
    return not math.isfinite(float(text))


# Number-like runs inside text: "$1,250,000", "(1,234.50)", "80%", "1985", "3.5".
NUMBER_IN_TEXT = re.compile(r"\(?-?\$?\d[\d,]*(?:\.\d+)?%?\)?")

MIN_STRING = 3  # normalized strings shorter than this are not checked for hallucination
MIN_ID = 4  # id forms shorter than this never count as an id match

# Hedges: placeholders that assert nothing, never checked for hallucination.
HEDGES = frozenset(
    {
        "n a",
        "na",
        "none listed",
        "not applicable",
        "not provided",
        "not available",
        "unknown",
        "various",
        "multiple",
        "see below",
        "see above",
        "see attached",
        "see schedule",
        "tbd",
        "to be determined",
        "incl",
        "included",
        "same",
        "as above",
        "varies",
    }
)

NUMERIC_KINDS = frozenset({"number", "money", "percent"})

_MONTHS = {
    name: index
    for index, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
# The date spellings read, as (pattern, order of year/month/day groups); text matching none
# is not a date, which spares trying every format on every string.
_DATE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), "ymd"),
    (re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})"), "ymd"),
    (re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})"), "mdy"),
    (re.compile(r"(\d{1,2})-(\d{1,2})-(\d{4})"), "mdy"),
    (re.compile(r"([a-z]{3,9})\.? (\d{1,2}),? (\d{4})"), "Mdy"),
    (re.compile(r"(\d{1,2}) ([a-z]{3,9})\.? (\d{4})"), "dMy"),
    (re.compile(r"(\d{1,2})-([a-z]{3})-(\d{4}|\d{2})"), "dMy"),
)
_TRUE = frozenset({"yes", "y", "x", "true", "checked", "on", "1"})
_FALSE = frozenset({"no", "n", "false", "unchecked", "off", "0"})


@lru_cache(maxsize=1 << 16)
def string(value: str) -> str:
    """NFKC, lowercase, every non-alphanumeric run to one space, trimmed."""
    return _NON_ALNUM.sub(" ", unicodedata.normalize("NFKC", value).lower()).strip()


def tokens(value: str) -> list[str]:
    return string(value).split()


@lru_cache(maxsize=1 << 16)
def id_form(value: str) -> str | None:
    """Only [a-z0-9] of the normalized value; None when fewer than MIN_ID remain."""
    form = _ID_DROP.sub("", string(value))
    return form if len(form) >= MIN_ID else None


@lru_cache(maxsize=1 << 16)
def _parse_number_text(text: str) -> float | None:
    raw = text.strip()
    negative = raw.startswith("(") and raw.endswith(")")
    if negative:
        raw = raw[1:-1].strip()
    raw = raw.replace("$", "").replace(",", "").replace(" ", "")
    if raw.endswith("%"):
        raw = raw[:-1]
    if not _NUMBER.match(raw):
        return None
    number = float(raw)
    return -number if negative else number


def number(value: Any) -> float | None:
    """A float from a JSON number or a number-like string; None when it is not a number.

    "$1,500,000" -> 1500000.0, "(1,234)" -> -1234.0, "80%" -> 80.0, "03/01/2025" -> None.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        if uncarried(value):  # an answer JSON could not carry: the number it says (inf, nan)
            return float(value)
        return _parse_number_text(value)
    return None


@lru_cache(maxsize=1 << 16)
def date(value: str) -> str | None:
    """ISO YYYY-MM-DD of a date in any format the generator renders (and a few others):
    2025-03-01, 03/01/2025, 3/1/25, 2025/03/01, 03-01-2025, March 1, 2025, 1 Mar 2025,
    01-Mar-25."""
    text = " ".join(value.strip().lower().split())
    if not text or not text[0].isalnum() or len(text) > 20:
        return None
    for pattern, order in _DATE_PATTERNS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        parts = dict(zip(order, match.groups(), strict=True))
        month = _MONTHS.get(parts["M"]) if "M" in parts else int(parts["m"])
        year = int(parts["y"])
        if year < 100:  # two-digit years: 00-68 -> 2000s, 69-99 -> 1900s (as strptime does)
            year += 2000 if year < 69 else 1900
        try:
            return dt.date(year, month or 0, int(parts["d"])).isoformat()
        except ValueError:
            return None
    return None


def checkbox(value: Any) -> str | None:
    """ "Yes"/"No" from any common spelling of a ticked or unticked box."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if not isinstance(value, str):
        return None
    form = string(value)
    if form in _TRUE:
        return "Yes"
    if form in _FALSE:
        return "No"
    return None


def _alias_tables() -> dict[str, dict[str, str]]:
    """Per code list: normalized abbreviation -> normalized full name.

    Kept per list because abbreviations collide across lists ("M" is Male as a gender and
    Married as a marital status).
    """
    tables: dict[str, dict[str, str]] = {}
    for code_list in codes.ALL:
        tables[code_list.name] = {
            string(abbr): string(full) for full, abbr in code_list.abbreviations.items()
        }
    return tables


_ALIASES = _alias_tables()


def enum(value: str, code_list: str | None = None) -> str:
    """The normalized canonical name of an enum value: an abbreviation of `code_list` maps
    to its full name, in both directions of comparison."""
    form = string(value)
    if code_list is None:
        return form
    return _ALIASES.get(code_list, {}).get(form, form)


def aliases_of(value: str, code_list: str) -> set[str]:
    """Every normalized spelling of an enum value: the full name and its abbreviation."""
    full = enum(value, code_list)
    spellings = {full, string(value)}
    spellings |= {abbr for abbr, name in _ALIASES.get(code_list, {}).items() if name == full}
    return spellings


def is_hedge(value: Any) -> bool:
    return isinstance(value, str) and string(value) in HEDGES


def canonical(value: Any, kind: str, code_list: str | None = None) -> Any:
    """The comparable form of `value` for a leaf of `kind` (None when it cannot be read)."""
    if value is None:
        return None
    if kind in NUMERIC_KINDS:
        return number(value)
    if kind == "date":
        return date(value) if isinstance(value, str) else None
    if kind == "checkbox":
        return checkbox(value)
    if not isinstance(value, str):
        return string(str(value))
    if kind == "enum":
        return enum(value, code_list)
    if kind == "id":
        return id_form(value) or string(value)
    return string(value)


def equal(emitted: Any, truth: Any, kind: str, code_list: str | None = None) -> bool:
    """Whether an emitted value equals the truth under the normalization of its kind."""
    if emitted is None or truth is None:
        return emitted is None and truth is None
    if type(emitted) is type(truth) and emitted == truth:  # identical is equal in every kind
        return True
    left, right = canonical(emitted, kind, code_list), canonical(truth, kind, code_list)
    if left is None or right is None:
        # A value that cannot be read as its kind (a date that is not a date) still equals a
        # truth it spells the same way.
        return string(str(emitted)) == string(str(truth))
    return bool(left == right)


def is_checked(value: Any, kind: str) -> bool:
    """Whether an emitted non-null value is checked for hallucination (docs/design.md §7)."""
    if value is None or kind == "text" or is_hedge(value):
        return False
    if kind in NUMERIC_KINDS:
        return number(value) is not None
    if isinstance(value, str):
        return len(string(value)) >= MIN_STRING
    return True
