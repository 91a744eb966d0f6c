"""The field view (recall side) of one document, and the claims it emits (docs/design.md §7).

Walks the truth and the extracted output side by side through the document model. Every
truth leaf is counted once: populated leaves as correct, wrong or omitted; null leaves as
abstained or answered. Lists are aligned first (`align`); a truth record without a partner is
dropped (its populated leaves omitted), an output record without one is invented. Every
non-null output leaf becomes a claim for grounding and verdicts, with the truth at its aligned
path (None when there is none).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

from packetbench.benchmark.score.align import align
from packetbench.core.leaves import DocModel, LeafShape, ListShape, ObjectShape, fields_of
from packetbench.truth import normalize


@dataclass
class FieldCounts:
    gt_fields: int = 0
    correct: int = 0
    wrong: int = 0
    omitted: int = 0
    gt_null_fields: int = 0
    abstained: int = 0
    answered: int = 0
    invented_records: int = 0
    dropped_records: int = 0

    def add(self, other: FieldCounts) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(slots=True)
class Claim:
    """One emitted leaf: where it sits, what it says, and the truth at its aligned path."""

    path: str
    kind: str
    code_list: str | None
    value: Any
    truth: Any
    matched: bool  # False inside an invented record
    supported: bool  # equals the truth under the normalization of its kind
    source: str = ""  # where the output holds it (list positions of the output, not the truth)


@dataclass
class Comparison:
    counts: FieldCounts = field(default_factory=FieldCounts)
    claims: list[Claim] = field(default_factory=list)


def _records(model: type[DocModel], record: Any) -> int:
    """How many records a record is, counting every record nested in its lists."""
    total = 1
    if isinstance(record, dict):
        for name, shape in fields_of(model):
            if isinstance(shape, ListShape):
                items = record.get(name)
                if isinstance(items, list):
                    total += sum(_records(shape.item.model, item) for item in items)
    return total


LEAF, OBJECT, LIST = 0, 1, 2
Step = tuple[str, int, str, "str | None", "type[DocModel] | None"]


@cache
def _steps(model: type[DocModel]) -> tuple[Step, ...]:
    """(name, LEAF/OBJECT/LIST, kind, code list, nested model) per field, computed once."""
    steps: list[Step] = []
    for name, shape in fields_of(model):
        if isinstance(shape, LeafShape):
            steps.append(
                (
                    name,
                    LEAF,
                    shape.leaf.kind,
                    shape.leaf.codes.name if shape.leaf.codes else None,
                    None,
                )
            )
        elif isinstance(shape, ObjectShape):
            steps.append((name, OBJECT, "", None, shape.model))
        else:
            steps.append((name, LIST, "", None, shape.item.model))
    return tuple(steps)


def _walk(
    model: type[DocModel],
    truth: Any,
    output: Any,
    path: str,
    result: Comparison,
    matched: bool,
    source: str = "",
) -> None:
    """Compare one record. `truth` is None inside an invented record, `output` is None inside
    a dropped one (records nested in those were counted with them). `source` is the record's
    path in the output."""
    counts = result.counts
    has_truth = isinstance(truth, dict)
    has_output = isinstance(output, dict)
    prefix = f"{path}." if path else ""
    out_prefix = f"{source}." if source else ""
    for name, tag, kind, code_list, nested in _steps(model):
        where = prefix + name
        held = out_prefix + name
        t = truth.get(name) if has_truth else None
        o = output.get(name) if has_output else None
        if tag == LEAF:
            supported = False
            if has_truth:
                if t is not None:
                    counts.gt_fields += 1
                    if o is None:
                        counts.omitted += 1
                    elif normalize.equal(o, t, kind, code_list):
                        counts.correct += 1
                        supported = True
                    else:
                        counts.wrong += 1
                else:
                    counts.gt_null_fields += 1
                    if o is None:
                        counts.abstained += 1
                    else:
                        counts.answered += 1
            if o is not None:
                result.claims.append(Claim(where, kind, code_list, o, t, matched, supported, held))
            continue
        assert nested is not None
        if tag == OBJECT:
            _walk(nested, t if has_truth else None, o, where, result, matched, held)
            continue
        t_items = t if isinstance(t, list) else []
        o_items = o if isinstance(o, list) else []
        if not has_truth:  # inside an invented record: everything is invented
            for index, record in enumerate(o_items):
                _walk(nested, None, record, f"{where}[+{index}]", result, False, f"{held}[{index}]")
            continue
        if not has_output:  # inside a dropped record: everything is dropped
            for index, record in enumerate(t_items):
                _walk(nested, record, None, f"{where}[{index}]", result, matched)
            continue
        aligned = align(nested, t_items, o_items)
        for t_index, o_index in aligned.pairs:
            _walk(
                nested,
                t_items[t_index],
                o_items[o_index],
                f"{where}[{t_index}]",
                result,
                matched,
                f"{held}[{o_index}]",
            )
        for t_index in aligned.dropped:
            counts.dropped_records += _records(nested, t_items[t_index])
            _walk(nested, t_items[t_index], None, f"{where}[{t_index}]", result, matched)
        for o_index in aligned.invented:
            counts.invented_records += _records(nested, o_items[o_index])
            _walk(
                nested,
                None,
                o_items[o_index],
                f"{where}[+{o_index}]",
                result,
                False,
                f"{held}[{o_index}]",
            )


def compare(model: type[DocModel], truth: dict[str, Any], output: dict[str, Any]) -> Comparison:
    """Field counts and claims of one extracted document against its truth."""
    result = Comparison()
    _walk(model, truth, output, "", result, True)
    return result
