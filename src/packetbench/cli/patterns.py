"""`packetbench patterns`: the presentation-pattern catalogue."""

from __future__ import annotations

from typing import Annotated

import typer

from packetbench.core.codes import TIERS


def patterns(
    tiers: Annotated[
        str | None,
        typer.Option(help="Show only these tiers' probabilities (comma-separated, N1..N5)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """List the presentation-pattern catalogue: id, family, phase, formats, the reference
    corpus's nearest pattern, and the probability each tier gives it."""
    import json

    from packetbench.core.errors import UsageError
    from packetbench.generator.patterns.catalogue import rows

    chosen = list(TIERS) if tiers is None else [t.strip().upper() for t in tiers.split(",")]
    unknown = [t for t in chosen if t not in TIERS]
    if unknown:
        raise UsageError(f"unknown tier {unknown[0]!r}; choose one of {', '.join(TIERS)}")
    listed = rows(tuple(chosen) if tiers else None)
    if as_json:
        typer.echo(json.dumps(listed, indent=2))
        return
    head = f"{'id':<32} {'phase':<9} {'truth':<7} {'formats':<8} {'reference':<24} " + " ".join(
        f"{t:>5}" for t in chosen
    )
    typer.echo(head)
    for row in listed:
        typer.echo(
            f"{row['id']:<32} {row['phase']:<9} {row['truth']:<7} "
            f"{','.join(row['formats']):<8} {row['reference'] or '-':<24} "
            + " ".join(f"{row['probability'][t]:>5.2f}" for t in chosen)
        )
    typer.echo(
        f"{len(listed)} patterns; override with --set patterns.<id>=P, "
        "--set patterns.off=<glob>, --set patterns.only=<ids>"
    )


def register(app: typer.Typer) -> None:
    app.command("patterns", short_help="List the presentation patterns and each tier's odds.")(
        patterns
    )
