"""Difficulty tiers: presets of named knobs.

A tier is data, not an if-ladder: a preset assigns a value to every knob, a user may override
any knob with ``--set name=value``, and the resolved knobs are written to every manifest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from packetbench.core import codes
from packetbench.core.errors import UsageError
from packetbench.generator.patterns import presets as patterns
from packetbench.generator.world.tables import ROW_KNOBS


def document_ids() -> tuple[str, ...]:
    """Every registered doc id, in packet order: what a packet may render."""
    from packetbench.generator.doctypes.base import variants

    return tuple(variants())


# Lines of business by tier, as the reference corpus composes its packets: property alone at
# N1-N2, then general liability and workers compensation, auto, and at N5 the umbrella over
# them and motor truck cargo on the fleet.
TIER_LINES: dict[str, tuple[str, ...]] = {
    "N1": ("property",),
    "N2": ("property",),
    "N3": ("property", "gl", "wc"),
    "N4": ("property", "gl", "wc", "auto"),
    "N5": ("property", "gl", "wc", "auto", "umbrella", "cargo"),
}


@dataclass(frozen=True)
class Knob:
    name: str
    kind: type  # int or tuple (a comma-separated list drawn from `choices`)
    help: str
    minimum: int = 0
    maximum: int | None = None
    choices: Callable[[], tuple[str, ...]] | None = None  # the items a list knob allows
    item: str = "value"  # what one item of a list knob is called in messages


KNOBS: dict[str, Knob] = {
    k.name: k
    for k in (
        Knob(
            "lines",
            tuple,
            "lines of business the packet carries, comma-separated",
            choices=lambda: tuple(codes.LINE_IDS),
            item="line",
        ),
        Knob(
            "documents",
            tuple,
            "doc_ids the packet may render, comma-separated (each is "
            "rendered when the packet carries its line)",
            choices=document_ids,
            item="document",
        ),
        Knob(
            "documents.max",
            int,
            "most documents a packet renders, earlier versions "
            "included; more compose: formats of a type with another are left out (seeded); "
            "0: no cap",
        ),
        Knob(
            "tables.large",
            int,
            "how many of the packet's long tables (buildings, claims, "
            "drivers) are drawn from their own row ranges, chosen by seed; the others from "
            "tables.other_min..tables.other_max; 0: all from their own",
        ),
        Knob("tables.other_min", int, "fewest rows of a table that is not long", 1),
        Knob("tables.other_max", int, "most rows of a table that is not long", 1),
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
        Knob("acord_160.max_premises", int, "most premises listed on the ACORD 160", 1),
        Knob(
            "variants.percent",
            int,
            "percent of the documents that could carry a packet's name, address or "
            "policy-number variant that carry it (at least one; one document always keeps "
            "the canonical form)",
            maximum=100,
        ),
    )
}


@dataclass(frozen=True)
class Preset:
    tier: str
    description: str
    knobs: Mapping[str, Any]


# The most documents a packet carries, superseded and duplicate ones included: the upper
# bound of docs/design.md §3's tier table (N1-N2 about 25, N3 28-32, N4 32-36, N5 30-36). Every type
# of the packet's lines stays; what goes is formats of a type that has another (see
# generator.composition). Below N4 no packet composes that many; at N4 and N5 every packet
# does, and keeps the cap's count.
DOCUMENTS_MAX: dict[str, int] = {"N1": 28, "N2": 28, "N3": 32, "N4": 36, "N5": 36}


def _preset(
    tier: str,
    description: str,
    rows: tuple[int, int],
    claims: tuple[int, int],
    drivers: tuple[int, int],
    years: int,
    carriers: int,
    premises: int,
    bop_premises: int,
    large: tuple[int, int, int] = (0, 1, 1),
    variants: int = 0,
) -> Preset:
    return Preset(
        tier,
        description,
        {
            "lines": TIER_LINES[tier],
            "documents": document_ids(),
            "documents.max": DOCUMENTS_MAX[tier],
            "tables.large": large[0],
            "tables.other_min": large[1],
            "tables.other_max": large[2],
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
            "acord_160.max_premises": bop_premises,
            "variants.percent": variants,
        },
    )


PRESETS: dict[str, Preset] = {
    p.tier: p
    for p in (
        _preset(
            "N1",
            "easy: property, small tables, clean native files",
            (1, 5),
            (1, 5),
            (1, 5),
            3,
            1,
            2,
            5,
        ),
        _preset(
            "N2", "normal: property, tables up to 15 rows", (4, 15), (4, 15), (4, 15), 4, 2, 2, 15
        ),
        _preset(
            "N3",
            "hard: + GL and WC, tables up to 60 rows",
            (12, 60),
            (12, 60),
            (12, 60),
            5,
            3,
            3,
            30,
        ),
        _preset(
            "N4",
            "expert: + auto, tables up to 150 rows",
            (40, 150),
            (40, 150),
            (40, 150),
            5,
            3,
            4,
            60,
            variants=50,
        ),
        # At N5 one long table per packet (buildings, claims or drivers) runs to 500 rows and
        # the others keep N4's sizes (generator.world.tables): about 100 pages, not 200.
        _preset(
            "N5",
            "nightmare: + umbrella and cargo, one table up to 500 rows",
            (120, 500),
            (120, 500),
            (120, 500),
            5,
            3,
            5,
            120,
            large=(1, 40, 150),
            variants=80,
        ),
    )
}


def _parse(knob: Knob, raw: str) -> Any:
    if knob.kind is tuple:
        assert knob.choices is not None
        allowed = knob.choices()
        items = tuple(part.strip() for part in raw.split(",") if part.strip())
        unknown = [item for item in items if item not in allowed]
        if not items or unknown:
            raise UsageError(
                f"--set {knob.name}: unknown {knob.item}(s) "
                f"{', '.join(unknown) or '(none given)'}; "
                f"choose from {', '.join(allowed)}"
            )
        return tuple(item for item in allowed if item in items)
    try:
        value = int(raw)
    except ValueError:
        raise UsageError(f"--set {knob.name}={raw}: expected an integer") from None
    if value < knob.minimum:
        raise UsageError(f"--set {knob.name}={raw}: must be at least {knob.minimum}")
    if knob.maximum is not None and value > knob.maximum:
        raise UsageError(f"--set {knob.name}={raw}: must be at most {knob.maximum}")
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
            raise UsageError(
                f"--set {name}: unknown knob; known knobs: {', '.join(KNOBS)}, "
                "patterns.<id>, patterns.off, patterns.only"
            )
        overrides[name] = _parse(knob, raw.strip())
    return overrides


# Lines that only exist on top of another: the umbrella over general liability, cargo
# carried on the insured's own autos.
LINE_NEEDS: dict[str, str] = {"umbrella": "gl", "cargo": "auto"}


def _check_lines(lines: Sequence[str], documents: Sequence[str] | None) -> None:
    for line, needed in LINE_NEEDS.items():
        if line in lines and needed not in lines:
            raise UsageError(f"--set lines: {line} needs {needed} in the same packet")
    if documents is None:  # the preset's documents: each rendered when its line is carried
        return
    from packetbench.generator.doctypes.base import variants

    registry = variants()
    for doc_id in documents:
        needs = registry[doc_id][0].lines
        if needs and not needs & set(lines):
            raise UsageError(
                f"--set documents: {doc_id} needs line {' or '.join(sorted(needs))}, which "
                f"lines={','.join(lines)} does not carry (add it with --set lines=...)"
            )


def resolve(tier: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The knobs of `tier` with `overrides` applied, validated as a whole."""
    preset = PRESETS.get(tier)
    if preset is None:
        raise UsageError(f"unknown tier {tier!r}; choose one of {', '.join(PRESETS)}")
    knobs = dict(preset.knobs)
    overrides = dict(overrides or {})
    knobs.update({k: v for k, v in overrides.items() if not k.startswith(patterns.PREFIX)})
    if "documents" in overrides and "documents.max" not in overrides:
        knobs["documents.max"] = 0  # the documents a user names are all rendered
    if set(overrides) & set(ROW_KNOBS) and "tables.large" not in overrides:
        knobs["tables.large"] = 0  # the row ranges a user sets are the ranges drawn from
    for low, high in (
        ("sov.min_rows", "sov.max_rows"),
        ("loss_run.min_claims", "loss_run.max_claims"),
        ("drivers.min_rows", "drivers.max_rows"),
    ):
        if knobs[low] > knobs[high]:
            raise UsageError(f"knob {low}={knobs[low]} exceeds {high}={knobs[high]}")
    _check_lines(knobs["lines"], overrides.get("documents"))
    knobs.update(patterns.resolve(tier, overrides))
    return {name: list(v) if isinstance(v, tuple) else v for name, v in knobs.items()}
