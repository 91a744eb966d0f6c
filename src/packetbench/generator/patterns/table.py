"""table.* — the structure of PDF tables (layout phase).

Each pattern sets the `TableLook` of the document's lists of records; the table engine
(`generator.render.table`) draws whatever the look says for the lists the renderer draws as
tables, and reports which it drew, so an application keeps only those as its targets (and is
dropped when the document draws none). Truth is untouched except where a pattern says
otherwise (subtotals reorder claims by location, so the truth lists them in the order
shown). A pattern whose effect depends on how the table falls on the pages (a split row, a
continuation page) confirms it from the events the engine reports and is dropped when it never
happened.
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
from collections.abc import Callable
from typing import Any

from packetbench.core.leaves import Leaf, path_pattern
from packetbench.generator.patterns import vocabulary
from packetbench.generator.patterns.base import Staging, Subject, list_paths, pattern
from packetbench.generator.render import fmt
from packetbench.generator.render.metrics import REGULAR, width_of
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table_look import Detail, TableLook

REPLACES_GRID = (
    "table.vertical_records",
    "table.mainframe",
    "table.claim_blocks",
    "table.dual",
    "table.combined_sources",
)
GRID_STYLES = (
    "table.borderless",
    "table.shading",
    "table.merged_header",
    "table.stacked_header",
    "table.rotated_header",
    "table.variable_widths",
    "table.continuation_header",
    "table.subtotals",
    "table.nested",
    "table.multiline_wrap",
    "table.row_split",
    "table.single_row_total",
)
HEADER_STYLES = ("table.merged_header", "table.stacked_header", "table.rotated_header")
LOSS_RUNS = ("loss_run",)


# --- what a document's tables hold --------------------------------------------------------------


def _lists(subject: Subject, name: str) -> list[str]:
    """Concrete list paths of table `name` that hold rows: ``policies[2].claims``."""
    return subject.lists(name)


def _rows(subject: Subject, name: str) -> list[str]:
    """Concrete record paths of table `name`: ``policies[2].claims[0]``."""
    return subject.rows(name)


def _columns(subject: Subject, name: str) -> dict[str, Leaf]:
    """Column key (leaf path inside a record: ``paid``, ``address.city``) -> leaf marker of
    the records of table `name` (nested lists excluded)."""
    prefix = f"{name}[]."
    out: dict[str, Leaf] = {}
    for path, (_, leaf) in subject.leaves().items():
        pattern = path_pattern(path)
        if pattern.startswith(prefix) and "[]" not in pattern[len(prefix) :]:
            out.setdefault(pattern[len(prefix) :], leaf)
    return out


def _group(key: str, leaf: Leaf) -> str:
    """The merged-header group of a column, by what its values are."""
    if leaf.kind == "money":
        return "Amounts (USD)"
    if leaf.kind == "date":
        return "Dates"
    if leaf.kind == "id" or key.endswith("_number"):
        return "Reference"
    if key.startswith("address."):
        return "Location"
    return "Details"


def _tables(subject: Subject) -> list[str]:
    return [name for name in subject.tables if _lists(subject, name)]


def has_tables(subject: Subject) -> bool:
    return bool(_tables(subject))


def _look(staging: Staging, name: str) -> TableLook:
    return staging.presentation.tables.setdefault(name, TableLook())


def _each_table(staging: Staging, change: Callable[[TableLook, str], bool]) -> bool:
    """Apply `change(look, name)` to every table of the document; True when any changed."""
    changed = False
    for name in _tables(staging.subject):
        if change(_look(staging, name), name):
            staging.applied.targets.extend(_lists(staging.subject, name))
            changed = True
    return changed


def _event(event: str) -> Callable[[Recorder], bool]:
    def check(recorder: Recorder) -> bool:
        return bool(recorder.presentation.happened(event))

    return check


def _pages_of_event(staging: Staging, event: str) -> None:
    """Pages affected are where `event` happened (set when the drawn document confirms it)."""

    def check(recorder: Recorder) -> bool:
        pages = recorder.presentation.happened(event)
        staging.applied.pages.update(pages)
        return bool(pages)

    staging.confirm(check)


def _text_column(subject: Subject, name: str) -> tuple[str, float, float] | None:
    """The string column with the longest median text: (key, that median width, the widest
    single word), both in points at 7 pt."""
    best: tuple[str, float, float] | None = None
    leaves = subject.leaves()
    for key, leaf in _columns(subject, name).items():
        if leaf.kind not in ("string", "text"):
            continue
        texts = [
            str(leaves[f"{row}.{key}"][0])
            for row in _rows(subject, name)
            if leaves[f"{row}.{key}"][0] is not None
        ]
        if not texts:
            continue
        median = statistics.median(width_of(t, REGULAR, 7.0) for t in texts)
        word = max(width_of(w, REGULAR, 7.0) for t in texts for w in t.split() or [""])
        if best is None or median > best[1]:
            best = (key, median, word)
    return best


def _narrowed(column: tuple[str, float, float], lines: float) -> float:
    """A column width making the median value wrap to about `lines` lines, never narrower
    than its widest word (a word is never split, and its font must stay legible)."""
    _, median, word = column
    return round(max(median / lines, word + 7.0, 28.0), 1)


# --- shared by several patterns --------------------------------------------------------------


def _others(group: tuple[str, ...], own: str) -> tuple[str, ...]:
    return tuple(i for i in group if i != own)


def _layout(staging: Staging, kind: str) -> bool:
    """Draw every table of the document as a whole other layout (`TableLook.layout`)."""

    def change(look: TableLook, name: str) -> bool:
        if kind == "blocks" and not any(
            leaf.kind == "money" for leaf in _columns(staging.subject, name).values()
        ):
            return False
        look.layout = kind
        return True

    changed = _each_table(staging, change)
    _pages_of_event(staging, kind)
    return changed


# --- the patterns -----------------------------------------------------------------------------
# The patterns are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


@pattern(
    "table.borderless",
    "Borderless table",
    phase="layout",
    truth="none",
    reference="p01_borderless",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="no rules at all; columns aligned by whitespace only",
)
def _borderless(staging: Staging) -> bool:
    def change(look: TableLook, name: str) -> bool:
        look.rules, look.header_fill, look.row_rules = "none", None, False
        return True

    return _each_table(staging, change)


@pattern(
    "table.merged_header",
    "Merged header",
    phase="layout",
    truth="none",
    reference="p02_merged_headers",
    incompatible=(*REPLACES_GRID, *_others(HEADER_STYLES, "table.merged_header")),
    applies=has_tables,
    description="two or three header rows, group labels spanning their columns",
)
def _merged(staging: Staging) -> bool:
    three = staging.rng.random() < 0.5

    def change(look: TableLook, name: str) -> bool:
        columns = _columns(staging.subject, name)
        look.group_of = {key: _group(key, leaf) for key, leaf in columns.items()}
        if three:
            look.top_group_of = {
                key: "Financial" if leaf.kind == "money" else "Record"
                for key, leaf in columns.items()
            }
        return len(set(look.group_of.values())) > 1

    staging.applied.details["header_rows"] = 3 if three else 2
    return _each_table(staging, change)


@pattern(
    "table.continuation_header",
    "Continuation header",
    phase="layout",
    truth="none",
    reference="p03_multipage",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="continuation pages repeat the header in abbreviated carrier jargon",
)
def _continuation(staging: Staging) -> bool:
    def change(look: TableLook, name: str) -> bool:
        look.continued = {}
        for key in _columns(staging.subject, name):
            options = vocabulary.JARGON.get(key)
            look.continued[key] = (
                options[0] if options else vocabulary.abbreviate(key.replace("_", " ").title())
            )
        return True

    changed = _each_table(staging, change)
    _pages_of_event(staging, "continued")
    return changed


@pattern(
    "table.subtotals",
    "Subtotal rows",
    phase="layout",
    truth="value",
    reference="p04_subtotals",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="location subtotal rows between the records (rows regrouped by location)",
)
def _subtotals(staging: Staging) -> bool:
    subject = staging.subject

    def change(look: TableLook, name: str) -> bool:
        columns = _columns(subject, name)
        if "location_number" not in columns or not any(
            leaf.kind == "money" for leaf in columns.values()
        ):
            return False
        leaves = subject.leaves()
        for items in _lists(subject, name):
            rows = _rows_of(subject, items)
            keys = [leaves[f"{row}.location_number"][0] for row in rows]
            order = sorted(range(len(rows)), key=lambda i: (keys[i] is None, keys[i] or 0, i))
            if order != list(range(len(rows))):
                # Grouping needs the rows in location order: the document lists them so.
                data = subject.doc.model_dump(mode="json")
                records = _get(data, items)
                staging.values[items] = [records[i] for i in order]
                staging.applied.delta[items] = {"reordered_by": "location_number"}
        look.subtotal_by = "location_number"
        look.subtotal_label = "Subtotal location"
        return True

    changed = _each_table(staging, change)
    _pages_of_event(staging, "subtotal")
    return changed


def _rows_of(subject: Subject, items: str) -> list[str]:
    """Record paths of the concrete list `items` (``policies[2].claims``)."""
    return [row for row in subject.rows(path_pattern(items)) if row.startswith(f"{items}[")]


def _get(data: Any, path: str) -> Any:
    node = data
    for part in re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\[\d+\]", path):
        node = node[int(part[1:-1])] if part.startswith("[") else node[part]
    return node


@pattern(
    "table.nested",
    "Nested tables",
    phase="layout",
    truth="none",
    doc_types=LOSS_RUNS,
    reference="p05_nested_tables",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="a payments sub-table inside each paid claim's description cell",
)
def _nested(staging: Staging) -> bool:
    """Payments per claim: a sub-table in the description cell summing to the paid amount."""
    subject, rng = staging.subject, staging.rng
    leaves = subject.leaves()

    def change(look: TableLook, name: str) -> bool:
        columns = _columns(subject, name)
        if not {"paid", "description", "loss_date"} <= set(columns):
            return False
        valued = leaves.get("valuation_date", (None, None))[0]
        for row in _rows(subject, name):
            paid = leaves[f"{row}.paid"][0]
            if not paid or paid <= 0:
                continue
            start = dt.date.fromisoformat(leaves[f"{row}.loss_date"][0])
            closed = leaves.get(f"{row}.closed_date", (None, None))[0] or valued
            end = dt.date.fromisoformat(closed) if closed else start + dt.timedelta(days=90)
            look.details[row] = Detail(
                ("Pmt date", "Type", "Amount"), _payments(rng, round(paid * 100), start, end)
            )
        look.detail_column = "description"
        return bool(look.details)

    changed = _each_table(staging, change)
    _pages_of_event(staging, "detail")
    return changed


def _payments(rng: Any, cents: int, start: dt.date, end: dt.date) -> tuple[tuple[str, ...], ...]:
    """1-3 payments summing to `cents`, dated in order between the loss and `end`."""
    count = min(rng.randint(1, 3), max(1, cents // 100))
    cuts = sorted(rng.sample(range(1, cents), count - 1)) if count > 1 else []
    amounts = [b - a for a, b in zip([0, *cuts], [*cuts, cents], strict=True)]
    span = max((end - start).days, count)
    days = sorted(rng.sample(range(1, span + 1), count))
    rows = []
    for amount, offset in zip(amounts, days, strict=True):
        day = start + dt.timedelta(days=offset)
        rows.append(
            (
                day.strftime("%m/%d/%Y"),
                rng.choice(("Indemnity", "Medical", "Expense", "Legal")),
                fmt.money(amount / 100, fmt.Style(cents=True)),
            )
        )
    return tuple(rows)


@pattern(
    "table.multiline_wrap",
    "Multi-line wrap",
    phase="layout",
    truth="none",
    reference="p07_multiline_wrap",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="the longest text column narrowed so values wrap 3-5 lines, no row rules",
)
def _multiline(staging: Staging) -> bool:
    def change(look: TableLook, name: str) -> bool:
        column = _text_column(staging.subject, name)
        if column is None or column[1] < 60:
            return False
        key = column[0]
        look.fixed[key] = _narrowed(column, 3.5)
        look.row_rules = False
        staging.applied.details.setdefault("wrapped_columns", {})[name] = key
        return True

    changed = _each_table(staging, change)
    staging.confirm(_event("wrapped"))
    return changed


@pattern(
    "table.row_split",
    "Row split at page break",
    phase="layout",
    truth="none",
    reference="p19_row_split",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="a tall row starts on one page and finishes on the next",
)
def _row_split(staging: Staging) -> bool:
    def change(look: TableLook, name: str) -> bool:
        column = _text_column(staging.subject, name)
        if column is None or column[1] < 50:
            return False
        look.fixed[column[0]] = _narrowed(column, 6.0)
        look.split_rows = True
        return True

    changed = _each_table(staging, change)
    _pages_of_event(staging, "split")
    return changed


@pattern(
    "table.dual",
    "Dual tables",
    phase="layout",
    truth="none",
    reference="p12_dual_tables",
    incompatible=(
        *_others(REPLACES_GRID, "table.dual"),
        "table.merged_header",
        "table.variable_widths",
        "table.nested",
        "table.rotated_header",
    ),
    applies=has_tables,
    description="the columns drawn as two tables side by side with their own headers and rules",
)
def _dual(staging: Staging) -> bool:
    fraction = staging.rng.choice((0.35, 0.4, 0.45))

    def change(look: TableLook, name: str) -> bool:
        look.split_fraction = fraction
        return True

    staging.applied.details["left_share"] = fraction
    changed = _each_table(staging, change)
    _pages_of_event(staging, "dual")
    return changed


@pattern(
    "table.single_row_total",
    "Single-row total table",
    phase="layout",
    truth="none",
    reference="p31_single_row",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="the totals row drawn as its own one-row table below the records",
)
def _total_apart(staging: Staging) -> bool:
    def change(look: TableLook, name: str) -> bool:
        look.total_apart = True
        return True

    changed = _each_table(staging, change)
    _pages_of_event(staging, "total_apart")
    return changed


@pattern(
    "table.variable_widths",
    "Variable column widths",
    phase="layout",
    truth="none",
    reference="p21_variable_widths",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="header cell edges offset 2-5 pt from the data columns",
)
def _variable_widths(staging: Staging) -> bool:
    shifts = tuple(
        round(staging.rng.choice((-1, 1)) * staging.rng.uniform(2.0, 5.0), 1) for _ in range(7)
    )

    def change(look: TableLook, name: str) -> bool:
        look.shift = shifts
        return True

    staging.applied.details["header_offsets_pt"] = list(shifts)
    return _each_table(staging, change)


@pattern(
    "table.vertical_records",
    "Vertical records",
    phase="layout",
    truth="none",
    reference="p64_vertical_claims",
    incompatible=(*_others(REPLACES_GRID, "table.vertical_records"), *GRID_STYLES),
    applies=has_tables,
    description="each record as a boxed block of label/value pairs instead of a row",
)
def _vertical_records(staging: Staging) -> bool:
    return _layout(staging, "records")


@pattern(
    "table.floating_header",
    "Floating header",
    phase="layout",
    truth="none",
    reference="p61_floating_headers",
    applies=has_tables,
    description="a block of report metadata pushes the first header down the page",
)
def _floating(staging: Staging) -> bool:
    rng = staging.rng
    run = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randrange(700))
    lines = [
        f"Report ID: RPT-{rng.randrange(10_000, 99_999)}-{rng.choice('ABCDEFGH')}",
        f"Generated: {run.strftime('%m/%d/%Y')} {rng.randrange(1, 12)}:"
        f"{rng.randrange(60):02d} {rng.choice(('AM', 'PM'))}",
        f"Requested by: {rng.choice(('Underwriting', 'Account Services', 'Loss Control'))}",
        "Selection: all records in scope",
        f"Sort order: {rng.choice(('as entered', 'by record number', 'by date'))}",
        "Currency: USD",
        f"Data source: {rng.choice(('policy admin system', 'broker file', 'carrier portal'))}",
        "Filters applied: none",
    ]
    extra = rng.randint(0, 5)
    lines += [f"Reference {i + 1}: see attached schedule" for i in range(extra)]

    def change(look: TableLook, name: str) -> bool:
        look.preamble = tuple(lines)
        return True

    staging.applied.details["preamble_lines"] = len(lines)
    # The table engine draws the block once, above the first table the document draws: that
    # table is the one touched.
    changed = _each_table(staging, change)

    def check(recorder: Recorder) -> bool:
        events = [
            (name, page) for kind, name, page in recorder.presentation.events if kind == "preamble"
        ]
        staging.applied.targets[:] = [
            t for t in staging.applied.targets if path_pattern(t) in {name for name, _ in events}
        ]
        staging.applied.pages.update(page for _, page in events)
        return bool(events)

    staging.confirm(check)
    return changed


NOTICES = (
    "Information shown is as reported by the insured and has not been verified by the "
    "carrier. Values and claim figures are subject to change without notice.",
    "CONFIDENTIAL - This report is provided for underwriting purposes only and may not be "
    "relied upon by any third party. Reproduction is prohibited.",
    "Note: amounts include expense and legal payments unless stated otherwise; recoveries "
    "(salvage and subrogation) are not netted from paid amounts.",
)


@pattern(
    "table.interrupted",
    "Interrupted table",
    phase="layout",
    truth="none",
    reference="p62_interrupted_tables",
    applies=has_tables,
    description="notice blocks break the table every few rows; the header is drawn again",
)
def _interrupted(staging: Staging) -> bool:
    every = staging.rng.randint(6, 14)

    def change(look: TableLook, name: str) -> bool:
        look.interrupt_every = every
        look.notices = NOTICES
        return True

    staging.applied.details["every_rows"] = every
    changed = _each_table(staging, change)
    _pages_of_event(staging, "interrupted")
    return changed


@pattern(
    "table.stacked_header",
    "Stacked header",
    phase="layout",
    truth="none",
    reference="p63_ambiguous_headers",
    incompatible=(*REPLACES_GRID, *_others(HEADER_STYLES, "table.stacked_header")),
    applies=has_tables,
    description="one word per header line, uneven depths, bottom aligned",
)
def _stacked(staging: Staging) -> bool:
    def change(look: TableLook, name: str) -> bool:
        look.stacked = True
        return True

    return _each_table(staging, change)


@pattern(
    "table.rotated_header",
    "Rotated header",
    phase="layout",
    truth="none",
    reference="p10_rotated_headers",
    incompatible=(*REPLACES_GRID, *_others(HEADER_STYLES, "table.rotated_header")),
    applies=has_tables,
    description="column headers drawn at 90 degrees",
)
def _rotated(staging: Staging) -> bool:
    def change(look: TableLook, name: str) -> bool:
        look.rotated = True
        return True

    return _each_table(staging, change)


@pattern(
    "table.shading",
    "Alternating shading",
    phase="layout",
    truth="none",
    reference="p24_shading",
    incompatible=REPLACES_GRID,
    applies=has_tables,
    description="every other row shaded",
)
def _shading(staging: Staging) -> bool:
    shade = staging.rng.choice((0.9, 0.92, 0.94))

    def change(look: TableLook, name: str) -> bool:
        look.shading = shade
        return True

    staging.applied.details["fill_gray"] = shade
    return _each_table(staging, change)


@pattern(
    "table.column_synonyms",
    "Column synonyms",
    phase="layout",
    truth="none",
    reference="p65_column_synonyms",
    incompatible=("table.combined_sources",),
    applies=has_tables,
    description="carrier jargon column headers (DOL, O/S, Incd...)",
)
def _synonyms(staging: Staging) -> bool:
    level = staging.rng.randrange(4)
    chosen: dict[str, str] = {}

    def change(look: TableLook, name: str) -> bool:
        for key in _columns(staging.subject, name):
            options = vocabulary.JARGON.get(key)
            if options:
                look.headers[key] = chosen.setdefault(key, options[min(level, len(options) - 1)])
        return bool(look.headers)

    staging.applied.details["headers"] = chosen
    return _each_table(staging, change)


# Per-carrier looks of a broker's combined loss run: (header jargon level, rules, shading,
# column order moved first, date format, money style).
CARRIER_LAYOUTS: tuple[dict[str, Any], ...] = (
    {"jargon": None, "rules": "grid", "shading": None, "lead": (), "date": None, "money": None},
    {
        "jargon": 1,
        "rules": "none",
        "shading": 0.93,
        "lead": ("loss_date", "status"),
        "date": "%Y-%m-%d",
        "money": fmt.Style(cents=True, currency=False),
    },
    {
        "jargon": 2,
        "rules": "grid",
        "shading": None,
        "lead": ("status", "claimant"),
        "date": "%d-%b-%y",
        "money": fmt.Style(cents=True),
    },
    {
        "jargon": 3,
        "rules": "none",
        "shading": None,
        "lead": ("incurred", "loss_date"),
        "date": "%b %d, %Y",
        "money": fmt.Style(cents=True, thousands=False),
    },
)


@pattern(
    "table.combined_sources",
    "Combined loss runs",
    phase="layout",
    truth="shown",
    doc_types=LOSS_RUNS,
    reference="p60_combined_loss_runs",
    incompatible=(*_others(REPLACES_GRID, "table.combined_sources"), "table.column_synonyms"),
    applies=has_tables,
    description="a broker's combined loss run: each carrier's sections in that carrier's layout, "
    "column order, jargon, date and money formats",
)
def _combined(staging: Staging) -> bool:
    subject = staging.subject
    leaves = subject.leaves()
    carriers: dict[str, int] = {}
    sections: list[tuple[str, str]] = []
    for section in subject.rows("policies"):
        carrier = leaves.get(f"{section}.carrier", (None, None))[0]
        if carrier is None:
            continue
        carriers.setdefault(carrier, len(carriers))
        sections.append((section, carrier))
    if len(carriers) < 2:
        return False
    columns = _columns(subject, "policies[].claims")
    styles = list(range(1, len(CARRIER_LAYOUTS)))
    staging.rng.shuffle(styles)
    chosen = {
        carrier: 0 if rank == 0 else styles[(rank - 1) % len(styles)]
        for carrier, rank in carriers.items()
    }
    for section, carrier in sections:
        layout = CARRIER_LAYOUTS[chosen[carrier]]
        overrides: dict[str, Any] = {"rules": layout["rules"], "shading": layout["shading"]}
        if layout["rules"] == "none":
            overrides.update(header_fill=None, row_rules=False)
        if layout["jargon"] is not None:
            overrides["headers"] = {
                key: options[min(layout["jargon"], len(options) - 1)]
                for key in columns
                if (options := vocabulary.JARGON.get(key))
            }
        if layout["lead"]:
            overrides["order"] = ("claim_number", *layout["lead"])
        staging.presentation.section_looks[section] = overrides
        for path, (value, leaf) in leaves.items():
            if not path.startswith(f"{section}.claims[") or value is None:
                continue
            own = staging.subject.style
            if leaf.kind == "date" and layout["date"]:
                text = fmt.date(value, fmt.Style(date=layout["date"]))
                if text != fmt.date(value, own):
                    staging.show(path, text, value)
            elif leaf.kind == "money" and layout["money"] is not None:
                text = fmt.money(value, layout["money"])
                if text != fmt.money(value, own):
                    staging.show(path, text, value)
        staging.applied.targets.append(f"{section}.claims")
    staging.applied.details["carriers"] = {carrier: chosen[carrier] for carrier in carriers}
    return True


@pattern(
    "table.mainframe",
    "Mainframe listing",
    phase="layout",
    truth="none",
    reference="p40_mainframe",
    incompatible=(*_others(REPLACES_GRID, "table.mainframe"), *GRID_STYLES),
    applies=has_tables,
    description="fixed-width Courier listing on a 132-column character grid",
)
def _mainframe(staging: Staging) -> bool:
    return _layout(staging, "mainframe")


@pattern(
    "table.claim_blocks",
    "Claim detail blocks",
    phase="layout",
    truth="none",
    doc_types=LOSS_RUNS,
    reference="p59_claim_detail_blocks",
    incompatible=(*_others(REPLACES_GRID, "table.claim_blocks"), *GRID_STYLES),
    applies=has_tables,
    description="each claim a key/value block with its amounts in a one-row sub-table",
)
def _claim_blocks(staging: Staging) -> bool:
    return _layout(staging, "blocks")


__all__ = ["has_tables", "list_paths"]
