"""Leaf types of document models, and the walk over a model's leaves.

A document type is one pydantic model whose leaves are declared with the aliases below
(`Str`, `Money`, `Date`, ...). Each alias carries a `Leaf` marker naming the leaf's scoring
kind, so the JSON Schema, the field_truth writer and the renderers all read the same fact from
the model instead of keeping parallel field lists.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from types import NoneType, UnionType
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler
from pydantic_core import PydanticCustomError, core_schema

from packetbench.core.codes import YES_NO, CodeList

Kind = Literal["string", "id", "number", "money", "percent", "date", "enum", "checkbox", "text"]
KINDS: tuple[Kind, ...] = get_args(Kind)

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Leaf:
    """Marks a model field as a scoreable leaf of a given kind.

    `fmt` is a rendering hint that never changes the value (``"year"``: no thousands
    separator). `codes` is the code list an enum or checkbox leaf must come from.
    """

    kind: Kind
    fmt: str = ""
    codes: CodeList | None = None

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def _check(self, value: Any) -> Any:
        if value is None:
            return None
        if self.codes is not None and value not in self.codes.values:
            raise PydanticCustomError(
                "code_list",
                "{value!r} is not in code list {name}",
                {"value": value, "name": self.codes.name},
            )
        if self.kind == "date":
            if not (isinstance(value, str) and _ISO_DATE.fullmatch(value)):
                raise PydanticCustomError("iso_date", "dates are ISO YYYY-MM-DD strings")
            dt.date.fromisoformat(value)
        return value


Str = Annotated[str | None, Leaf("string")]
Id = Annotated[str | None, Leaf("id")]
Text = Annotated[str | None, Leaf("text")]
Money = Annotated[float | None, Leaf("money")]
Number = Annotated[float | None, Leaf("number")]
Count = Annotated[int | None, Leaf("number")]
Year = Annotated[int | None, Leaf("number", fmt="year")]
Percent = Annotated[float | None, Leaf("percent")]
Date = Annotated[str | None, Leaf("date")]
Checkbox = Annotated[str | None, Leaf("checkbox", codes=YES_NO)]
YesNo = Annotated[str | None, Leaf("checkbox", fmt="yn", codes=YES_NO)]


class DocModel(BaseModel):
    """Base of every document model: strict keys, attribute docstrings as descriptions.

    `record_key` names the leaves that identify an item of a list (a claim by its number, a
    building by location and building number); scoring aligns extracted records to truth
    records by it before falling back to best assignment. Empty means no natural key.

    Naming contract: a leaf called ``total_*`` equals the sum of its numeric sibling leaves
    plus the ``total_*`` of its sibling objects (scoring checks extracted arithmetic by it); a
    figure that is not such a sum must not be called ``total_*``.
    """

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, frozen=False)
    record_key: ClassVar[tuple[str, ...]] = ()


# --- shapes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeafShape:
    leaf: Leaf
    json_type: Literal["string", "number", "integer"]


@dataclass(frozen=True)
class ObjectShape:
    model: type[DocModel]


@dataclass(frozen=True)
class ListShape:
    item: ObjectShape


Shape = LeafShape | ObjectShape | ListShape

_JSON_TYPES: dict[type, Literal["string", "number", "integer"]] = {
    str: "string",
    float: "number",
    int: "integer",
}


def _non_null(annotation: Any) -> Any:
    origin = get_origin(annotation)
    if origin in (Union, UnionType):
        args = [a for a in get_args(annotation) if a is not NoneType]
        if len(args) == 1:
            return args[0]
    return annotation


@cache
def fields_of(model: type[BaseModel]) -> tuple[tuple[str, Shape], ...]:
    """The ordered (name, shape) pairs of a document model's fields."""
    shapes: list[tuple[str, Shape]] = []
    for name, info in model.model_fields.items():
        leaves = [m for m in info.metadata if isinstance(m, Leaf)]
        annotation = _non_null(info.annotation)
        if leaves:
            json_type = _JSON_TYPES.get(annotation)
            if json_type is None:
                raise TypeError(f"{model.__name__}.{name}: unsupported leaf type {annotation}")
            shapes.append((name, LeafShape(leaves[0], json_type)))
        elif isinstance(annotation, type) and issubclass(annotation, DocModel):
            shapes.append((name, ObjectShape(annotation)))
        elif get_origin(annotation) is list:
            (item,) = get_args(annotation)
            if not (isinstance(item, type) and issubclass(item, DocModel)):
                raise TypeError(f"{model.__name__}.{name}: lists must hold models")
            shapes.append((name, ListShape(ObjectShape(item))))
        else:
            raise TypeError(
                f"{model.__name__}.{name}: declare it with a leaf alias (Str, Money, ...), "
                "a model, or a list of models"
            )
    return tuple(shapes)


def iter_leaves(instance: BaseModel, prefix: str = "") -> Iterator[tuple[str, Any, Leaf]]:
    """Yield ``(path, value, leaf)`` for every leaf of `instance`, nulls included, in order."""
    for name, shape in fields_of(type(instance)):
        path = f"{prefix}.{name}" if prefix else name
        value = getattr(instance, name)
        if isinstance(shape, LeafShape):
            yield path, value, shape.leaf
        elif isinstance(shape, ObjectShape):
            yield from iter_leaves(value, path)
        else:
            for index, item in enumerate(value):
                yield from iter_leaves(item, f"{path}[{index}]")


@cache
def leaf_patterns(model: type[BaseModel], prefix: str = "") -> frozenset[str]:
    """Every leaf path of `model` with list indices erased (``locations[].tiv``)."""
    patterns: set[str] = set()
    for name, shape in fields_of(model):
        path = f"{prefix}.{name}" if prefix else name
        if isinstance(shape, LeafShape):
            patterns.add(path)
        elif isinstance(shape, ObjectShape):
            patterns |= leaf_patterns(shape.model, path)
        else:
            patterns |= leaf_patterns(shape.item.model, f"{path}[]")
    return frozenset(patterns)


def leaf_index(instance: BaseModel) -> dict[str, tuple[Any, Leaf]]:
    """Map every leaf path of `instance` to its value and leaf marker."""
    return {path: (value, leaf) for path, value, leaf in iter_leaves(instance)}


_PATH_PART = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)")


_INDEX = re.compile(r"\[\d+\]")


@lru_cache(maxsize=1 << 16)
def path_pattern(path: str) -> str:
    """`locations[3].tiv` -> `locations[].tiv`: the path with its list indices erased
    (remembered: the table and sheet renderers ask for every cell's path)."""
    return _INDEX.sub("[]", path)


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    """Set `value` at dotted `path` (with list indices) inside plain JSON data."""
    node: Any = data
    parts = path.split(".")
    for position, part in enumerate(parts):
        match = _PATH_PART.fullmatch(part)
        if match is None:
            raise KeyError(path)
        name, indices = match.group(1), [int(i) for i in re.findall(r"\d+", match.group(2))]
        last = position == len(parts) - 1
        if last and not indices:
            node[name] = value
            return
        node = node[name]
        for depth, index in enumerate(indices):
            if last and depth == len(indices) - 1:
                node[index] = value
                return
            node = node[index]
    raise KeyError(path)
