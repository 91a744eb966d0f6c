"""Strict JSON Schemas derived from document models.

Built by walking the model rather than post-editing pydantic's own schema, so every rule of
docs/design.md §5 holds by construction: no `$ref`, every object closed (`additionalProperties:
false`) with every property required, every leaf nullable as a type union, enums from the code
lists, and key order equal to field order.
"""

from __future__ import annotations

import inspect
from typing import Any

from pydantic import BaseModel

from packetbench.core.leaves import LeafShape, ListShape, ObjectShape, fields_of

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

# What the extracted value must look like, by kind; appended to every leaf's description.
KIND_HINTS: dict[str, str] = {
    "date": "Format YYYY-MM-DD.",
    "checkbox": "Yes when ticked or answered Y, No when unticked or answered N.",
    "percent": "A number of percent: 80 for 80%.",
    "money": "A number of dollars without symbols or separators; negative for amounts shown "
    "in parentheses.",
}


def _leaf_description(text: str, kind: str) -> str:
    hint = KIND_HINTS.get(kind)
    return f"{text} {hint}" if hint and hint not in text else text


def _description(model: type[BaseModel]) -> str:
    return inspect.cleandoc(model.__doc__ or model.__name__)


def object_schema(model: type[BaseModel], description: str | None = None) -> dict[str, Any]:
    """The strict schema of one model (recursively inlined)."""
    properties: dict[str, Any] = {}
    for name, shape in fields_of(model):
        info = model.model_fields[name]
        text = inspect.cleandoc(info.description) if info.description else None
        if text is None:
            raise TypeError(f"{model.__name__}.{name} has no description (add a docstring)")
        if isinstance(shape, LeafShape):
            prop: dict[str, Any] = {
                "type": [shape.json_type, "null"],
                "description": _leaf_description(text, shape.leaf.kind),
            }
            if shape.leaf.codes is not None:
                prop["enum"] = [*shape.leaf.codes.values, None]
            properties[name] = prop
        elif isinstance(shape, ObjectShape):
            properties[name] = object_schema(shape.model, text)
        elif isinstance(shape, ListShape):
            properties[name] = {
                "type": "array",
                "description": text,
                "items": object_schema(shape.item.model),
            }
    return {
        "type": "object",
        "description": description or _description(model),
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def document_schema(name: str, model: type[BaseModel]) -> dict[str, Any]:
    """The committed, top-level schema for document schema `name`."""
    body = object_schema(model)
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"https://packetbench.dev/schemas/{name}.schema.json",
        "title": name,
        **body,
    }
