"""`packetbench sql`: run SQL over the results databases of one or more runs."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

FORMATS = ("table", "csv", "json")


def sql(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN",
            show_default=False,
            help="Scored run folders (with results.duckdb); a repeated run is its repeats.",
        ),
    ],
    query: Annotated[
        str,
        typer.Argument(
            metavar="QUERY",
            show_default=False,
            help="SQL over the tables runs, documents, fields, claims, consistency_flags, "
            "patterns and the metric views (headline, slices, catalog, ...).",
        ),
    ],
    output: Annotated[
        str, typer.Option("--format", help="table, csv or json (one object per row).")
    ] = "table",
) -> None:
    """Run QUERY, one SELECT statement, over the results of one or more runs (read-only:
    no other statement, and no file but the runs' own scores/ Parquet files).

    Every metric the reports print is a view here, defined in benchmark/metrics/*.sql:
    `packetbench sql RUN "SELECT * FROM headline"`; list them with
    `packetbench sql RUN "SELECT * FROM catalog"`.
    """
    from packetbench.benchmark.results.query import open_runs
    from packetbench.benchmark.runs import expand
    from packetbench.core.errors import UsageError

    if output not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)} (got {output!r})")
    # A repeated run (--repeats) is its repeats, stacked: run_id tells them apart.
    with open_runs(expand(runs)[0], sandbox=True) as opened:
        columns, rows = opened.query(query)
    _print(columns, [dict(zip(columns, row, strict=True)) for row in rows], output)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _print(columns: list[str], rows: list[dict[str, Any]], output: str) -> None:
    if output == "json":
        for row in rows:
            typer.echo(json.dumps(row, default=str, ensure_ascii=False))
        return
    if output == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([[_text(row[c]) for c in columns] for row in rows])
        typer.echo(buffer.getvalue(), nl=False)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False)
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*[_text(row[c]) for c in columns])
    Console(width=None if sys.stdout.isatty() else 200, highlight=False).print(table)
    typer.echo(f"{len(rows)} row(s)")


def register(app: typer.Typer) -> None:
    app.command("sql", short_help="Query the results of runs with SQL.")(sql)
