"""Align extracted list records to truth records (docs/design.md §7).

First by the item model's `record_key` (claim number, licence number, location and building
number...), compared under normalization; then the leftovers by best assignment on field
agreement (the Hungarian method). A leftover pair is accepted only when the output agrees with
at least half of the truth record's populated leaves: below that it is not the same record but
an invented one beside a dropped one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from packetbench.core.leaves import DocModel, LeafShape, ObjectShape, fields_of
from packetbench.truth import normalize


@dataclass(frozen=True)
class Alignment:
    pairs: list[tuple[int, int]]  # (truth index, output index)
    dropped: list[int]  # truth indices without a partner
    invented: list[int]  # output indices without a partner


def flat_leaves(
    model: type[DocModel],
    record: dict[str, Any] | None,
) -> Iterator[tuple[str, Any, LeafShape]]:
    """(name, value, shape) of every leaf of a record, nested objects included, lists not."""
    for name, shape in fields_of(model):
        value = record.get(name) if isinstance(record, dict) else None
        if isinstance(shape, LeafShape):
            yield name, value, shape
        elif isinstance(shape, ObjectShape):
            for sub, sub_value, sub_shape in flat_leaves(shape.model, value):
                yield f"{name}.{sub}", sub_value, sub_shape


def _code_list(shape: LeafShape) -> str | None:
    return shape.leaf.codes.name if shape.leaf.codes else None


def record_key(model: type[DocModel], record: Any) -> tuple[Any, ...] | None:
    """The record's key, normalized, or None when it has none (a key leaf is null)."""
    if not model.record_key or not isinstance(record, dict):
        return None
    shapes = dict(fields_of(model))
    parts = []
    for name in model.record_key:
        shape = shapes[name]
        assert isinstance(shape, LeafShape)
        value = normalize.canonical(record.get(name), shape.leaf.kind, _code_list(shape))
        if value is None:
            return None
        parts.append(value)
    return tuple(parts)


def agreement(model: type[DocModel], truth: dict[str, Any], output: Any) -> tuple[int, int]:
    """(leaves of `output` equal to the truth, populated leaves of the truth)."""
    out = dict((n, v) for n, v, _ in flat_leaves(model, output))
    agree = populated = 0
    for name, value, shape in flat_leaves(model, truth):
        if value is None:
            continue
        populated += 1
        if normalize.equal(out.get(name), value, shape.leaf.kind, _code_list(shape)):
            agree += 1
    return agree, populated


def align(model: type[DocModel], truths: list[Any], outputs: list[Any]) -> Alignment:
    pairs: list[tuple[int, int]] = []
    by_key: dict[tuple[Any, ...], int] = {}
    duplicate: set[tuple[Any, ...]] = set()
    for index, record in enumerate(truths):
        key = record_key(model, record)
        if key is None:
            continue
        if key in by_key:
            duplicate.add(key)
        by_key[key] = index
    taken_truth: set[int] = set()
    free_outputs: list[int] = []
    for index, record in enumerate(outputs):
        key = record_key(model, record)
        match = by_key.get(key) if key is not None and key not in duplicate else None
        if match is not None and match not in taken_truth:
            pairs.append((match, index))
            taken_truth.add(match)
        else:
            free_outputs.append(index)
    free_truths = [i for i in range(len(truths)) if i not in taken_truth]
    if free_truths and free_outputs:
        scores = np.zeros((len(free_truths), len(free_outputs)), dtype=np.int64)
        populated = np.zeros(len(free_truths), dtype=np.int64)
        for row, t in enumerate(free_truths):
            for col, o in enumerate(free_outputs):
                scores[row, col], populated[row] = agreement(model, truths[t], outputs[o])
        rows, cols = linear_sum_assignment(-scores)
        for row, col in zip(rows, cols, strict=True):
            if scores[row, col] > 0 and 2 * scores[row, col] >= populated[row]:
                pairs.append((free_truths[row], free_outputs[col]))
    # A truth record holding nothing (its every value damaged past reading) pairs, in order,
    # with an output record holding nothing: an empty record answered empty invents nothing.
    paired_truth = {t for t, _ in pairs}
    paired_output = {o for _, o in pairs}
    empty_truths = [
        t for t in free_truths if t not in paired_truth and not _holds_any(model, truths[t])
    ]
    empty_outputs = [
        o for o in free_outputs if o not in paired_output and not _holds_any(model, outputs[o])
    ]
    pairs.extend(zip(empty_truths, empty_outputs, strict=False))
    matched_truth = {t for t, _ in pairs}
    matched_output = {o for _, o in pairs}
    return Alignment(
        pairs=sorted(pairs),
        dropped=[i for i in range(len(truths)) if i not in matched_truth],
        invented=[i for i in range(len(outputs)) if i not in matched_output],
    )


def _holds_any(model: type[DocModel], record: Any) -> bool:
    """Whether `record` has any non-null leaf."""
    return any(value is not None for _, value, _ in flat_leaves(model, record))
