"""`packetbench score`: score a run folder against its packets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def score(
    run: Annotated[
        Path,
        typer.Argument(
            metavar="RUN",
            help="The run folder (with run.json); a repeated run's repeats are each scored.",
        ),
    ],
    packets: Annotated[Path, typer.Option(help="A packet folder, or a folder of packets.")],
    jobs: Annotated[
        int,
        typer.Option(
            help="Packets scored at once (worker processes, or "
            "CPUs of the Ray instance started for the run)."
        ),
    ] = 1,
    executor: Annotated[str, typer.Option(help="local (worker processes) or ray.")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="--executor ray: 'auto' or HOST:PORT of a running cluster.")
    ] = None,
    claims_jsonl: Annotated[
        bool,
        typer.Option(
            "--claims-jsonl", help="Also write scores/claims.jsonl (the claims as JSON lines)."
        ),
    ] = False,
    invalid: Annotated[
        str,
        typer.Option(
            "--invalid",
            help="What becomes of an output that is not a valid instance of its schema: "
            "exclude (left out of every rate) or salvage (the leaves that fit are scored; "
            "every key the schema lacks is counted as an invented key).",
        ),
    ] = "exclude",
) -> None:
    """Score every document of RUN; writes RUN/scores/ (field view, hallucination,
    consistency; claims and fields as Parquet) and loads them into RUN/results.duckdb.

    Exit 0 when documents were scored, 1 when no document of the run was extracted ok, 2 on
    bad input (among it packets other than those the run was extracted from)."""
    from packetbench.benchmark.report.spread import one_line, write_spread
    from packetbench.benchmark.results import load_run  # duckdb loads only here
    from packetbench.benchmark.runs import read_run, repeat_runs
    from packetbench.benchmark.score.scorer import score_run  # scipy loads only here
    from packetbench.core.executors import make_executor
    from packetbench.core.locking import hold
    from packetbench.core.progress import bar

    runner = make_executor(executor, jobs, ray_address)
    repeats = repeat_runs(run)  # a repeated run (--repeats): each repeat is scored as a run
    for target in repeats or []:
        read_run(target)  # every repeat is a run before any is scored: none half rescored
    # One writer of the run at a time: a second `score`, or an `extract` of it, is refused.
    with hold(run, create=False):
        for target in repeats or [run]:
            with hold(target, create=False), bar("score", "packets") as advance:
                result = score_run(
                    target,
                    packets,
                    executor=runner,
                    claims_jsonl=claims_jsonl,
                    on_packet=advance,
                    invalid=invalid,
                )
                load_run(target, packets)
            excluded = ", ".join(f"{n} {k}" for k, n in result.excluded().items()) or "none"
            salvaged = (
                f"; salvaged: {len(result.salvaged):,} invalid (the leaves that fit; "
                f"{result.totals.keys['invented']:,} invented keys)"
                if result.salvaged
                else ""
            )
            typer.echo(
                f"{target / 'scores'}: {result.documents:,} documents scored, "
                f"{result.claims:,} claims; excluded: {excluded}{salvaged}"
            )
            if not result.documents:
                typer.echo(
                    f"packetbench: failed: no document of {target} was extracted ok "
                    f"({excluded}): there is nothing to score",
                    err=True,
                )
                raise typer.Exit(1)
        if repeats:
            typer.echo(one_line(run, write_spread(run, repeats)))


def register(app: typer.Typer) -> None:
    app.command("score", short_help="Score a run against the truth.")(score)
