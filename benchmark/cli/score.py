"""`packetbench score`: score a run folder against its packets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def score(
    run: Annotated[Path, typer.Argument(help="The run folder (with run.json).")],
    packets: Annotated[Path, typer.Option(help="A packet folder, or a folder of packets.")],
) -> None:
    """Score every document of RUN; writes RUN/scores/ (field view, hallucination, claims,
    consistency) and loads them into RUN/results.duckdb."""
    from benchmark.results import load_run  # duckdb loads only here
    from benchmark.score.scorer import score_run  # scipy and the scorer load only here

    result = score_run(run, packets)
    load_run(run, packets)
    counts = {"missing": len(result.missing), "error": len(result.errors),
              "invalid": len(result.invalid)}
    excluded = ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "none"
    typer.echo(f"{run / 'scores'}: {len(result.documents)} documents scored, "
               f"{result.claims} claims; excluded: {excluded}")


def register(app: typer.Typer) -> None:
    app.command("score")(score)
