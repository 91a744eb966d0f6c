"""Per-provider cleaning of the committed document schemas, derived, never hand-kept.

Every provider gets `generator.json_schema.document_schema` minus the keys that only describe the
file (`$schema`, `$id`); Gemini also gets an explicit `propertyOrdering` on every object, in
the order of `properties`, because it does not promise to keep key order otherwise.
"""

from __future__ import annotations

from typing import Any

FILE_KEYS = ("$schema", "$id")


def without_file_keys(schema: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in schema.items() if key not in FILE_KEYS}


def with_property_ordering(schema: Any) -> Any:
    """A copy of `schema` where each object schema lists its keys under propertyOrdering."""
    if isinstance(schema, list):
        return [with_property_ordering(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {
        key: with_property_ordering(value) if key == "items" else value
        for key, value in schema.items()
    }
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {
            name: with_property_ordering(sub) for name, sub in schema["properties"].items()
        }
        out["propertyOrdering"] = list(schema["properties"])
    return out
