"""Is an extracted output a valid instance of its document schema?

Walks the document model, which is where the schema comes from, instead of interpreting the
JSON Schema: the same verdicts (a test checks them against jsonschema on mutated outputs) at a
fraction of the cost. Valid means: every object has exactly its keys; leaves are null or of
their JSON type (an integral float counts as an integer, a boolean as no number); enum leaves
hold a code-list value; lists hold objects.
"""

from __future__ import annotations

from typing import Any

from packetbench.generator.leaves import DocModel, LeafShape, ListShape, fields_of


def _leaf_problem(shape: LeafShape, value: Any) -> str | None:
    json_type = shape.json_type
    if json_type == "string":
        ok = isinstance(value, str)
    elif isinstance(value, bool):
        ok = False
    elif json_type == "integer":
        ok = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    else:
        ok = isinstance(value, int | float)
    if not ok:
        return f"{value!r} is not of type {json_type!r}"
    if shape.leaf.codes is not None and value not in shape.leaf.codes.values:
        return f"{value!r} is not one of the {shape.leaf.codes.name} values"
    return None


def problem(model: type[DocModel], data: Any, path: str = "") -> str | None:
    """Why `data` is not a valid instance of `model`'s schema, or None when it is."""
    where = path or "(root)"
    if not isinstance(data, dict):
        return f"{where}: {data!r} is not of type 'object'"
    shapes = fields_of(model)
    extra = sorted(set(data) - {name for name, _ in shapes})
    if extra:
        return f"{where}: additional property {extra[0]!r} is not allowed"
    for name, shape in shapes:
        if name not in data:
            return f"{where}: {name!r} is a required property"
        value = data[name]
        inner = f"{path}/{name}" if path else name
        if isinstance(shape, LeafShape):
            if value is not None and (reason := _leaf_problem(shape, value)):
                return f"{inner}: {reason}"
        elif isinstance(shape, ListShape):
            if not isinstance(value, list):
                return f"{inner}: {value!r} is not of type 'array'"
            for index, item in enumerate(value):
                if reason := problem(shape.item.model, item, f"{inner}/{index}"):
                    return reason
        elif reason := problem(shape.model, value, inner):
            return reason
    return None
