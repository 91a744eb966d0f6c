"""The corpus's own hallucination rules, re-implemented here only to attribute differences.

Written from our reading of its published analysis script, in our own code, and used for
nothing but the reconciliation: to say, claim by claim, what its method concluded, so that
every claim the two methods judge differently can be traced to a named rule. packetbench's
scoring never uses it. As we read them, its rules are:

- universe: every scalar of the packet's aggregated ground truth and of every JSON file in
  the packet's ground_truth folder (document, field and packet truth, manifests, rendered
  universes), except under layout and file-name keys (SKIP_KEYS); dict keys that look like
  labels (an upper-case letter or a space, 3+ characters) count as strings too. Strings are
  kept normalized (lower case, every non-word character a space, spaces collapsed); numbers
  as floats, numeric strings too;
- a leaf (booleans and nulls aside) is skipped when its name is in SKIP_LEAF_NAMES, a name on
  its path is in SKIP_PATH_FRAGMENTS, or it is an aggregate (``total_*``, ``subtotal_*``, a
  named total);
- a number, or a string that is a formatted number, is checked as a number: hallucinated
  unless equal to a universe number;
- another string is checked unless, normalized, it is empty, 1-2 characters, a generic word
  (MEANINGLESS), a filler (FILLERS) or starts with "see ": hallucinated unless its normalized
  form is a universe string, its compact form (``[a-z0-9]`` only, 4+ characters) is the
  compact form of one, or it has 2+ tokens each of which is a universe string, a compact
  form (4+) or a token (3+ characters) of a universe string;
- a document whose file is a stub ``{error, packet_id, doc_type}`` is not scored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench.core import safe_read

SKIP_KEYS = frozenset(
    {
        "document_path",
        "source_file",
        "prompt_file",
        "schema_file",
        "ocr_path",
        "render_path",
        "x",
        "y",
        "width",
        "height",
        "font_size",
        "baseline",
        "page_no",
        "page_number",
        "csv_row",
        "csv_col",
        "bbox",
        "bboxes",
        "locations",
        "positions",
        "rects",
        "pages_affected",
    }
)
SKIP_LEAF_NAMES = frozenset(
    {
        "coverage",
        "coverage_type",
        "coverage_code",
        "category",
        "priority",
        "status",
        "document_type",
        "statement_type",
        "period_type",
        "risk_level",
        "insurability",
        "entity_type",
        "construction",
        "occupancy",
        "mvr_status",
        "sex",
        "license_state",
        "risk_grade",
        "grading_scale",
        "fiscal_year",
        "period_end_date",
        "audited",
        "preparer",
        "report_type",
        "form_edition",
        "form_title",
        "form_type",
        "form_code",
        "form_number",
        "producer_code",
        "producer_name",
        "producer_address",
        "producer_id",
        "date",
        "report_date",
        "issue_date",
        "inspection_date",
        "summary",
        "description",
        "notes",
        "remarks",
        "executive_summary",
        "operations_description",
        "safety_programs",
        "claims_narrative",
        "nature_of_business",
        "loss_history_summary",
        "type",
        "kind",
        "role",
        "title",
    }
)
SKIP_PATH_FRAGMENTS = frozenset(
    {
        "form_info",
        "producer",
        "extracted_text_sections",
        "overall_assessment",
        "recommendations",
        "risk_highlights",
        "coverages_discussed",
        "grand_totals",
        "subtotals_by_coverage",
        "totals",
        "premium_summary",
        "premium_info",
        "ratios",
        "checkboxes",
    }
)
AGGREGATES = frozenset(
    {
        "total",
        "subtotal",
        "grand_total",
        "total_insured_value",
        "total_current_assets",
        "total_fixed_assets",
        "total_assets",
        "total_current_liabilities",
        "total_long_term",
        "total_liabilities",
        "total_equity",
        "total_operating_expenses",
        "total_premium",
        "total_due",
        "taxes_fees",
    }
)
MEANINGLESS = frozenset(
    {
        "null",
        "none",
        "n a",
        "not applicable",
        "na",
        "unknown",
        "tbd",
        "pending",
        "open",
        "closed",
        "yes",
        "no",
        "true",
        "false",
        "active",
        "inactive",
    }
)
FILLERS = frozenset(
    {
        "multiple",
        "various",
        "see below",
        "see coverages",
        "see above",
        "see schedule",
        "see attached",
        "see page",
        "n a",
        "na",
        "tbd",
        "pending",
        "unknown",
        "not applicable",
        "not available",
        "none",
        "null",
        "checked",
        "unchecked",
    }
)
STUB_KEYS = frozenset({"error", "packet_id", "doc_type"})

_NOT_WORD = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")
_NOT_ALNUM = re.compile(r"[^a-z0-9]")
_FORMATTED_NUMBER = re.compile(r"[\$\s]*-?[\d,]+(\.\d+)?\s*%?")


def norm(value: Any) -> str:
    if value is None:
        return ""
    text = _NOT_WORD.sub(" ", str(value).strip().lower())
    return _SPACES.sub(" ", text).strip()


def as_float(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    text = str(value).strip()
    if not text:
        return None
    text = text.replace(",", "").replace("$", "").replace(" ", "").rstrip("%")
    try:
        return float(text)
    except ValueError:
        return None


def compact(text: str) -> str:
    return _NOT_ALNUM.sub("", text.lower())


def is_formatted_number(text: str) -> bool:
    return _FORMATTED_NUMBER.fullmatch(text.strip()) is not None


@dataclass
class TheirUniverse:
    strings: set[str] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)
    compact: set[str] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)

    def add_scalar(self, value: Any) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int | float):
            self.numbers.add(float(value))
            self.strings.add(norm(value))
        elif isinstance(value, str):
            form = norm(value)
            if form:
                self.strings.add(form)
            number = as_float(value)
            if number is not None:
                self.numbers.add(number)

    def ingest(self, data: Any, labels: bool) -> None:
        """Every scalar of `data` outside SKIP_KEYS; with `labels`, label-like keys too."""
        stack = [data]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in SKIP_KEYS:
                        continue
                    if (
                        labels
                        and isinstance(key, str)
                        and len(key) >= 3
                        and (" " in key or any(c.isupper() for c in key))
                    ):
                        form = norm(key)
                        if form:
                            self.strings.add(form)
                    stack.append(value)
            elif isinstance(node, list):
                stack.extend(node)
            else:
                self.add_scalar(node)

    def finish(self) -> TheirUniverse:
        self.compact = {c for c in (compact(s) for s in self.strings) if c}
        self.tokens = {t for s in self.strings for t in s.split() if len(t) >= 3}
        return self

    def has_number(self, value: float) -> bool:
        return value == value and value in self.numbers  # NaN equals nothing

    def has_string(self, form: str) -> bool:
        """`form` is already normalized."""
        return self.string_tier(form) is not None

    def string_tier(self, form: str) -> str | None:
        """Which of its three tiers grounds `form` (None: none does)."""
        if not form:
            return None
        if form in self.strings:
            return "exact"
        if len(packed := compact(form)) >= 4 and packed in self.compact:
            return "compact"
        words = form.split()
        if len(words) >= 2 and all(
            w in self.strings or (len(w) >= 4 and w in self.compact) or w in self.tokens
            for w in words
        ):
            return "tokens"
        return None


RENDERED = "rendered universes (their text-layer views, token and number lists, hidden cells)"
GROUPS = (
    "aggregated ground truth",
    RENDERED,
    "field truth",
    "document truth",
    "packet truth",
    "manifests",
)
_GROUP_OF_PREFIX = (
    ("rendered_universe_", RENDERED),
    ("packet_rendered_universe", RENDERED),
    ("field_truth_", "field truth"),
    ("document_truth_", "document truth"),
    ("packet_truth", "packet truth"),
    ("manifest_", "manifests"),
)


def _group(name: str) -> str:
    return next(
        (group for prefix, group in _GROUP_OF_PREFIX if name.startswith(prefix)), "manifests"
    )


def universe_groups(aggregated: dict[str, Any], truth_dir: Path) -> dict[str, TheirUniverse]:
    """Its packet universe in the parts it is built from (GROUPS): the aggregated ground
    truth's documents, then the packet's ground_truth JSON files by kind."""
    groups = {name: TheirUniverse() for name in GROUPS}
    for document in (aggregated.get("documents") or {}).values():
        groups[GROUPS[0]].ingest(document, labels=False)
    for path in sorted(truth_dir.glob("*.json")):
        try:
            data = safe_read.load_json(path, "truth")
        except (OSError, ValueError):
            continue
        groups[_group(path.name)].ingest(data, labels=True)
    return {name: universe.finish() for name, universe in groups.items()}


def union(parts: dict[str, TheirUniverse]) -> TheirUniverse:
    """One universe of all `parts` (its packet universe, when they are its groups)."""
    found = TheirUniverse()
    for part in parts.values():
        found.strings |= part.strings
        found.numbers |= part.numbers
    return found.finish()


def packet_universe(aggregated: dict[str, Any], truth_dir: Path) -> TheirUniverse:
    """Its packet universe: the aggregated ground truth's documents, then every JSON file of
    the packet's ground_truth folder."""
    return union(universe_groups(aggregated, truth_dir))


