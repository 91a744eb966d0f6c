"""Every leaf of a document's truth, walked the way the scorer walks it.

A leaf inside an object the truth leaves null is not a leaf of the truth (the scorer counts
nothing there); list items are numbered as in the truth, which is how claims are addressed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from packetbench.core.leaves import DocModel, LeafShape, ObjectShape, fields_of


def truth_leaves(
    model: type[DocModel], truth: Any, path: str = ""
) -> Iterator[tuple[str, str, bool]]:
    """(path, kind, populated) of every leaf of `truth`, in model order."""
    if not isinstance(truth, dict):
        return
    prefix = f"{path}." if path else ""
    for name, shape in fields_of(model):
        where = prefix + name
        value = truth.get(name)
        if isinstance(shape, LeafShape):
            yield where, shape.leaf.kind, value is not None
        elif isinstance(shape, ObjectShape):
            yield from truth_leaves(shape.model, value, where)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from truth_leaves(shape.item.model, item, f"{where}[{index}]")
