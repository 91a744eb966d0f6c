"""`packetbench report`: report.md and a self-contained report.html from scored runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def report(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN",
            show_default=False,
            help="Scored run folders, in the order to show (a repeated run: its repeats, "
            "and the spread between them; or runs of your own documents, verified by a judge).",
        ),
    ],
    out: Annotated[Path, typer.Option(help="The folder to write report.md and report.html to.")],
    force: Annotated[
        bool, typer.Option(help="Replace report.md and report.html if they exist.")
    ] = False,
) -> None:
    """Write report.md and a self-contained report.html for one or more runs.

    Configuration, completion, hallucination rates with bootstrap intervals, slices worst
    first, recall and abstention, verdicts, consistency, tokens and cost. Runs of your own
    documents (extract --documents) have no scores: their report gives each judge's raw and
    corrected hallucination rate. The same runs give byte-identical files.
    """
    from packetbench.benchmark.report.render import (
        write_report,  # duckdb, numpy, jinja2 load only here
    )

    files = write_report(runs, out, force, progress=True)
    typer.echo(f"wrote {files.markdown} and {files.html}")


def register(app: typer.Typer) -> None:
    app.command("report", short_help="Write a report of one or more runs (Markdown, HTML).")(report)
