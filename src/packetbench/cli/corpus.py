"""`packetbench corpus verify`: check a corpus folder against corpus.json and corpus.lock."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

corpus_app = typer.Typer(
    help="Corpora: folders of packets listed in corpus.json.", no_args_is_help=True
)


@corpus_app.command("verify", short_help="Check every file of a corpus against its lock.")
def verify(
    folder: Annotated[
        Path, typer.Argument(metavar="FOLDER", help="The corpus folder (with corpus.json).")
    ],
) -> None:
    """Check every file of the corpus against corpus.lock and every packet against
    corpus.json. Exit 0 when all match, 1 naming the first mismatch, 2 when there is no
    corpus.json to check against."""
    from packetbench.generator.corpus import CorpusMismatch
    from packetbench.generator.corpus import verify as check

    try:
        found = check(folder)
    except CorpusMismatch as mismatch:
        typer.echo(f"packetbench: corpus mismatch: {mismatch}", err=True)
        raise typer.Exit(1) from None
    typer.echo(
        f"{folder}: {len(found.entries):,} packet(s), "
        f"{sum(e.files for e in found.entries):,} files match corpus.json; "
        f"digest {found.digest}"
    )


def register(app: typer.Typer) -> None:
    app.add_typer(
        corpus_app, name="corpus", short_help="Check a corpus of packets against its lock."
    )
