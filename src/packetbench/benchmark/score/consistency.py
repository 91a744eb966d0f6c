"""Internal arithmetic of an extraction, on the output alone (docs/design.md §7), at cent precision.

- every object with a `total_*` leaf: the total equals its numeric sibling leaves plus the
  `total_*` of its sibling objects (the generator's convention; an object with more than one
  total, or none of whose components were extracted, is skipped);
- statement of values: each row's TIV equals building + contents + business income, and each
  grand total equals the sum of its column;
- loss run: each claim's incurred equals paid + reserve; each policy's totals and the grand
  totals equal the sums (and counts) of their claims;
- ACORD 125: the estimated premium equals the line premiums; the loss history's total
  incurred equals paid + reserved of the listed losses.
A check whose inputs are not all present is counted as skipped, never as passed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from packetbench.core import codes
from packetbench.core.leaves import (
    DocModel,
    LeafShape,
    ListShape,
    ObjectShape,
    fields_of,
    path_pattern,
)
from packetbench.truth import normalize


@dataclass(frozen=True)
class Check:
    rule: str
    path: str
    stated: float | None
    expected: float | None  # None when skipped
    kind: str = "number"  # of the checked leaf (money, number...): how a report writes it

    @property
    def skipped(self) -> bool:
        return self.stated is None or self.expected is None

    @property
    def ok(self) -> bool:
        return not self.skipped and _cents(self.stated) == _cents(self.expected)


def _cents(value: float | None) -> int:
    assert value is not None
    return round(value * 100)


def _num(value: Any) -> float | None:
    return normalize.number(value) if value is not None else None


def _sum(values: list[float | None]) -> float | None:
    if any(v is None for v in values):
        return None
    return sum(_cents(v) for v in values) / 100


@cache
def _has_totals(model: type[DocModel]) -> bool:
    """Whether a `total_*` leaf occurs anywhere in `model` (most models have none)."""
    for name, shape in fields_of(model):
        if isinstance(shape, LeafShape) and name.startswith("total_"):
            return True
        if isinstance(shape, ObjectShape) and _has_totals(shape.model):
            return True
        if isinstance(shape, ListShape) and _has_totals(shape.item.model):
            return True
    return False


def _totals(model: type[DocModel], data: Any, path: str) -> Iterator[Check]:
    if not isinstance(data, dict) or not _has_totals(model):
        return
    shapes = fields_of(model)
    totals = [n for n, s in shapes if isinstance(s, LeafShape) and n.startswith("total_")]
    components: list[float | None] = []
    for name, shape in shapes:
        where = f"{path}.{name}" if path else name
        value = data.get(name)
        if isinstance(shape, LeafShape):
            if not name.startswith("total_") and shape.leaf.kind in normalize.NUMERIC_KINDS:
                components.append(_num(value))
        elif isinstance(shape, ObjectShape):
            inner = [
                n
                for n, s in fields_of(shape.model)
                if isinstance(s, LeafShape) and n.startswith("total_")
            ]
            if len(inner) == 1 and isinstance(value, dict):
                components.append(_num(value.get(inner[0])))
            yield from _totals(shape.model, value, where)
        elif isinstance(shape, ListShape) and isinstance(value, list):
            for index, item in enumerate(value):
                yield from _totals(shape.item.model, item, f"{where}[{index}]")
    if len(totals) == 1 and components:
        name = totals[0]
        yield Check(
            "total_equals_parts",
            f"{path}.{name}" if path else name,
            _num(data.get(name)),
            _sum(components),
        )


def _sov(data: dict[str, Any]) -> Iterator[Check]:
    rows = data.get("buildings") or []
    columns = ("building_value", "contents_value", "business_income_value", "tiv")
    for index, row in enumerate(rows):
        if isinstance(row, dict):
            yield Check(
                "sov_row_tiv",
                f"buildings[{index}].tiv",
                _num(row.get("tiv")),
                _sum([_num(row.get(c)) for c in columns[:3]]),
            )
    totals = data.get("totals") or {}
    for column in columns:
        yield Check(
            "sov_column_total",
            f"totals.{column}",
            _num(totals.get(column)),
            _sum([_num(r.get(column)) if isinstance(r, dict) else None for r in rows]),
        )


def _loss_totals(claims: list[Any], totals: Any, path: str) -> Iterator[Check]:
    totals = totals if isinstance(totals, dict) else {}
    claims = [c for c in claims if isinstance(c, dict)]
    yield Check(
        "claim_count", f"{path}.claim_count", _num(totals.get("claim_count")), float(len(claims))
    )
    statuses = [c.get("status") for c in claims]
    open_count = (
        None
        if None in statuses
        else float(sum(1 for s in statuses if s in codes.OPEN_CLAIM_STATUSES))
    )
    yield Check("open_claims", f"{path}.open_claims", _num(totals.get("open_claims")), open_count)
    for amount in ("paid", "reserve", "incurred"):
        yield Check(
            f"{amount}_total",
            f"{path}.{amount}",
            _num(totals.get(amount)),
            _sum([_num(c.get(amount)) for c in claims]),
        )


def _loss_run(data: dict[str, Any]) -> Iterator[Check]:
    everything: list[Any] = []
    for p_index, policy in enumerate(data.get("policies") or []):
        if not isinstance(policy, dict):
            continue
        claims = policy.get("claims") or []
        for c_index, claim in enumerate(claims):
            if isinstance(claim, dict):
                yield Check(
                    "incurred_equals_paid_plus_reserve",
                    f"policies[{p_index}].claims[{c_index}].incurred",
                    _num(claim.get("incurred")),
                    _sum([_num(claim.get("paid")), _num(claim.get("reserve"))]),
                )
        yield from _loss_totals(claims, policy.get("totals"), f"policies[{p_index}].totals")
        everything += claims
    yield from _loss_totals(everything, data.get("grand_totals"), "grand_totals")


def _acord_125(data: dict[str, Any]) -> Iterator[Check]:
    lines = data.get("lines_of_business") or {}
    premiums = [
        line.get("premium")
        for line in lines.values()
        if isinstance(line, dict) and line.get("premium") is not None
    ]
    policy = data.get("policy") or {}
    yield Check(
        "premium_equals_line_premiums",
        "policy.estimated_premium",
        _num(policy.get("estimated_premium")),
        _sum([_num(p) for p in premiums]) if premiums else None,
    )
    history = data.get("loss_history") or {}
    losses = [loss for loss in history.get("losses") or [] if isinstance(loss, dict)]
    yield Check(
        "incurred_equals_paid_plus_reserved",
        "loss_history.total_incurred",
        _num(history.get("total_incurred")),
        _sum([_num(x.get(k)) for x in losses for k in ("paid", "reserved")]) if losses else None,
    )


SPECIFIC: dict[str, Callable[[dict[str, Any]], Iterator[Check]]] = {
    "acord_125": _acord_125,
    "sov": _sov,
    "loss_run": _loss_run,
}


@cache
def _kinds(model: type[DocModel], prefix: str = "") -> dict[str, str]:
    """Leaf path with list indices erased -> its kind, for every leaf of `model`."""
    found: dict[str, str] = {}
    for name, shape in fields_of(model):
        path = f"{prefix}.{name}" if prefix else name
        if isinstance(shape, LeafShape):
            found[path] = shape.leaf.kind
        elif isinstance(shape, ObjectShape):
            found.update(_kinds(shape.model, path))
        else:
            found.update(_kinds(shape.item.model, f"{path}[]"))
    return found


def check(schema: str, model: type[DocModel], output: dict[str, Any]) -> list[Check]:
    """Every arithmetic check of one extracted document."""
    checks = list(_totals(model, output, ""))
    if schema in SPECIFIC:
        checks += list(SPECIFIC[schema](output))
    kinds = _kinds(model)
    return [replace(c, kind=kinds.get(path_pattern(c.path), c.kind)) for c in checks]
