"""Is an extracted output a valid instance of its document schema?

Walks the document model, which is where the schema comes from, instead of interpreting the
JSON Schema: the same verdicts (a test checks them against jsonschema on mutated outputs) at a
fraction of the cost. Valid means: every object has exactly its keys; leaves are null or of
their JSON type (an integral float counts as an integer, a boolean as no number); enum leaves
hold a code-list value; lists hold objects. A number JSON cannot carry (1e999, NaN), kept as
the model's text at a number leaf, is a number: scored as the wrong value it is.

`fit` cuts any output to its schema for `score --invalid salvage`: the leaves that fit are
kept, every key the schema lacks is counted as an invented key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from packetbench.core.leaves import DocModel, LeafShape, ListShape, fields_of
from packetbench.truth.normalize import uncarried


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
    if not ok and isinstance(value, str) and json_type in ("integer", "number"):
        ok = uncarried(value)  # a number JSON could not carry, kept as the model's text
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


@dataclass
class Fitted:
    """An output cut to its schema (`fit`): the leaves that fit, and what did not.

    `output` is a valid instance of the model: every key the schema lacks is dropped (each
    one an *invented key*, `invented`), every leaf of the wrong type or outside its code list
    becomes null (`unfit`), and a missing key is null (an empty list, an object of nulls).
    `keys` counts every key the output wrote at a place the schema describes, invented ones
    included: the invented-key rate is `len(invented) / keys`.
    """

    output: dict[str, Any]
    keys: int = 0
    invented: list[str] = field(default_factory=list)  # paths ("locations[2].extra")
    unfit: list[str] = field(default_factory=list)  # paths of leaves made null


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _fit_object(model: type[DocModel], data: Any, path: str, into: Fitted) -> dict[str, Any]:
    if not isinstance(data, dict):
        if data is not None and path:
            into.unfit.append(path)
        data = {}
    shapes = fields_of(model)
    known = {name for name, _ in shapes}
    into.keys += len(data)
    into.invented.extend(_join(path, key) for key in data if key not in known)
    out: dict[str, Any] = {}
    for name, shape in shapes:
        value = data.get(name)
        inner = _join(path, name)
        if isinstance(shape, LeafShape):
            if value is not None and _leaf_problem(shape, value) is not None:
                into.unfit.append(inner)
                value = None
            out[name] = value
        elif isinstance(shape, ListShape):
            if not isinstance(value, list):
                if value is not None:
                    into.unfit.append(inner)
                value = []
            items = []
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    items.append(_fit_object(shape.item.model, item, f"{inner}[{index}]", into))
                else:
                    into.unfit.append(f"{inner}[{index}]")
            out[name] = items
        else:
            out[name] = _fit_object(shape.model, value, inner, into)
    return out


def fit(model: type[DocModel], data: Any) -> Fitted:
    """`data` cut to `model`'s schema (see `Fitted`); a valid instance comes back equal, with
    nothing invented or unfit and its keys counted."""
    fitted = Fitted({})
    fitted.output = _fit_object(model, data, "", fitted)
    return fitted
