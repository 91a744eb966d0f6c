"""`packetbench plan`: how many packets per tier a comparison of two models needs."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from packetbench.cli._options import finite


def plan(
    pilot: Annotated[Path, typer.Argument(metavar="RUN", help="A scored pilot run.")],
    effect: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="The difference to detect, in rate units (0.02 = 2 percentage points).",
        ),
    ],
    metric: Annotated[
        list[str] | None,
        typer.Option(
            help="Rate(s) to size for (repeat); default numeric and string hallucination."
        ),
    ] = None,
    alpha: Annotated[
        float, typer.Option(callback=finite, help="Two-sided significance level.")
    ] = 0.05,
    power: Annotated[
        float, typer.Option(callback=finite, help="Power to detect the effect.")
    ] = 0.8,
    correlation: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="Expected correlation of the two models' packet rates (0 = plan as if none).",
        ),
    ] = (0.0),
    json_output: Annotated[bool, typer.Option("--json", help="Print the plan as JSON.")] = (False),
) -> None:
    """Packets per tier needed to tell two models apart, from RUN, a scored pilot run.

    Sized from the pilot's packet-to-packet variance of each rate, to detect a difference of
    --effect at the given power; more than 100,000 packets per tier is "not feasible".
    """
    from packetbench.benchmark.report.plan import DEFAULT_METRICS, FEASIBLE
    from packetbench.benchmark.report.plan import plan as make_plan

    rows = make_plan(pilot, effect, metric or DEFAULT_METRICS, alpha, power, correlation)
    if json_output:
        typer.echo(json.dumps([asdict(r) for r in rows], indent=2))
        return
    typer.echo(
        f"Packets per tier, per model, to detect a difference of {effect:g} at "
        f"{power:.0%} power (two-sided alpha {alpha:g}, correlation {correlation:g}):"
    )
    typer.echo(
        f"{'tier':<5} {'metric':<24} {'pilot':>24} {'rate':>8} {'sd/packet':>10} "
        f"{'needed':>8}  spread from"
    )
    for row in rows:
        rate = "–" if row.rate is None else f"{row.rate * 100:.2f} %"
        sd = "–" if row.sd is None else f"{row.sd:.4f}"
        needed = (
            f"> {FEASIBLE:,}"
            if row.feasible is False
            else "unknown"
            if row.needed is None
            else f"{row.needed:,}"
        )
        pilot_size = f"{row.packets:,} packets, {row.documents:,} docs"
        typer.echo(
            f"{row.tier:<5} {row.metric:<24} {pilot_size:>24} {rate:>8} {sd:>10} "
            f"{needed:>8}  {row.basis}"
        )
    if any(row.basis.startswith("documents of one packet") for row in rows):
        typer.echo(
            "documents of one packet: the pilot has one packet of the tier, so its "
            "documents stand in for packets, assumed independent; a pilot with two or "
            "more packets per tier measures the spread between packets"
        )
    by_tier: dict[str, str] = {}
    for tier in dict.fromkeys(row.tier for row in rows):
        of_tier = [row for row in rows if row.tier == tier]
        if any(row.feasible is False for row in of_tier):
            by_tier[tier] = f"not feasible (more than {FEASIBLE:,} packets)"
        elif any(row.needed is None for row in of_tier):
            by_tier[tier] = "unknown"
        else:
            by_tier[tier] = f"{max(row.needed or 0 for row in of_tier):,}"
    typer.echo(
        "needed per tier (the largest over the rates): "
        + ", ".join(f"{tier} {n}" for tier, n in by_tier.items())
    )


def register(app: typer.Typer) -> None:
    app.command("plan", short_help="Packets per tier needed to tell two models apart.")(plan)
