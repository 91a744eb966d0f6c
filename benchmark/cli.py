"""The `packetbench` command: one typer app; each command calls one library function.

The project's own exceptions become a one-line message on stderr and exit code 2 (bad usage
or bad input). Nothing else is caught: a bug shows its traceback.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from generator import __version__
from generator.cli import generate
from generator.errors import GeneratorError

app = typer.Typer(
    name="packetbench",
    help="Synthetic insurance submission packets, and a benchmark of LLM hallucination on them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("generate")(generate)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"packetbench {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True,
                           help="Print the version and exit.")
    ] = False,
) -> None:
    """packetbench: generate packets, extract, score, report."""


def main() -> None:
    try:
        app()
    except GeneratorError as error:
        typer.echo(f"packetbench: error: {error}", err=True)
        sys.exit(2)
