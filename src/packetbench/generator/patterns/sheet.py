"""sheet.* — how a workbook makes extraction hard (XLSX documents, sheet phase).

Each pattern states an intent in the document's `SheetLook` before the workbook is written;
the workbook writer (`generator.render.xlsx`) carries it out where it can (a hidden row only in
a table drawn one record per row under named headers, a formula only where the cells above a
total add up to it) and reports what it did. The application is then confirmed from those
reports and its delta read from what was drawn, so the manifest never claims an effect the
file does not have. Truth rules: see `generator.render.sheetlook`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from packetbench.core.leaves import path_pattern
from packetbench.generator.patterns.base import Staging, Subject, pattern
from packetbench.generator.render.cells import cell_text
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.sheetlook import text_number
from packetbench.generator.render.xlsx import typed

# Fills a status colour key uses (light, so the code on them stays legible).
FILLS = ("C6EFCE", "FFC7CE", "FFEB9C", "BDD7EE", "E4DFEC", "FCE4D6")
TITLE_BLOCKS = (
    ("CONFIDENTIAL - FOR UNDERWRITING USE ONLY", "Prepared from agency management system"),
    ("Submission workbook", "Figures as provided by the insured; not verified", "Tab 1 of 1"),
    ("Broker working copy", "Do not distribute"),
    ("Exported report", "All amounts in US dollars unless stated", "Filter: none"),
)
NOTES = (
    "per appraisal",
    "updated per insured",
    "see email 3/4",
    "verify with broker",
    "estimate",
    "incl. tenant improvements",
    "revised",
    "per prior carrier",
    "awaiting confirmation",
    "no change",
)
HIDDEN_SHEETS = ("PY values", "Calc", "Sheet2", "Working", "Lookup")


def _row_lists(subject: Subject) -> list[str]:
    """Lists of records that hold no further list (a workbook draws them one row each),
    erased with a trailing ``[]``: ``policies[].claims[]``."""
    names = subject.tables
    return [
        f"{name}[]"
        for name in names
        if subject.rows(name) and not any(o.startswith(f"{name}[].") for o in names)
    ]


def _columns(subject: Subject, *kinds: str, records: bool = True) -> dict[str, list[str]]:
    """Column pattern -> its non-null paths, for leaves of `kinds` (inside records only when
    `records`), in model order."""
    rows = _row_lists(subject)
    found: dict[str, list[str]] = {}
    for path, _, leaf in subject.values(*kinds):
        column = path_pattern(path)
        inside = any(column.startswith(f"{r}.") for r in rows)
        if leaf.fmt == "year" or (records and not inside):
            continue
        found.setdefault(column, []).append(path)
    return found


def _events(recorder: Recorder, event: str) -> set[int]:
    return set(recorder.presentation.happened(event))


def _confirm_event(
    staging: Staging, event: str, targets: Callable[[Recorder], list[str]] | None = None
) -> None:
    """Keep the application when the writer reported `event`; its pages are the sheets."""
    applied = staging.applied

    def check(recorder: Recorder) -> bool:
        pages = _events(recorder, event)
        if not pages:
            return False
        applied.pages = pages
        if targets is not None:
            applied.targets = targets(recorder)
        return True

    staging.confirm(check)


def _confirm_converted(
    staging: Staging,
    reading: str,
    legend: dict[str, str] | None = None,
) -> None:
    """Keep the application when values were stored differently; its delta is what was
    drawn (`rendered_as`) against the canonical value, with the reading."""
    applied = staging.applied

    def check(recorder: Recorder) -> bool:
        changed = [p for p, r in recorder.presentation.sheet.converted.items() if r == reading]
        if not changed:
            return False
        for path in changed:
            value, leaf = recorder.leaf(path)
            drawn = recorder.drawn.get(path)
            if drawn is None or drawn.rendered_as == cell_text(typed(value, leaf, recorder.style)):
                continue  # stored otherwise, but it reads the same ("7" as text)
            applied.targets.append(path)
            applied.delta[path] = {
                "canonical": value,
                "shown": drawn.rendered_as,
                "reading": reading,
            }
        applied.pages = _events(recorder, f"sheet.{reading}")
        if legend is not None:
            applied.details["legend"] = legend
        return bool(applied.targets)

    staging.confirm(check)


# --- shared by several patterns --------------------------------------------------------------


def _records(subject: Subject) -> bool:
    return bool(_row_lists(subject))


def _has(*kinds: str, records: bool = True) -> Callable[[Subject], bool]:
    return lambda subject: bool(_columns(subject, *kinds, records=records))


def _totals(subject: Subject) -> bool:
    return any("total" in p for p, _, _ in subject.values("money", "number"))


def _blocks(subject: Subject) -> list[str]:
    """Lists whose records hold lists (a loss run's policy terms, each with its claims)."""
    names = subject.tables
    return [
        name
        for name in names
        if subject.rows(name)
        and "[]" not in name
        and any(o.startswith(f"{name}[].") for o in names)
    ]


def _store_as(
    staging: Staging, reading: str, kinds: tuple[str, ...], records: bool, most: int
) -> bool:
    """Store up to `most` columns of leaves of `kinds` (inside records only when `records`)
    otherwise (`reading`: "as_text" or "serial")."""
    found = _columns(staging.subject, *kinds, records=records)
    leaves = staging.subject.leaves()
    # Columns whose text changes ("1,250,000" for 1250000), not single digits.
    columns = [
        c
        for c, paths in found.items()
        if reading != "as_text"
        or any(
            abs(float(leaves[p][0])) >= 1000 or not float(leaves[p][0]).is_integer() for p in paths
        )
    ]
    if not columns:
        return False
    chosen = staging.rng.sample(columns, k=min(most, len(columns)))
    look = staging.presentation.sheet
    target = {"as_text": look.as_text, "serial": look.serials}[reading]
    target.update(chosen)
    staging.applied.details["columns"] = sorted(chosen)
    _confirm_converted(staging, reading)
    return True


# --- the patterns -----------------------------------------------------------------------------
# The patterns are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


@pattern(
    "sheet.hidden_sheet",
    "Hidden sheet",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    applies=_has("money", "number"),
    description="a hidden sheet of working figures; its text is hidden, never truth",
)
def _hidden_sheet(staging: Staging) -> bool:
    """A hidden sheet of working figures: last year's numbers of the main table's records."""
    subject, rng = staging.subject, staging.rng
    columns = _columns(subject, "money", "number")
    if not columns:
        return False
    chosen = list(columns)[:6]
    factor = rng.choice((0.88, 0.9, 0.93, 0.95))
    rows: list[list[Any]] = [["Row", *(c.rsplit(".", 1)[-1].replace("_", " ") for c in chosen)]]
    count = max(len(columns[c]) for c in chosen)
    for index in range(count):
        row: list[Any] = [index + 1]
        for column in chosen:
            paths = columns[column]
            value = subject.leaves()[paths[index]][0] if index < len(paths) else None
            row.append(round(float(value) * factor) if value is not None else None)
        rows.append(row)
    title = rng.choice(HIDDEN_SHEETS)
    staging.presentation.sheet.hidden_sheet = (title, rows)
    staging.applied.details.update(sheet=title, factor=factor, rows=len(rows) - 1)
    _confirm_event(staging, "sheet.hidden_sheet")
    return True


@pattern(
    "sheet.hidden_rows",
    "Hidden rows",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    applies=_records,
    description="a hidden row under a record holding an older copy of it; its text is hidden, "
    "never truth",
)
def _hidden_rows(staging: Staging) -> bool:
    """A hidden row under one record holding an older copy of it (amounts as they stood
    before): working figures nobody sees, in no truth."""
    subject, rng = staging.subject, staging.rng
    lists = [name for name in _row_lists(subject) if len(subject.rows(name[:-2])) >= 2]
    if not lists:
        return False
    name = rng.choice(lists)
    records = subject.rows(name[:-2])
    record = records[rng.randrange(len(records))]
    factor = rng.choice((0.85, 0.9, 0.92, 0.95))
    staging.presentation.sheet.hidden_after[record] = factor
    staging.applied.details.update(after=record, factor=factor)
    _confirm_event(staging, "sheet.hidden_rows")
    return True


@pattern(
    "sheet.hidden_columns",
    "Hidden columns",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    applies=_records,
    description="a hidden column of prior amounts or references beside the table",
)
def _hidden_columns(staging: Staging) -> bool:
    """A hidden column beside the table: last year's amounts or internal references."""
    subject, rng = staging.subject, staging.rng
    lists = _row_lists(subject)
    if not lists:
        return False
    name = max(lists, key=lambda n: len(subject.rows(n[:-2])))
    money = [c for c in _columns(subject, "money") if c.startswith(f"{name}.")]
    texts: dict[str, str] = {}
    if money:
        key = money[-1].rsplit(".", 1)[-1]
        title = "PY " + key.replace("_", " ")
        factor = rng.choice((0.9, 0.92, 0.95))
        for record in subject.rows(name[:-2]):
            value = subject.leaves().get(f"{record}.{key}", (None, None))[0]
            if value is not None:
                texts[record] = text_number(round(float(value) * factor))
    else:
        title = "Internal ref"
        for record in subject.rows(name[:-2]):
            texts[record] = f"R-{rng.randrange(10000, 99999)}"
    if not texts:
        return False
    staging.presentation.sheet.hidden_column = (title, name, texts)
    staging.applied.details.update(column=title, table=name)
    _confirm_event(staging, "sheet.hidden_columns")
    return True


@pattern(
    "sheet.merged_cells",
    "Merged cells",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    description="title-block cells merged across the empty cells beside them",
)
def _merged_cells(staging: Staging) -> bool:
    staging.presentation.sheet.merge_title_block = True
    _confirm_event(staging, "sheet.merged_cells")
    return True


@pattern(
    "sheet.numbers_as_text",
    "Numbers stored as text",
    phase="sheet",
    truth="shown",
    formats=("xlsx",),
    applies=_has("money", "number"),
    description='amounts and counts in text cells ("1,250,000")',
)
def _numbers_as_text(staging: Staging) -> bool:
    return _store_as(staging, "as_text", ("money", "number"), True, 2)


@pattern(
    "sheet.date_serials",
    "Dates as serial numbers",
    phase="sheet",
    truth="shown",
    formats=("xlsx",),
    applies=_has("date", records=False),
    description="dates as bare Excel serial numbers (45292)",
)
def _date_serials(staging: Staging) -> bool:
    return _store_as(staging, "serial", ("date",), False, 2)


@pattern(
    "sheet.formulas",
    "Totals as formulas",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    applies=_totals,
    description="totals as SUM formulas with cached values",
)
def _formulas(staging: Staging) -> bool:
    keys = {
        p.rsplit(".", 1)[-1]
        for p, _, _ in staging.subject.values("money", "number")
        if "total" in p
    }
    if not keys:
        return False
    staging.presentation.sheet.formulas.update(keys)
    staging.applied.details["columns"] = sorted(keys)

    def totals(recorder: Recorder) -> list[str]:
        cached = recorder.presentation.sheet.formula_paths
        return list(cached)

    _confirm_event(staging, "sheet.formulas", totals)
    return True


@pattern(
    "sheet.header_offset",
    "Title block above the header",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    description="report lines above everything push the header down",
)
def _header_offset(staging: Staging) -> bool:
    staging.presentation.sheet.title_lines = list(staging.rng.choice(TITLE_BLOCKS))
    staging.applied.details["lines"] = len(staging.presentation.sheet.title_lines)
    _confirm_event(staging, "sheet.header_offset")
    return True


@pattern(
    "sheet.thousands",
    "A $000s column",
    phase="sheet",
    truth="shown",
    formats=("xlsx",),
    applies=_has("money"),
    description="one amount column in thousands, its header saying so",
)
def _thousands(staging: Staging) -> bool:
    """One money column in $000s, its header saying so; totals under it alike."""
    subject = staging.subject
    # Whole dollars only: cents in thousands would need five decimals to stay readable.
    columns = [
        c
        for c, paths in _columns(subject, "money").items()
        if all(float(subject.leaves()[p][0]).is_integer() for p in paths)
    ]
    if not columns:
        return False
    key = staging.rng.choice(columns).rsplit(".", 1)[-1]
    chosen = {path_pattern(p) for p, _, _ in subject.values("money") if p.rsplit(".", 1)[-1] == key}
    staging.presentation.sheet.thousands.update(chosen)
    staging.applied.details["columns"] = sorted(chosen)
    _confirm_converted(staging, "thousands")
    return True


@pattern(
    "sheet.split_sheets",
    "One sheet per year or carrier",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    applies=lambda s: bool(_blocks(s)),
    description="each policy term on a sheet of its own, named by carrier and year",
)
def _split_sheets(staging: Staging) -> bool:
    """One sheet per block (a policy term), named by its carrier and year."""
    subject = staging.subject
    blocks = _blocks(subject)
    if not blocks:
        return False
    leaves = subject.leaves()
    titles: dict[str, str] = {}
    for record in subject.rows(blocks[0]):
        carrier = str(leaves.get(f"{record}.carrier", (None, None))[0] or "Block")
        start = str(leaves.get(f"{record}.effective_date", (None, None))[0] or "")[:4]
        policy = str(leaves.get(f"{record}.policy_number", (None, None))[0] or "")
        name = f"{start} {policy or carrier.split()[0]}".strip()
        title = re.sub(r"[\\/*?:\[\]]", "", name)[:28]
        number = 2
        base = title
        while title in titles.values():
            title = f"{base} ({number})"
            number += 1
        titles[record] = title
    if len(titles) < 2:
        return False
    staging.presentation.sheet.split.update(titles)
    staging.applied.details.update(table=blocks[0], sheets=len(titles))
    _confirm_event(staging, "sheet.split_sheets")
    return True


@pattern(
    "sheet.subtotal_rows",
    "Subtotal rows",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    applies=_records,
    description="a subtotal row after each location's buildings",
)
def _subtotal_rows(staging: Staging) -> bool:
    """A subtotal row after each group of records sharing the first part of their key (the
    buildings of one location)."""
    subject = staging.subject
    look = staging.presentation.sheet
    item = subject.leaves()
    for name in _row_lists(subject):
        rows = subject.rows(name[:-2])
        # Buildings group by their location (records keyed by location and building).
        if not rows or f"{rows[0]}.building_number" not in item:
            continue
        group_key = "location_number"
        groups = {item.get(f"{r}.{group_key}", (None, None))[0] for r in rows}
        if 2 <= len(groups) < len(rows):
            look.subtotals[name] = group_key
            staging.applied.details.update(table=name, by=group_key, groups=len(groups))
            _confirm_event(staging, "sheet.subtotal_rows")
            return True
    return False


@pattern(
    "sheet.notes_column",
    "Notes column",
    phase="sheet",
    truth="none",
    formats=("xlsx",),
    applies=_records,
    description="free-text notes beside the records",
)
def _notes_column(staging: Staging) -> bool:
    subject, rng = staging.subject, staging.rng
    lists = _row_lists(subject)
    if not lists:
        return False
    name = max(lists, key=lambda n: len(subject.rows(n[:-2])))
    records = subject.rows(name[:-2])
    notes = {r: rng.choice(NOTES) for r in records if rng.random() < 0.45}
    if not notes:
        notes = {records[0]: rng.choice(NOTES)}
    staging.presentation.sheet.notes = ("Notes", name, notes)
    staging.applied.details.update(table=name, notes=len(notes))
    _confirm_event(staging, "sheet.notes_column")
    return True


@pattern(
    "sheet.color_status",
    "Status by fill colour",
    phase="sheet",
    truth="shown",
    formats=("xlsx",),
    applies=_has("enum"),
    description="a status column as coloured codes with a key",
)
def _color_status(staging: Staging) -> bool:
    """A status column as a coloured code, with a key to the colours."""
    subject, rng = staging.subject, staging.rng
    candidates: dict[str, list[str]] = {}
    for column, paths in _columns(subject, "enum").items():
        values = sorted({str(subject.leaves()[p][0]) for p in paths})
        # Words (statuses, kinds), not codes: a code needs no colour to be read.
        if 2 <= len(values) <= len(FILLS) and all(len(v) > 3 for v in values):
            candidates[column] = values
    if not candidates:
        return False
    statuses = [c for c in candidates if "status" in c]
    column = statuses[0] if statuses else rng.choice(list(candidates))
    values = candidates[column]
    fills = rng.sample(FILLS, k=len(values))
    legend: dict[str, str] = {}
    codes: dict[str, tuple[str, str]] = {}
    for value, fill in zip(values, fills, strict=True):
        code = _code(value, set(legend))
        legend[code] = value
        codes[value] = (code, fill)
    staging.presentation.sheet.colors[column] = codes
    staging.applied.details.update(column=column, fills={c: codes[v][1] for c, v in legend.items()})
    _confirm_converted(staging, "legend", legend)
    return True


def _code(value: str, taken: set[str]) -> str:
    """A short code for a status: its initials, lengthened until unique."""
    words = [w for w in value.replace("/", " ").split() if w[:1].isalnum()]
    code = "".join(w[0] for w in words).upper() or value[:1].upper()
    length = 2
    while code in taken:
        code = value.replace(" ", "")[:length].upper()
        length += 1
    return code