def leaves(
    data: Any, path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """(path, value) of every scalar of an extraction; list positions are ints."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from leaves(value, (*path, index))
    else:
        yield path, data


def dotted(path: tuple[str | int, ...]) -> str:
    """Our spelling of a path: ``a.b[2].c``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def skip_reason(path: tuple[str | int, ...]) -> str | None:
    """Why its walk skips the leaf at `path` by its place (None: it does not)."""
    names = [p for p in path if isinstance(p, str)]
    leaf = names[-1] if names else ""
    if leaf in SKIP_LEAF_NAMES:
        return "leaf name"
    if set(names) & SKIP_PATH_FRAGMENTS:
        return "path fragment"
    if leaf.startswith(("total_", "subtotal_")) or leaf in AGGREGATES:
        return "aggregate"
    return None


def value_class(value: Any) -> str | None:
    """ "number", "string" or None (not checked) for a value at a place it does not skip, and
    why a string is not checked when it is not."""
    number = as_float(value)
    numeric_type = isinstance(value, int | float) and not isinstance(value, bool)
    if number is not None and (
        numeric_type or (isinstance(value, str) and is_formatted_number(value))
    ):
        return "number"
    if isinstance(value, str):
        return "string" if string_skip(value) is None else None
    return None


def string_skip(value: str) -> str | None:
    form = norm(value)
    if not form:
        return "empty"
    if form in MEANINGLESS:
        return "generic word"
    if len(form) <= 2:
        return "length floor"
    if form in FILLERS or form.startswith("see "):
        return "filler"
    return None


def their_verdict(path: tuple[str | int, ...], value: Any, universe: TheirUniverse) -> str:
    """Its verdict on one leaf: "skip", or "<number|string>:<ok|hallucinated>"."""
    if value is None or isinstance(value, bool) or skip_reason(path) is not None:
        return "skip"
    kind = value_class(value)
    if kind is None:
        return "skip"
    if kind == "number":
        number = as_float(value)
        found = number is not None and universe.has_number(number)
    else:
        found = universe.has_string(norm(value))
    return f"{kind}:{'ok' if found else 'hallucinated'}"


def is_stub(data: Any) -> bool:
    return isinstance(data, dict) and "error" in data and set(data) <= STUB_KEYS
