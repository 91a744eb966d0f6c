"""The corpus's field truth as an instance of its own schema, and our field_truth entries.

The corpus records what each document shows as flat, generator-named leaves (``fields`` such
as ``insured_name``, record lists such as ``claims``, blocks such as ``grand_totals``); its
schemas ask for nested paths (``header.insured_name``, ``claims[].claim_number``). A leaf is
placed by these rules, and by nothing else:

1. a leaf named N goes to the schema leaf (outside lists) whose name is N or whose dotted path
   read with ``_`` for ``.`` is N; a block B's leaf N is tried as ``B_N`` first, then N;
2. a list of records named L goes to the schema's list of records named L, each record's leaf
   N to the item's leaf named N; a list of strings named L to the schema's list of strings L;
3. a name also stands for its synonyms (SYNONYMS: the same fact under the schema's word, such
   as ``zip_code`` for ``zip`` or ``total_paid`` for a claim's ``paid``) and, with a statement
   prefix (``bs_``, ``is_``, ``cf_``), for itself without it, tried after it;
4. a record's ``rendered_values.N`` or ``N_rendered`` is the string drawn for its leaf N (its
   ``rendered_as``), not a leaf of its own;
5. the value must fit the leaf: a number for a number (a numeric string is read as one), a
   string for a string (a number is written as its digits), a value of the enum for an enum
   (matched ignoring case), a boolean for a boolean ("Yes"/"No" for a Yes/No enum).

A leaf that no rule places, that more than one schema leaf would take, that lands where
another leaf already did, or whose value does not fit, is unmapped: counted and listed with
its reason, never dropped silently.

A placed leaf's ``rendered_as`` is the corpus's own where it records one, else the first
visible element of the document that shows the value (equal after normalization, or the same
number), else the value as plain text; ``rendered_as_from`` says which (corpus, element,
value). Generator metadata (``doc_type``, ``format``,
``excel_metadata``, a record's own layout boxes) describes the file, not the document, and is
counted apart as metadata.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from packetbench.truth import normalize
from packetbench.truth.namespaces.nightmare import _types, kind_of

METADATA_KEYS = frozenset({"doc_type", "format", "excel_metadata"})
RENDERED_KEY, RENDERED_SUFFIX = "rendered_values", "_rendered"
SYNONYMS: dict[str, tuple[str, ...]] = {
    "zip_code": ("zip",),
    "schedule_id": ("location_id", "location_number"),
    "policy_period_start": ("effective_date",),
    "policy_period_end": ("expiration_date",),
    "total_paid": ("paid",),
    "total_reserved": ("reserved",),
    "total_incurred": ("incurred",),
    "violations": ("violations_count",),
    "accidents": ("accidents_count",),
    "insured_name": ("company_name",),
}
# Statement prefixes of a financial statement's leaves (bs_cash: balance sheet, cash).
PREFIXES = ("bs_", "is_", "cf_")


def alternatives(names: list[str]) -> list[str]:
    """`names`, each followed by its synonyms."""
    found = []
    for name in names:
        bare = next((name[len(p) :] for p in PREFIXES if name.startswith(p)), None)
        found += [name, *SYNONYMS.get(name, ())] + ([bare] if bare else [])
    return found


Locate = Callable[[list[Any]], list[dict[str, Any]]]
Spell = Callable[[Any], "str | None"]  # the string a document draws for a value, if known


@dataclass(frozen=True)
class Unmapped:
    leaf: str  # where the corpus holds it: fields.insured_zip, claims[2].adjuster
    value: Any
    reason: str


@dataclass
class Converted:
    truth: dict[str, Any]
    fields: list[dict[str, Any]] = field(default_factory=list)
    unmapped: list[Unmapped] = field(default_factory=list)
    metadata: int = 0  # metadata leaves counted apart


@dataclass(frozen=True)
class SchemaIndex:
    """Where a schema can take leaves: scalar leaves outside lists, lists of records and
    lists of strings, each by dotted path."""

    leaves: dict[str, dict[str, Any]]
    record_lists: dict[str, dict[str, Any]]  # path -> items schema
    string_lists: dict[str, dict[str, Any]]


def index(node: dict[str, Any], prefix: str = "") -> SchemaIndex:
    leaves: dict[str, dict[str, Any]] = {}
    records: dict[str, dict[str, Any]] = {}
    strings: dict[str, dict[str, Any]] = {}
    for name, child in (node.get("properties") or {}).items():
        path = f"{prefix}.{name}" if prefix else name
        types = _types(child)
        if "object" in types:
            inner = index(child, path)
            leaves.update(inner.leaves)
            records.update(inner.record_lists)
            strings.update(inner.string_lists)
        elif "array" in types:
            items = child.get("items") or {}
            (records if "object" in _types(items) else strings)[path] = items
        else:
            leaves[path] = child
    return SchemaIndex(leaves, records, strings)


def skeleton(node: dict[str, Any]) -> Any:
    """The instance of `node` with nothing shown: every leaf null, every list empty."""
    types = _types(node)
    if "object" in types:
        return {name: skeleton(child) for name, child in (node.get("properties") or {}).items()}
    if "array" in types:
        return []
    return None


def _last(path: str) -> str:
    return path.rsplit(".", 1)[-1]


def place(names: list[str], paths: dict[str, Any]) -> tuple[str | None, str]:
    """(the schema path the first of `names` that any path takes goes to, "") or (None, why)."""
    for name in alternatives(names):
        joined = [p for p in paths if p.replace(".", "_") == name]
        named = [p for p in paths if _last(p) == name]
        found = joined or named
        if len(found) == 1:
            return found[0], ""
        if len(found) > 1:
            return None, f"ambiguous: {', '.join(sorted(found))}"
    return None, "no schema leaf of that name"


def fit(value: Any, node: dict[str, Any]) -> tuple[bool, Any]:
    """(True, the value as the leaf `node` holds it) or (False, why it does not fit)."""
    types = _types(node)
    enum = [v for v in node.get("enum") or [] if v is not None]
    if isinstance(value, bool):
        if "boolean" in types:
            return True, value
        if {"Yes", "No"} <= set(enum):
            return True, "Yes" if value else "No"
        return False, "a boolean for a non-boolean leaf"
    if "boolean" in types:
        flag = normalize.checkbox(value)
        return (True, flag == "Yes") if flag else (False, "not a boolean")
    if types & {"number", "integer"}:
        number = normalize.number(value)
        if number is None:
            return False, "not a number"
        if "integer" in types and "number" not in types:
            return (True, int(number)) if number.is_integer() else (False, "not an integer")
        return True, int(number) if isinstance(value, int) else number
    if not isinstance(value, str | int | float):
        return False, f"a {type(value).__name__} for a string leaf"
    text = (
        value
        if isinstance(value, str)
        else (str(int(value)) if float(value).is_integer() else repr(value))
    )
    if enum:
        by_form = {v.lower(): v for v in enum}
        if text.lower() not in by_form:
            return False, "not in the schema's enum"
        text = by_form[text.lower()]
    return True, text


def _entry(raw: Any) -> tuple[Any, dict[str, Any]]:
    """(value, the entry's other keys) of a field-truth entry, which is either a plain value
    or ``{value, rendered_as?, locations?}``."""
    if isinstance(raw, dict) and "value" in raw:
        return raw["value"], raw
    return raw, {}


class Converter:
    """Builds one document's truth from its corpus field truth (rules in the module doc)."""

    def __init__(self, schema: dict[str, Any], locate: Locate, spell: Spell) -> None:
        self.schema = schema
        self.index = index(schema)
        self.locate = locate
        self.spell = spell
        self.out = Converted(skeleton(schema))
        self.taken: set[str] = set()

    def run(self, field_truth: dict[str, Any]) -> Converted:
        for key, value in field_truth.items():
            if key in METADATA_KEYS:
                self.out.metadata += _count(value)
            elif key == "fields" and isinstance(value, dict):
                for name, raw in value.items():
                    self.scalar([name], raw, f"fields.{name}")
            elif isinstance(value, list):
                self.listed(key, value)
            elif isinstance(value, dict) and not _is_entry(value):
                for name, raw in value.items():
                    self.scalar([f"{key}_{name}", name], raw, f"{key}.{name}")
            else:
                self.scalar([key], value, key)
        return self.out

    def _unmapped(self, leaf: str, raw: Any, reason: str) -> None:
        if _is_layout(raw) or _is_box(raw):
            self.out.metadata += len(raw) if isinstance(raw, list) else 1
            return
        if (isinstance(raw, dict) and not _is_entry(raw)) or isinstance(raw, list):
            for name, inner in raw.items() if isinstance(raw, dict) else enumerate(raw):
                where = f"{leaf}.{name}" if isinstance(raw, dict) else f"{leaf}[{name}]"
                self._unmapped(where, inner, reason)
            return
        value, _ = _entry(raw)
        if isinstance(value, dict | list):
            self._unmapped(leaf, value, reason)
            return
        if value is not None:
            self.out.unmapped.append(Unmapped(leaf, value, reason))

    def _set(
        self,
        path: str,
        container: dict[str, Any],
        key: str,
        node: dict[str, Any],
        raw: Any,
        leaf: str,
    ) -> bool:
        value, extra = _entry(raw)
        if value is None:
            return False
        if isinstance(value, dict | list):
            self._unmapped(leaf, value, "a structured value")
            return False
        if path in self.taken:
            self._unmapped(leaf, raw, f"{path} already holds another leaf")
            return False
        ok, fitted = fit(value, node)
        if not ok:
            self._unmapped(leaf, raw, f"{path}: {fitted}")
            return False
        container[key] = fitted
        self.taken.add(path)
        self.out.fields.append(self._field(path, fitted, node, extra))
        return True

    def _field(
        self,
        path: str,
        value: Any,
        node: dict[str, Any],
        extra: dict[str, Any],
    ) -> dict[str, Any]:
        rendered = extra.get("rendered_as")
        source = "corpus"
        if not isinstance(rendered, str):
            rendered, source = self.spell(value), "element"
        if rendered is None:
            rendered, source = _text(value), "value"
        name = _last(path.split("[")[0] if path.endswith("]") else path)
        return {
            "path": path,
            "value": value,
            "kind": kind_of(name, node),
            "rendered_as": rendered,
            "rendered_as_from": source,
            "locations": self.locate(extra.get("locations") or []),
        }

    def scalar(self, names: list[str], raw: Any, leaf: str) -> None:
        if isinstance(raw, dict) and not _is_entry(raw):
            for name, inner in raw.items():
                self.scalar([f"{n}_{name}" for n in names] + [name], inner, f"{leaf}.{name}")
            return
        path, why = place(names, self.index.leaves)
        if path is None:
            self._unmapped(leaf, raw, why)
            return
        parent, _, key = path.rpartition(".")
        container = self._container(parent)
        self._set(path, container, key, self.index.leaves[path], raw, leaf)

    def _container(self, dotted: str) -> dict[str, Any]:
        node: Any = self.out.truth
        for part in dotted.split(".") if dotted else []:
            node = node[part]
        assert isinstance(node, dict)
        return node

    def listed(self, key: str, items: list[Any]) -> None:
        records = [p for p in self.index.record_lists if _last(p) == key]
        strings = [p for p in self.index.string_lists if _last(p) == key]
        if all(not isinstance(i, dict) or _is_entry(i) for i in items) and len(strings) == 1:
            path = strings[0]
            parent, _, name = path.rpartition(".")
            target = self._container(parent)[name]
            for position, raw in enumerate(items):
                where = f"{path}[{len(target)}]"
                target.append(None)
                if not self._set(
                    where,
                    _ListSlot(target),
                    str(len(target) - 1),
                    self.index.string_lists[path],
                    raw,
                    f"{key}[{position}]",
                ):
                    target.pop()
            return
        if len(records) != 1:
            why = (
                ("ambiguous: " + ", ".join(sorted(records)))
                if records
                else "no schema list of that name"
            )
            self._unmapped(key, items, why)
            return
        path = records[0]
        item_schema = self.index.record_lists[path]
        item_index = index(item_schema)
        parent, _, name = path.rpartition(".")
        target = self._container(parent)[name]
        for position, record in enumerate(items):
            leaf = f"{key}[{position}]"
            if not isinstance(record, dict) or _is_entry(record):
                self._unmapped(leaf, record, "not a record")
                continue
            built = skeleton(item_schema)
            where = f"{path}[{len(target)}]"
            placed = 0
            drawn = _drawn(record)
            for field_name, raw in record.items():
                if _is_layout(raw):
                    self.out.metadata += len(raw)
                    continue
                if field_name == RENDERED_KEY or _base(field_name) in record:
                    continue
                if field_name in drawn and not _is_entry(raw):
                    raw = {"value": raw, "rendered_as": drawn[field_name]}
                inner, why = place([field_name], item_index.leaves)
                if inner is None:
                    self._unmapped(f"{leaf}.{field_name}", raw, why)
                    continue
                p_parent, _, p_key = inner.rpartition(".")
                container = built
                for part in p_parent.split(".") if p_parent else []:
                    container = container[part]
                placed += self._set(
                    f"{where}.{inner}",
                    container,
                    p_key,
                    item_index.leaves[inner],
                    raw,
                    f"{leaf}.{field_name}",
                )
            if placed:
                target.append(built)
            else:  # nothing of it placed: its leaves are listed, no empty record is made
                self.taken = {t for t in self.taken if not t.startswith(f"{where}.")}


class _ListSlot(dict[str, Any]):
    """A list position addressed like a dict key, so one setter serves both."""

    def __init__(self, target: list[Any]) -> None:
        super().__init__()
        self.target = target

    def __setitem__(self, key: str, value: Any) -> None:
        self.target[int(key)] = value


def _drawn(record: dict[str, Any]) -> dict[str, str]:
    """Leaf name -> the string drawn for it, from a record's rendered_values and *_rendered."""
    drawn = (
        {
            k: str(v)
            for k, v in (record.get(RENDERED_KEY) or {}).items()
            if isinstance(v, str | int | float)
        }
        if isinstance(record.get(RENDERED_KEY), dict)
        else {}
    )
    for key, value in record.items():
        if _base(key) in record and isinstance(value, str):
            drawn[_base(key)] = value
    return drawn


def _base(key: str) -> str:
    """`N` of a key `N_rendered` (the string drawn for leaf N); "" for any other key."""
    return key[: -len(RENDERED_SUFFIX)] if key.endswith(RENDERED_SUFFIX) else ""


def _is_entry(raw: Any) -> bool:
    return isinstance(raw, dict) and "value" in raw


_BOX = frozenset({"page", "x", "y", "width", "height"})


def _is_box(raw: Any) -> bool:
    """A layout box of the corpus ({page, x, y, width, height}): where, not what."""
    return isinstance(raw, dict) and set(raw) <= _BOX and "page" in raw


def _is_layout(raw: Any) -> bool:
    return isinstance(raw, list) and bool(raw) and all(_is_box(b) for b in raw)


def _count(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_count(v) for v in value.values())
    if isinstance(value, list):
        return sum(_count(v) for v in value)
    return int(value is not None)


def _text(value: Any) -> str:
    """A value as plain text: "Yes"/"No" for a boolean, digits for a whole number."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def spelled_by(elements: list[str]) -> Spell:
    """The lookup of the first element text of a document that shows a value: equal to it
    after normalization, or the same number."""
    by_form: dict[str, str] = {}
    by_number: dict[float, str] = {}
    for text in elements:
        by_form.setdefault(normalize.string(text), text)
        number = normalize.number(text)
        if number is not None:
            by_number.setdefault(number, text)

    def spell(value: Any) -> str | None:
        if isinstance(value, bool):
            return None
        if isinstance(value, int | float):
            return by_number.get(float(value))
        return by_form.get(normalize.string(str(value)))

    return spell


def convert(
    schema: dict[str, Any], field_truth: dict[str, Any], locate: Locate, spell: Spell | None = None
) -> Converted:
    """The document truth (an instance of `schema`), field_truth entries and unmapped leaves
    of one document's corpus field truth."""
    return Converter(schema, locate, spell or (lambda value: None)).run(field_truth)
