"""Difficulty tiers: presets of named knobs.

A tier is data, not an if-ladder: a preset assigns a value to every knob, a user may override
any knob with ``--set name=value``, and the resolved knobs are written to every manifest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.errors import UsageError
from generator.patterns import presets as patterns

DOCUMENTS_ALL: tuple[str, ...] = (
    "acord_125",
    "acord_140",
    "sov_pdf",
    "sov_excel",
    "loss_run_pdf",
    "loss_run_excel",
    "loss_run_csv",
    "driver_schedule_pdf",
    "driver_schedule_excel",
    "financial_statement_pdf",
    "financial_statement_excel",
)


@dataclass(frozen=True)
class Knob:
    name: str
    kind: type  # int or tuple (a comma-separated list of doc ids)
    help: str
    minimum: int = 0


KNOBS: dict[str, Knob] = {
    k.name: k
    for k in (
        Knob("documents", tuple, "doc_ids rendered in the packet, comma-separated"),
        Knob("sov.min_rows", int, "fewest buildings (SOV rows)", 1),
        Knob("sov.max_rows", int, "most buildings (SOV rows)", 1),
        Knob("loss_run.min_claims", int, "fewest claims across the loss history"),
        Knob("loss_run.max_claims", int, "most claims across the loss history"),
        Knob("loss_run.years", int, "policy years of loss history", 1),
        Knob("loss_run.max_carriers", int, "most carriers the account moved through", 1),
        Knob("drivers.min_rows", int, "fewest drivers on the schedule", 1),
        Knob("drivers.max_rows", int, "most drivers on the schedule", 1),
        Knob("financials.years", int, "comparative fiscal years in the statements", 1),
        Knob("acord_140.max_premises", int, "most premises described on the ACORD 140", 1),
    )
}


@dataclass(frozen=True)
class Preset:
    tier: str
    description: str
    knobs: Mapping[str, Any]


def _preset(tier: str, description: str, rows: tuple[int, int], claims: tuple[int, int],
            drivers: tuple[int, int], years: int, carriers: int, premises: int) -> Preset:
    return Preset(
        tier,
        description,
        {
            "documents": DOCUMENTS_ALL,
            "sov.min_rows": rows[0],
            "sov.max_rows": rows[1],
            "loss_run.min_claims": claims[0],
            "loss_run.max_claims": claims[1],
            "loss_run.years": years,
            "loss_run.max_carriers": carriers,
            "drivers.min_rows": drivers[0],
            "drivers.max_rows": drivers[1],
            "financials.years": 2,
            "acord_140.max_premises": premises,
        },
    )


PRESETS: dict[str, Preset] = {
    p.tier: p
    for p in (
        _preset("N1", "easy: small tables, clean native files", (1, 5), (1, 5), (1, 5), 3, 1, 2),
        _preset("N2", "normal: tables up to 15 rows", (4, 15), (4, 15), (4, 15), 4, 2, 2),
        _preset("N3", "hard: tables up to 60 rows", (12, 60), (12, 60), (12, 60), 5, 3, 3),
        _preset("N4", "expert: tables up to 150 rows", (40, 150), (40, 150), (40, 150), 5, 3, 4),
        _preset("N5", "nightmare: tables up to 500 rows", (120, 500), (120, 500), (120, 500),
                5, 3, 5),
    )
}


def _parse(knob: Knob, raw: str) -> Any:
    if knob.kind is tuple:
        items = tuple(part.strip() for part in raw.split(",") if part.strip())
        unknown = [item for item in items if item not in DOCUMENTS_ALL]
        if not items or unknown:
            raise UsageError(
                f"--set {knob.name}: unknown document(s) {', '.join(unknown) or '(none given)'}; "
                f"choose from {', '.join(DOCUMENTS_ALL)}"
            )
        return tuple(doc for doc in DOCUMENTS_ALL if doc in items)
    try:
        value = int(raw)
    except ValueError:
        raise UsageError(f"--set {knob.name}={raw}: expected an integer") from None
    if value < knob.minimum:
        raise UsageError(f"--set {knob.name}={raw}: must be at least {knob.minimum}")
    return value


def parse_overrides(assignments: list[str]) -> dict[str, Any]:
    """Parse ``name=value`` strings from the command line into typed knob values."""
    overrides: dict[str, Any] = {}
    for assignment in assignments:
        name, sep, raw = assignment.partition("=")
        name = name.strip()
        if not sep:
            raise UsageError(f"--set {assignment}: expected name=value")
        if name.startswith(patterns.PREFIX):
            key, value = patterns.parse(name, raw.strip())
            overrides[key] = value
            continue
        knob = KNOBS.get(name)
        if knob is None:
            raise UsageError(f"--set {name}: unknown knob; known knobs: {', '.join(KNOBS)}, "
                             "patterns.<id>, patterns.off, patterns.only")
        overrides[name] = _parse(knob, raw.strip())
    return overrides


def resolve(tier: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The knobs of `tier` with `overrides` applied, validated as a whole."""
    preset = PRESETS.get(tier)
    if preset is None:
        raise UsageError(f"unknown tier {tier!r}; choose one of {', '.join(PRESETS)}")
    knobs = dict(preset.knobs)
    overrides = dict(overrides or {})
    knobs.update({k: v for k, v in overrides.items() if not k.startswith(patterns.PREFIX)})
    for low, high in (("sov.min_rows", "sov.max_rows"),
                      ("loss_run.min_claims", "loss_run.max_claims"),
                      ("drivers.min_rows", "drivers.max_rows")):
        if knobs[low] > knobs[high]:
            raise UsageError(f"knob {low}={knobs[low]} exceeds {high}={knobs[high]}")
    knobs.update(patterns.resolve(tier, overrides))
    return {name: list(v) if isinstance(v, tuple) else v for name, v in knobs.items()}
