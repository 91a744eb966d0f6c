"""The strict-schema rules the stub APIs enforce on the schema a request carries.

The three providers accept a subset of JSON Schema in strict mode, and refuse a request
whose schema falls outside it with a 400. The stubs hold each request's schema to the part of
those rules every provider shares (so a schema accepted here is accepted by all three):
the root is an object; every object sets `additionalProperties: false` and lists every
property in `required`; a type is one JSON type or a pair `[type, "null"]`; arrays give
`items`; no keyword outside the common subset (no `$ref`, `anyOf`, `minItems`, `pattern`,
numeric bounds); nesting and size stay within OpenAI's published limits (10 levels, 5,000
properties). Gemini's `propertyOrdering`, when present, must name each object's
properties in order.
"""

from __future__ import annotations

from typing import Any

KEYWORDS = frozenset(
    {
        "type",
        "description",
        "title",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "propertyOrdering",
    }
)
TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
MAX_DEPTH = 10
MAX_PROPERTIES = 5_000


class _Walk:
    def __init__(self) -> None:
        self.properties = 0

    def problem(self, node: Any, where: str, depth: int) -> str | None:
        if not isinstance(node, dict):
            return f"{where}: a schema must be an object"
        if depth > MAX_DEPTH:
            return f"{where}: nested deeper than {MAX_DEPTH} levels"
        unknown = sorted(set(node) - KEYWORDS)
        if unknown:
            return f"{where}: keyword {unknown[0]!r} is not supported in strict mode"
        kind = node.get("type")
        kinds = kind if isinstance(kind, list) else [kind]
        if not (
            (len(kinds) == 1 and kinds[0] in TYPES)
            or (len(kinds) == 2 and kinds[0] in TYPES and kinds[1] == "null")
        ):
            return f"{where}: type {kind!r} is not a type or a [type, 'null'] pair"
        if "object" in kinds:
            properties = node.get("properties")
            if not isinstance(properties, dict):
                return f"{where}: an object must list its properties"
            if node.get("additionalProperties") is not False:
                return f"{where}: additionalProperties must be false"
            if sorted(node.get("required") or []) != sorted(properties):
                return f"{where}: every property must be required"
            ordering = node.get("propertyOrdering")
            if ordering is not None and ordering != list(properties):
                return f"{where}: propertyOrdering must list the properties in order"
            self.properties += len(properties)
            if self.properties > MAX_PROPERTIES:
                return f"more than {MAX_PROPERTIES} object properties"
            for name, child in properties.items():
                found = self.problem(child, f"{where}.{name}", depth + 1)
                if found:
                    return found
        if "array" in kinds:
            return self.problem(node.get("items"), f"{where}[]", depth + 1)
        return None


def strict_problem(schema: Any) -> str | None:
    """Why a strict-mode API would refuse `schema` (None when it is accepted)."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return "the root of a strict schema must be an object"
    return _Walk().problem(schema, "schema", 1)


def cite_mode(schema: Any) -> str | None:
    """`box` or `page` when `schema` is a cited answer's schema (`extract --cite`), else None."""
    if not isinstance(schema, dict):
        return None
    properties = schema.get("properties") or {}
    if not {"values", "evidence"} <= set(properties) <= {"values", "evidence", "confidence"}:
        return None
    entry = (properties["evidence"].get("items") or {}).get("properties") or {}
    return "box" if "x0" in entry else "page"


def asks_confidence(schema: Any) -> bool:
    """Whether `schema` is an answer's schema with a confidence list (`extract --confidence`)."""
    if not isinstance(schema, dict):
        return False
    properties = schema.get("properties") or {}
    return "values" in properties and "confidence" in properties


def nothing_read(schema: Any) -> Any:
    """The answer of a reader who saw nothing: every object with its properties, every list
    empty, every leaf null (a strict schema makes every leaf nullable)."""
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "object" in kinds:
        return {
            name: nothing_read(child) for name, child in (schema.get("properties") or {}).items()
        }
    if "array" in kinds:
        return []
    return None
