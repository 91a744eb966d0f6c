"""`packetbench leaderboard`: rank scored runs of one split of a release, or check a
submission against a release."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from packetbench.cli._options import finite


def leaderboard(
    runs: Annotated[
        list[Path] | None,
        typer.Argument(metavar="RUN", show_default=False, help="Scored run folders."),
    ] = None,
    release: Annotated[
        Path | None, typer.Option(help="The release folder the runs are checked against.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Where to write leaderboard.md, .html and .csv.", metavar="OUT"),
    ] = None,
    check: Annotated[
        Path | None,
        typer.Option(
            help="Check a submission (a run folder, an inspect_ai log, or a folder with "
            "submission.toml) against the release instead.",
            metavar="SUBMISSION",
        ),
    ] = None,
    rank_by: Annotated[
        str,
        typer.Option(
            help="The rate rows are ranked by: accuracy (value accuracy over the whole split) "
            "or a headline rate (halluc_numbers, over_refusal...)."
        ),
    ] = "accuracy",
    alpha: Annotated[
        float, typer.Option(callback=finite, help="Significance level after Holm's correction.")
    ] = 0.05,
    force: Annotated[bool, typer.Option(help="Replace the leaderboard files in OUT.")] = False,
) -> None:
    """One row per run on one split of a release: value accuracy, hallucination rates,
    abstention, grounding and confidence where present, each with its 95 % interval;
    documents scored; cost per page and per correct value; sign tests against the leader
    (Holm). Every run is checked against the release's committed files first.

    With --check SUBMISSION: exit 0 when the submission was made on the release's packets, 1
    when it was not (another release, other packets, part of a split), 2 when it cannot be
    read. Otherwise exit 0 when written, 2 on bad input (a run made on other packets)."""
    from packetbench.benchmark.leaderboard.submission import require_release
    from packetbench.core.errors import UsageError

    folder = require_release(release)
    if check is not None:
        if runs or out is not None:
            raise UsageError("--check takes one submission; give no RUN and no --out with it")
        _check(check, folder)
        return
    if not runs:
        raise UsageError("RUN: give at least one scored run folder (or --check SUBMISSION)")
    if out is None:
        raise UsageError("--out: missing (where to write the leaderboard)")
    from packetbench.benchmark.leaderboard.board import build_board
    from packetbench.benchmark.leaderboard.render import check_free, write_board

    check_free(out, force)
    board = build_board(list(runs), folder, rank_by, alpha)
    written = write_board(board, out, force)
    typer.echo(
        f"leaderboard of {len(board.rows)} run(s) on {board.release.title}, split "
        f"{board.split}: " + ", ".join(str(p) for p in written.files)
    )


def _check(submission: Path, release: Path) -> None:
    from packetbench.benchmark.leaderboard.submission import check_submission
    from packetbench.benchmark.release.matching import NotOnRelease

    try:
        found = check_submission(submission, release)
    except NotOnRelease as error:
        typer.echo(f"packetbench: failed: {error}", err=True)
        raise typer.Exit(1) from None
    article = "an" if found.what[0] in "aeiou" else "a"
    typer.echo(
        f"{submission}: {article} {found.what} made on release {found.release_title} (digest "
        f"{found.release_digest[:12]}), split {found.match.split}: "
        f"{len(found.match.folders)} packets, {found.match.documents} documents, every file "
        "as committed"
    )


def register(app: typer.Typer) -> None:
    app.command("leaderboard", short_help="Rank runs on a release; check a submission.")(
        leaderboard
    )
