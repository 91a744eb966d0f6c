"""The reference corpus's 26 JSON Schemas as an external schema namespace (`nightmare/<name>`).

Each schema is read from the imported packet (``<packet>/schemas/<name>.schema.json``, copied
there by the importer) and turned into a document model, so that the scorer walks, aligns and
grounds an extraction of it exactly as it does one of ours. The schema is not bent into
packetbench's types: its paths, its enums and its nesting are kept.

Kinds, which decide how a leaf is normalized and whether it is checked, are derived from the
leaf's JSON type and the words of its name (its ``_``-separated parts), by these rules, first
that applies:

- boolean -> checkbox (scored as "Yes"/"No");
- number or integer -> percent when a word is one of PERCENT_WORDS, money when one is one
  of MONEY_WORDS, number otherwise;
- string with an enum -> checkbox when the enum is Yes/No, enum otherwise;
- string -> date when a word is one of DATE_WORDS; id when one is one of ID_WORDS; text
  (prose, never checked for hallucination) when one is one of TEXT_WORDS; string otherwise.

Two shapes of the schemas have no counterpart in a document model and are projected (the same
projection for truth and extraction, never written): a list of strings becomes a list of
records with the one leaf ``item``, and a boolean becomes "Yes"/"No". `emit` undoes it, so
the simulated extractor, which works on the model, answers in the schema's own shapes.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import create_model

from packetbench.core import safe_read
from packetbench.core.codes import YES_NO, CodeList
from packetbench.core.leaves import DocModel, Kind, Leaf
from packetbench.truth.namespaces import ScoredSchema

NAMESPACE_NAME = "nightmare"
ITEM = "item"  # the one leaf of a record standing for an item of a list of strings

PERCENT_WORDS = frozenset(
    {"percent", "pct", "rate", "ratio", "margin", "mod", "factor", "coinsurance"}
)
MONEY_WORDS = frozenset(
    {
        "premium",
        "limit",
        "deductible",
        "value",
        "tiv",
        "paid",
        "reserve",
        "reserved",
        "incurred",
        "revenue",
        "amount",
        "cost",
        "payroll",
        "income",
        "expense",
        "expenses",
        "assets",
        "liabilities",
        "equity",
        "sales",
        "profit",
        "cash",
        "debt",
        "total",
        "fee",
        "fees",
        "tax",
        "taxes",
        "price",
        "receivable",
        "payable",
        "ebit",
        "ebitda",
        "inventory",
        "capital",
        "earnings",
        "cogs",
        "depreciation",
        "interest",
    }
)
DATE_WORDS = frozenset({"date", "effective", "expiration", "start", "end", "deadline"})
ID_WORDS = frozenset({"number", "id", "fein", "code", "naic", "naics", "sic", "vin", "zip"})
TEXT_WORDS = frozenset(
    {
        "description",
        "summary",
        "narrative",
        "notes",
        "remark",
        "remarks",
        "findings",
        "deficiencies",
        "concerns",
        "positives",
        "programs",
        "business",
        "question",
    }
)


def _types(node: dict[str, Any]) -> set[str]:
    found = node.get("type")
    listed = found if isinstance(found, list) else [found]
    return {str(t) for t in listed if t is not None and t != "null"}


def kind_of(name: str, node: dict[str, Any]) -> Kind:
    """The scoring kind of the leaf `name` whose schema is `node` (rules in the module doc)."""
    words = set(name.lower().split("_"))
    types = _types(node)
    if "boolean" in types:
        return "checkbox"
    if types & {"number", "integer"}:
        if words & PERCENT_WORDS:
            return "percent"
        return "money" if words & MONEY_WORDS else "number"
    enum = [v for v in node.get("enum") or [] if v is not None]
    if enum:
        return "checkbox" if set(enum) <= set(YES_NO.values) else "enum"
    if words & DATE_WORDS:
        return "date"
    if words & ID_WORDS:
        return "id"
    return "text" if words & TEXT_WORDS else "string"


def _leaf_annotation(title: str, path: str, name: str, node: dict[str, Any]) -> Any:
    kind = kind_of(name, node)
    types = _types(node)
    if "boolean" in types:
        return Annotated[str | None, Leaf("checkbox", codes=YES_NO)]
    enum = tuple(v for v in node.get("enum") or [] if v is not None)
    codes = (
        YES_NO
        if kind == "checkbox"
        else (CodeList(f"{NAMESPACE_NAME}:{title}.{path}", enum) if enum else None)
    )
    python: type = str
    if "integer" in types and "number" not in types:
        python = int
    elif types & {"number", "integer"}:
        python = float
    return Annotated[python | None, Leaf(kind, codes=codes)]


def _model_name(title: str, path: str) -> str:
    return (
        "".join(
            part.capitalize() for part in f"{title}_{path}".replace(".", "_").split("_") if part
        )
        or "Document"
    )


def _build(title: str, node: dict[str, Any], path: str) -> type[DocModel]:
    fields: dict[str, Any] = {}
    for name, child in (node.get("properties") or {}).items():
        where = f"{path}.{name}" if path else name
        types = _types(child)
        if "object" in types:
            fields[name] = (_build(title, child, where) | None, None)
        elif "array" in types:
            items = child.get("items") or {}
            if "object" in _types(items):
                item = _build(title, items, f"{where}[]")
            else:  # a list of strings: records of the one leaf ITEM
                item = _create(
                    _model_name(title, f"{where}_item"),
                    {ITEM: (_leaf_annotation(title, f"{where}[]", name, items), None)},
                )
            fields[name] = (list[item] | None, None)  # type: ignore[valid-type]
        else:
            fields[name] = (_leaf_annotation(title, where, name, child), None)
    return _create(_model_name(title, path), fields)


def _create(name: str, fields: dict[str, Any]) -> type[DocModel]:
    made: type[DocModel] = create_model(name, __base__=DocModel, **fields)
    return made


def project(node: dict[str, Any], data: Any) -> Any:
    """An instance of the schema `node` as an instance of its model: lists of strings become
    lists of ITEM records, booleans "Yes"/"No"; anything of another shape is left as it is
    (validation then names it)."""
    types = _types(node)
    if isinstance(data, dict) and "object" in types:
        properties = node.get("properties") or {}
        return {
            key: project(properties[key], value) if key in properties else value
            for key, value in data.items()
        }
    if isinstance(data, list) and "array" in types:
        items = node.get("items") or {}
        if "object" in _types(items):
            return [project(items, item) for item in data]
        return [{ITEM: project(items, item)} for item in data]
    if isinstance(data, bool) and "boolean" in types:
        return "Yes" if data else "No"
    return data


def emit(node: dict[str, Any], data: Any) -> Any:
    """An instance of the model as an instance of the schema `node`: `project` undone (ITEM
    records become their items, "Yes"/"No" at a boolean leaf true/false); anything else is
    left as it is, so an answer that breaks the model breaks the schema the same way."""
    types = _types(node)
    if isinstance(data, dict) and "object" in types:
        properties = node.get("properties") or {}
        return {
            key: emit(properties[key], value) if key in properties else value
            for key, value in data.items()
        }
    if isinstance(data, list) and "array" in types:
        items = node.get("items") or {}
        if "object" in _types(items):
            return [emit(items, item) for item in data]
        return [
            emit(items, item[ITEM]) if isinstance(item, dict) and list(item) == [ITEM] else item
            for item in data
        ]
    if "boolean" in types and data in ("Yes", "No"):
        return data == "Yes"
    return data


def required_leaves(node: dict[str, Any], path: str = "") -> frozenset[str]:
    """The leaf paths of the model (list indices erased) whose schema admits no null: a type
    without "null", or an enum without it."""
    found: set[str] = set()
    for name, child in (node.get("properties") or {}).items():
        where = f"{path}.{name}" if path else name
        types = _types(child)
        if "object" in types:
            found |= required_leaves(child, where)
        elif "array" in types:
            items = child.get("items") or {}
            if "object" in _types(items):
                found |= required_leaves(items, f"{where}[]")
            elif not _admits_null(items):
                found.add(f"{where}[].{ITEM}")
        elif not _admits_null(child):
            found.add(where)
    return frozenset(found)


def _admits_null(node: dict[str, Any]) -> bool:
    listed = node.get("type")
    typed = "null" in (listed if isinstance(listed, list) else [listed])
    return typed and ("enum" not in node or None in node["enum"])


def raw_path(path: str) -> str:
    """The path in the schema's own instance of a projected path (``x[2].item`` -> ``x[2]``)."""
    suffix = f"].{ITEM}"
    return path[: -len(ITEM) - 1] if path.endswith(suffix) else path


@lru_cache(maxsize=64)
def scored_schema(text: bytes) -> ScoredSchema:
    """The scored schema of a JSON Schema's bytes (one model per distinct schema text)."""
    schema = safe_read.parse_json(text)
    title = str(schema.get("title") or "document")
    model = _build(title, schema, "")
    return ScoredSchema(
        model,
        lambda data: project(schema, data),
        lambda data: emit(schema, data),
        required_leaves(schema),
    )


def schema_file(packet: Path, name: str) -> Path:
    return packet / "schemas" / f"{name}.schema.json"


class NightmareNamespace:
    def resolve(self, name: str, packet: Path) -> ScoredSchema | None:
        path = schema_file(packet, name)
        try:
            text = safe_read.read_bytes(path, "schema")
        except OSError:
            return None
        return scored_schema(text)


NAMESPACE = NightmareNamespace()
