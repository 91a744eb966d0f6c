"""The claims of one extraction record: every emitted non-null leaf, in schema order.

A claim is named by its output path (the record's own list positions), the path the scorer
stores as a claim's `source`, so a judge's label and the scorer's verdict meet on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from packetbench.core.leaves import DocModel, LeafShape, ListShape, ObjectShape, fields_of


@dataclass(frozen=True, slots=True)
class Claim:
    path: str
    kind: str
    value: Any


def claims_of(model: type[DocModel], output: Any, prefix: str = "") -> list[Claim]:
    """Every non-null leaf of `output` the document model describes, in model order."""
    found: list[Claim] = []
    if not isinstance(output, dict):
        return found
    for name, shape in fields_of(model):
        value = output.get(name)
        where = f"{prefix}.{name}" if prefix else name
        if isinstance(shape, LeafShape):
            if value is not None:
                found.append(Claim(where, shape.leaf.kind, value))
        elif isinstance(shape, ObjectShape):
            found += claims_of(shape.model, value, where)
        elif isinstance(shape, ListShape) and isinstance(value, list):
            for index, item in enumerate(value):
                found += claims_of(shape.item.model, item, f"{where}[{index}]")
    return found


def batches(claims: list[Claim], size: int) -> list[list[Claim]]:
    """`claims` in consecutive batches of at most `size` (one judge request each)."""
    return [claims[i : i + size] for i in range(0, len(claims), size)]
