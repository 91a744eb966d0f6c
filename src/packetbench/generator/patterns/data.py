"""data.* — how values are written (document phase).

A pattern here changes the text drawn for some values. Where a careful reader can still derive
the canonical value from what is shown (another date format, "USD 1,234.00", an amount in a
column headed "$000s", 0.85 for 85 %), the value stays canonical and `rendered_as` is the shown
text ("shown"); each such path's delta carries a `reading` naming the convention, which the
audit checks independently. Where the page shows something else (a truncated name, a name in
another script, a diacritic), the document's truth is what it shows ("value").
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from packetbench.generator.patterns import scripts, vocabulary
from packetbench.generator.patterns.base import Staging, Subject, pattern
from packetbench.generator.render import fmt
from packetbench.generator.render.presentation import section_of
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table_look import TableLook

UNICODE_FONT = "DejaVuSans"
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _free(staging: Staging, path: str) -> bool:
    """Not already drawn differently by an earlier pattern."""
    p = staging.presentation
    return path not in p.shown and path not in p.glyphs and path not in staging.values


def _sections(paths: list[str]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        grouped[section_of(path)].append(path)
    return dict(grouped)


def _has(*kinds: str) -> Callable[[Subject], bool]:
    def check(subject: Subject) -> bool:
        return bool(subject.values(*kinds))

    return check


# The patterns below are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


# --- dates ------------------------------------------------------------------------------------


def _us(value: str) -> str:
    return dt.date.fromisoformat(value).strftime("%m/%d/%Y")


def _iso(value: str) -> str:
    return value


def _month_day_year(value: str) -> str:
    day = dt.date.fromisoformat(value)
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def _day_mon_yy(value: str) -> str:
    day = dt.date.fromisoformat(value)
    return f"{day.day:02d}-{MONTHS[day.month - 1]}-{day.year % 100:02d}"


DATE_FORMATS: dict[str, Callable[[str], str]] = {
    "MM/DD/YYYY": _us,
    "YYYY-MM-DD": _iso,
    "Mon D, YYYY": _month_day_year,
    "DD-MMM-YY": _day_mon_yy,
}


@pattern(
    "data.date_formats",
    "Mixed date formats",
    phase="document",
    truth="shown",
    reference="p17_date_formats",
    applies=lambda s: len(s.values("date")) >= 2,
    description="dates written MM/DD/YYYY, YYYY-MM-DD, Mon D, YYYY or DD-MMM-YY by section",
)
def _date_formats(staging: Staging) -> bool:
    """Each section of the document writes its dates its own way (at least two ways)."""
    rng = staging.rng
    dates = [path for path, _, _ in staging.subject.values("date") if _free(staging, path)]
    sections = _sections(dates)
    names = list(DATE_FORMATS)
    if len(sections) < 2:
        # A single-section document mixes formats field by field.
        sections = {path: [path] for path in dates}
    chosen = {section: rng.choice(names) for section in sections}
    if len(set(chosen.values())) < 2 and len(chosen) >= 2:
        second = next(iter(chosen))
        chosen[second] = rng.choice([n for n in names if n != chosen[second]])
    leaves = staging.subject.leaves()
    used: dict[str, str] = {}
    for section, paths in sections.items():
        for path in paths:
            value = leaves[path][0]
            name = chosen[section]
            if name == "DD-MMM-YY" and not 2000 <= int(value[:4]) <= 2068:
                # Two-digit years read as 2000-2068 (the common pivot): older dates keep four.
                name = "Mon D, YYYY"
            text = DATE_FORMATS[name](value)
            if text != fmt.date(value, staging.subject.style):
                staging.show(path, text, value)
                used[name] = ""
    staging.applied.details["formats"] = sorted(set(chosen.values()))
    # Mixed means the page shows at least two spellings (the plain one counts).
    shown = set(used) | ({"MM/DD/YYYY"} if len(staging.applied.targets) < len(dates) else set())
    return len(shown) >= 2


# --- money --------------------------------------------------------------------------------------


def _plain(value: float) -> str:
    return f"{value:.2f}" if value >= 0 else f"-{abs(value):.2f}"


def _usd(value: float) -> str:
    return f"USD {value:,.2f}" if value >= 0 else f"USD -{abs(value):,.2f}"


def _cents(value: float) -> str:
    return fmt.money(value, fmt.Style(cents=True))


def _dash_zero(value: float) -> str:
    return "\u2014" if value == 0 else fmt.money(value)


def _accounting(value: float) -> str:
    return fmt.money(value, fmt.Style(currency=False))


# name -> (writer, reading the audit applies to read it back)
MONEY_FORMATS: dict[str, tuple[Callable[[float], str], str | None]] = {
    "1234.56": (_plain, None),
    "$1,234.00": (_cents, None),
    "USD 1,234.00": (_usd, "currency_code"),
    "em dash for zero": (_dash_zero, "dash_zero"),
    "1,234 / (1,234)": (_accounting, None),
}


@pattern(
    "data.currency_formats",
    "Mixed currency formats",
    phase="document",
    truth="shown",
    reference="p15_currency_formats",
    applies=_has("money"),
    description="money as $1,234, 1234.56, $1,234.00, USD 1,234.00, an em dash for zero, by "
    "section",
)
def _currency_formats(staging: Staging) -> bool:
    rng = staging.rng
    money = [path for path, _, _ in staging.subject.values("money") if _free(staging, path)]
    sections = _sections(money)
    if len(sections) < 2:
        sections = {path: [path] for path in money}
    names = list(MONEY_FORMATS)
    leaves = staging.subject.leaves()
    used = set()
    for paths in sections.values():
        if rng.random() < 0.35:
            continue  # this section keeps the document's own style
        name = rng.choice(names)
        writer, reading = MONEY_FORMATS[name]
        for path in paths:
            value = leaves[path][0]
            text = writer(value)
            if text == fmt.money(value, staging.subject.style) or (
                reading == "dash_zero" and value != 0
            ):
                continue
            extra = (
                {"reading": reading} if reading and (reading != "dash_zero" or value == 0) else {}
            )
            staging.show(path, text, value, **extra)
            used.add(name)
    staging.applied.details["formats"] = sorted(used)
    return bool(used)


# --- labels -------------------------------------------------------------------------------------


@pattern(
    "data.terminology",
    "Terminology by section",
    phase="document",
    truth="none",
    reference="p08_terminology",
    description="one concept labelled differently from section to section",
)
def _terminology(staging: Staging) -> bool:
    """Labels of one concept vary from section to section (or from the other documents)."""
    rng = staging.rng
    labels = staging.presentation.labels
    sections = sorted(
        {section_of(path) for path in staging.subject.leaves() if "[" in path}, key=_natural
    )
    varied = sections[1:] if len(sections) >= 2 else [""]
    for section in varied:
        for label, synonyms in vocabulary.SYNONYMS.items():
            if rng.random() < 0.6:
                labels[(label, section)] = rng.choice(synonyms)

    def check(recorder: Recorder) -> bool:
        changed = [
            (subject, page)
            for kind, subject, page in recorder.presentation.events
            if kind == "label"
        ]
        staging.applied.details["labels_changed"] = len({s for s, _ in changed})
        staging.applied.targets.extend(dict.fromkeys(s for s, _ in changed if s and "[]" not in s))
        staging.applied.pages.update(page for _, page in changed if page)
        return bool(changed)

    staging.confirm(check)
    staging.applied.details["sections"] = varied
    return True


def _natural(path: str) -> tuple[str, int]:
    head, _, index = path.rpartition("[")
    return head, int(index.rstrip("]") or 0) if index.rstrip("]").isdigit() else 0


# --- characters ---------------------------------------------------------------------------------

DIACRITICS = {"e": "é", "a": "á", "o": "ö", "u": "ü", "n": "ñ", "c": "ç", "i": "í"}


def _prose(subject: Subject) -> list[tuple[str, str]]:
    """String leaves worth altering: letters, not e-mail or web addresses."""
    return [
        (path, value)
        for path, value, _ in subject.values("string", "text")
        if isinstance(value, str)
        and sum(ch.isalpha() for ch in value) >= 4
        and "@" not in value
        and "www." not in value
    ]


def _special(rng: Any, text: str) -> str | None:
    kinds = ["diacritic", "nbsp", "quote", "dash"]
    rng.shuffle(kinds)
    for kind in kinds:
        if kind == "quote" and "'" in text:
            return text.replace("'", "\u2019")
        if kind == "dash" and "-" in text:
            return text.replace("-", "\u2013", 1)
        if kind == "nbsp" and " " in text:
            spaces = [i for i, ch in enumerate(text) if ch == " "]
            at = rng.choice(spaces)
            return f"{text[:at]}\u00a0{text[at + 1 :]}"
        if kind == "diacritic":
            words = [(i, w) for i, w in enumerate(text.split(" ")) if len(w) >= 4 and w.isalpha()]
            if not words:
                continue
            index, word = rng.choice(words)
            spots = [j for j, ch in enumerate(word) if ch in DIACRITICS and j > 0]
            if not spots:
                continue
            j = rng.choice(spots)
            parts = text.split(" ")
            parts[index] = word[:j] + DIACRITICS[word[j]] + word[j + 1 :]
            return " ".join(parts)
    return None


@pattern(
    "data.special_chars",
    "Special characters",
    phase="document",
    truth="value",
    reference="p13_special_chars",
    applies=lambda s: bool(_prose(s)),
    description="diacritics, curly quotes, non-breaking spaces and dashes inside values",
)
def _special_chars(staging: Staging) -> bool:
    rng = staging.rng
    candidates = [c for c in _prose(staging.subject) if _free(staging, c[0])]
    rng.shuffle(candidates)
    done = 0
    for path, value in candidates[: rng.randint(3, 8)]:
        changed = _special(rng, value)
        if changed is not None and changed != value:
            staging.set_value(path, changed, value)
            done += 1
    return done > 0


PERSON_KEYS = (
    "claimant",
    "first_name",
    "last_name",
    "contact_name",
    "name",
    "signer",
    "applicant_signer",
    "producer_name",
    "underwriter",
)
COMPANY_WORDS = (
    "inc",
    "llc",
    "corp",
    "co.",
    "company",
    "corporation",
    "group",
    "partners",
    "lp",
    "l.l.c.",
    "&",
    "insurance",
    "agency",
    "services",
    "associates",
    "ltd",
)


def _person(path: str, value: Any) -> bool:
    key = path.rsplit(".", 1)[-1]
    if key not in PERSON_KEYS or not isinstance(value, str):
        return False
    words = value.lower().replace(",", " ").split()
    return (
        1 <= len(words) <= 3
        and not any(w in COMPANY_WORDS for w in words)
        and all(w.replace("'", "").replace("-", "").isalpha() for w in words)
    )


def _bracketed_siblings(leaves: dict[str, Any], path: str) -> bool:
    """Whether a leaf of the same record holds brackets: pdfium reorders a whole line around
    right-to-left text, and mirrors brackets on it ("(683) 256-3988" reads ") 683 (256-3988"),
    so a name in another script stays off lines that carry them."""
    parent = path.rsplit(".", 1)[0] if "." in path else ""
    return any(
        isinstance(value, str) and ("(" in value or ")" in value)
        for other, (value, _) in leaves.items()
        if other.rsplit(".", 1)[0] == parent and other != path
    )


def _people(subject: Subject) -> bool:
    return any(_person(path, value) for path, (value, _) in subject.leaves().items())


@pattern(
    "data.rtl_names",
    "Right-to-left names",
    phase="document",
    truth="value",
    reference="p23_rtl_text",
    applies=_people,
    description="some person names in Hebrew or Arabic script",
)
def _rtl_names(staging: Staging) -> bool:
    rng = staging.rng
    leaves = staging.subject.leaves()
    people = [
        (path, value)
        for path, (value, _) in leaves.items()
        if _person(path, value) and _free(staging, path) and not _bracketed_siblings(leaves, path)
    ]
    if not people:
        return False
    rng.shuffle(people)
    chosen = people[: rng.randint(2, 12)]
    # Names of one record (first and last of a driver) come from one person of one script.
    persons: dict[str, tuple[str, str]] = {}
    for path, value in chosen:
        owner = path.rsplit(".", 1)[0]
        if owner not in persons:
            hebrew = rng.random() < 0.5
            given = rng.choice(scripts.HEBREW_GIVEN if hebrew else scripts.ARABIC_GIVEN)
            family = rng.choice(scripts.HEBREW_FAMILY if hebrew else scripts.ARABIC_FAMILY)
            persons[owner] = (given, family)
        given, family = persons[owner]
        key = path.rsplit(".", 1)[-1]
        # One word per value: pdfium reorders each right-to-left word of a left-to-right
        # line on its own, so a two-word name would read back with its words swapped.
        name = given if key == "first_name" else family
        staging.set_value(path, name, value)
        staging.presentation.fonts[path] = UNICODE_FONT
        staging.presentation.glyphs[path] = scripts.visual(name)
    return True


LIGATURES = (
    ("ffi", "\ufb03"),
    ("ffl", "\ufb04"),
    ("ff", "\ufb00"),
    ("fi", "\ufb01"),
    ("fl", "\ufb02"),
)


def _ligature_text(subject: Subject) -> bool:
    return any(pair in value for _, value in _prose(subject) for pair, _ in LIGATURES)


@pattern(
    "data.ligatures",
    "Ligatures",
    phase="document",
    truth="shown",
    reference="p29_ligatures",
    applies=_ligature_text,
    description="ff/fi/fl ligature code points inside words",
)
def _ligatures(staging: Staging) -> bool:
    done = 0
    for path, value in _prose(staging.subject):
        if not _free(staging, path) or not any(pair in value for pair, _ in LIGATURES):
            continue
        text = value
        for pair, glyph in LIGATURES:
            text = text.replace(pair, glyph)
        staging.show(path, text, value, reading="nfkc")
        staging.presentation.fonts[path] = UNICODE_FONT
        done += 1
        if done >= 12:
            break
    return done > 0


def _long_text(subject: Subject) -> bool:
    return any(len(value) > 22 for _, value in _prose(subject))


@pattern(
    "data.truncation",
    "Truncated values",
    phase="document",
    truth="value",
    reference="p25_truncation",
    applies=_long_text,
    description="long values cut with an ellipsis; the value is what is shown",
)
def _truncation(staging: Staging) -> bool:
    rng = staging.rng
    long = [(p, v) for p, v in _prose(staging.subject) if len(v) > 22 and _free(staging, p)]
    rng.shuffle(long)
    done = 0
    for path, value in long[: rng.randint(1, 6)]:
        cut = int(len(value) * rng.uniform(0.5, 0.8))
        shown = value[:cut].rstrip(" ,.-") + "\u2026"
        staging.set_value(path, shown, value)
        done += 1
    return done > 0


MARKERS = ("\u00b9", "\u00b2", "\u00b3", "*", "\u2020")
FOOTNOTES = (
    "Includes expense payments.",
    "As reported by the insured.",
    "Subject to audit.",
    "Revised since the prior report.",
    "Estimate; see adjuster notes.",
)


@pattern(
    "data.footnote_markers",
    "Footnote markers",
    phase="document",
    truth="shown",
    reference="p11_footnotes",
    applies=_has("money", "number", "id"),
    description="superscript markers glued to values, notes at the page foot",
)
def _footnotes(staging: Staging) -> bool:
    rng = staging.rng
    candidates = [
        path
        for path, _, _ in staging.subject.values("money", "number", "id")
        if _free(staging, path)
    ]
    if not candidates:
        return False
    rng.shuffle(candidates)
    leaves = staging.subject.leaves()
    notes: dict[str, str] = {}
    for index, path in enumerate(sorted(candidates[: rng.randint(2, 5)])):
        marker = MARKERS[index % len(MARKERS)]
        value, leaf = leaves[path]
        staging.show(
            path,
            fmt.render(value, leaf, staging.subject.style) + marker,
            value,
            reading="marker",
            marker=marker,
        )
        notes[marker] = FOOTNOTES[index % len(FOOTNOTES)]

    def footnotes(pdf: Any) -> None:
        from packetbench.generator.render.metrics import MARGIN

        for path in staging.applied.targets:
            drawn = pdf.recorder.drawn.get(path)
            staging.applied.pages.update(loc["page"] for loc in (drawn.locations if drawn else []))
        for page in sorted(staging.applied.pages):
            line = "   ".join(f"{m} {n}" for m, n in notes.items())
            pdf.text(page - 1, MARGIN, MARGIN - 6, line, size=5.5)

    staging.after_layout(footnotes)
    return True


# --- units --------------------------------------------------------------------------------------


def _thousands_fit(subject: Subject) -> bool:
    money = subject.values("money")
    return (
        bool(subject.tables)
        and len(money) >= 3
        and all(round(v * 100) % 100_000 == 0 for _, v, _ in money)
    )


@pattern(
    "data.thousands",
    "Amounts in thousands",
    phase="document",
    truth="shown",
    applies=_thousands_fit,
    description="every amount in $000s, the unit stated once above the table",
)
def _thousands(staging: Staging) -> bool:
    if not all(_free(staging, path) for path, _, _ in staging.subject.values("money")):
        return False
    for path, value, _ in staging.subject.values("money"):
        thousands = round(value) // 1000
        staging.show(
            path,
            f"({abs(thousands):,})" if value < 0 else f"{thousands:,}",
            value,
            reading="thousands",
        )
    for name in staging.subject.tables:
        look = staging.presentation.tables.setdefault(name, TableLook())
        look.caption = "All amounts in thousands of U.S. dollars ($000s)"
    return True


def _fraction(value: float) -> str:
    fraction = (Decimal(repr(float(value))) / 100).normalize()
    text = format(fraction, "f")
    whole, _, decimals = text.partition(".")
    return f"{whole}.{decimals.ljust(2, '0')}"


@pattern(
    "data.percent_as_fraction",
    "Percent as fraction",
    phase="document",
    truth="shown",
    applies=_has("percent"),
    description="percentages written as fractions (0.85 for 85 %)",
)
def _percent_fraction(staging: Staging) -> bool:
    done = 0
    for path, value, _ in staging.subject.values("percent"):
        if _free(staging, path):
            staging.show(path, _fraction(value), value, reading="fraction")
            done += 1
    return done > 0
