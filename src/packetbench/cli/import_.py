"""`packetbench import`: published extraction benchmarks as packets and runs of ours."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

import_app = typer.Typer(
    help="Import a published extraction benchmark, or predictions of your own.",
    no_args_is_help=True,
)


@import_app.command("nightmare", short_help="The reference corpus and its published runs, as ours.")
def nightmare(
    path: Annotated[
        Path, typer.Argument(metavar="FOLDER", help="The reference corpus (its clone's root).")
    ],
    out: Annotated[Path, typer.Option(help="Where to write packets/, runs/ and import.json.")],
    force: Annotated[bool, typer.Option(help="Replace an earlier import in OUT.")] = False,
    score: Annotated[bool, typer.Option(help="Score every imported run.")] = False,
    partial: Annotated[
        bool,
        typer.Option(
            "--partial",
            help="Import what is whole when a packet has no ground truth or a published "
            "output is not JSON (they are refused otherwise); what is skipped is listed.",
        ),
    ] = False,
    reconcile: Annotated[
        bool,
        typer.Option(
            help="Score every run and reconcile our rates with the corpus's published ones "
            "(writes OUT/reconciliation.json and OUT/reconciliation.md)."
        ),
    ] = False,
    invalid: Annotated[
        str,
        typer.Option(
            "--invalid",
            help="How --score and --reconcile score a schema-invalid output: exclude or "
            "salvage (as packetbench score --invalid).",
        ),
    ] = "exclude",
) -> None:
    """Import the reference corpus at PATH: one packet per corpus packet (its files, its own
    26 schemas as the `nightmare` schema namespace, its truth and rendered elements in our
    contract) and one run folder per cohort. Every leaf that could not be mapped is counted
    and listed in OUT/import.json.

    Exit 0 when imported (and, with --reconcile, nothing is left unexplained), 1 when the
    reconciliation leaves claims unexplained, 2 on bad input."""
    from packetbench.benchmark.importers.nightmare.importer import import_corpus
    from packetbench.benchmark.score.scorer import INVALID_POLICIES
    from packetbench.core.errors import UsageError

    if invalid not in INVALID_POLICIES:  # before anything is imported
        raise UsageError(
            f"--invalid must be one of {', '.join(INVALID_POLICIES)} (got {invalid!r})"
        )
    started = time.perf_counter()
    result = import_corpus(path, out, force, partial=partial, progress=True)
    records: dict[str, int] = {}
    for by_status in result.cohorts.values():
        for status, count in by_status.items():
            records[status] = records.get(status, 0) + count
    statuses = ", ".join(f"{n:,} {s}" for s, n in sorted(records.items()))
    leaves = result.report_leaves()
    typer.echo(
        f"imported {len(result.packets)} packets, {result.documents} documents, "
        f"{len(result.cohorts)} cohorts ({sum(records.values()):,} records: {statuses}) "
        f"into {out} in {time.perf_counter() - started:.1f} s"
    )
    typer.echo(
        f"leaves: {leaves['mapped']:,} mapped, {leaves['unmapped']:,} unmapped (listed in "
        f"{out / 'import.json'}), {leaves['metadata']:,} metadata"
    )
    for line in result.skipped:
        typer.echo(f"skipped (--partial): {line}")
    if not (score or reconcile):
        return
    from packetbench.benchmark.importers.nightmare.scoring import score_all

    started = time.perf_counter()
    scored = score_all(out, invalid, progress=True)
    typer.echo(f"scored {len(scored)} runs in {time.perf_counter() - started:.1f} s")
    if not reconcile:
        return
    from packetbench.benchmark.importers.nightmare.reconcile import reconcile as run_reconcile

    started = time.perf_counter()
    outcome = run_reconcile(path, out)
    typer.echo(outcome.table())
    typer.echo(
        f"reconciliation: {out / 'reconciliation.md'} in {time.perf_counter() - started:.1f} s"
    )
    if outcome.unexplained:
        typer.echo(
            f"packetbench: failed: {outcome.unexplained:,} claims judged differently "
            "are not explained by any named cause",
            err=True,
        )
        raise typer.Exit(1)


@import_app.command("inspect", short_help="An inspect_ai log of packetbench/extract, as a run.")
def inspect_log(
    log: Annotated[
        Path, typer.Argument(metavar="LOG", help="The inspect_ai log (.eval or .json).")
    ],
    packets: Annotated[
        Path, typer.Option(help="The packets the log's task was run on (checked by sha256).")
    ],
    out: Annotated[Path, typer.Option(help="The run folder to write.")],
    force: Annotated[bool, typer.Option(help="Replace a run already in OUT.")] = False,
) -> None:
    """Turn the log of an `inspect eval packetbench/extract` run into a packetbench run
    folder: one extraction record per sample, judged as `packetbench extract` judges an
    answer, so that score, report, compare and view read it. Needs the inspect extra
    (from a clone: pip install -e '.[inspect]').

    Exit 0 when written, 2 on bad input (a file that is not such a log, packets that are
    not the log's)."""
    from packetbench.core.errors import UsageError

    try:
        from packetbench.integrations.inspect.convert import import_log
    except ImportError as error:
        raise UsageError(
            f"import inspect needs inspect_ai ({error}); install the extra: "
            "pip install -e '.[inspect]' from a clone (pip install 'packetbench[inspect]' "
            "from an index)"
        ) from None
    started = time.perf_counter()
    result = import_log(log, packets, out, force, progress=True)
    statuses = ", ".join(f"{n:,} {s}" for s, n in result.by_status.items())
    typer.echo(
        f"imported {result.documents} documents of {result.model} ({statuses}) into {out} "
        f"in {time.perf_counter() - started:.1f} s; score it with: packetbench score {out} "
        f"--packets {packets}"
    )


@import_app.command("predictions", short_help="A folder of one JSON answer per document, as a run.")
def predictions(
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR",
            help="The predictions: DIR/<packet id>/<document id>.json, one answer each.",
        ),
    ],
    packets: Annotated[Path, typer.Option(help="The packets the answers are of.")],
    out: Annotated[Path, typer.Option(help="The run folder to write.")],
    name: Annotated[
        str | None,
        typer.Option(help="The system's name on reports and boards (default: DIR's name)."),
    ] = None,
    force: Annotated[bool, typer.Option(help="Replace a run already in OUT.")] = False,
    doc_types: Annotated[
        str | None,
        typer.Option(help="Expect answers only to documents of these types, e.g. sov,loss_run."),
    ] = None,
    formats: Annotated[
        str | None,
        typer.Option(help="Expect answers only to documents in these formats: pdf, xlsx, csv."),
    ] = None,
) -> None:
    """Turn a folder of predictions, made by any system anywhere, into a run folder that
    score, report, compare, view and leaderboard read. Each answer is checked against its
    document's schema as `extract` checks one (ok or invalid, with the reason); documents
    without an answer are missing (no record), entries that answer no document are extra;
    symlinks and other non-regular files are never read. The layout is
    docs/schemas/predictions.schema.json.

    Exit 0 when written, 2 when DIR is not a folder of answers to the packets at all."""
    from packetbench.benchmark.importers.predictions import import_predictions
    from packetbench.benchmark.selection import Selection

    selection = Selection.parse(None, doc_types, formats, None)
    started = time.perf_counter()
    result = import_predictions(folder, packets, out, name=name, force=force, selection=selection)
    statuses = ", ".join(f"{n:,} {s}" for s, n in result.by_status.items())
    written = sum(result.by_status.values())
    typer.echo(
        f"imported {written:,} of {result.documents:,} documents ({statuses}) into {out} in "
        f"{time.perf_counter() - started:.1f} s; {len(result.missing):,} missing, "
        f"{len(result.extra):,} extra, {len(result.invalid):,} invalid"
    )
    for label, items in (
        ("missing", result.missing),
        ("extra", result.extra),
        ("invalid", result.invalid),
        ("not read", result.refused),
    ):
        for item in items[:20]:
            typer.echo(f"{label}: {item}")
        if len(items) > 20:
            typer.echo(f"{label}: ... and {len(items) - 20:,} more")
    typer.echo(f"score it with: packetbench score {out} --packets {packets}")


def register(app: typer.Typer) -> None:
    app.add_typer(import_app, name="import", short_help="Bring in runs and corpora made elsewhere.")
