"""The `packetbench` command: one typer app; each command calls one library function.

Every module of this package except this one defines ``register(app)`` and is registered in
name order, so adding a command group is adding a module. The project's own exceptions become a
one-line message on stderr and exit code 2 (bad usage or bad input); a check that fails exits
1 from its command. Anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import Annotated

import typer

from benchmark.errors import BenchmarkError
from generator import __version__
from generator.errors import GeneratorError

app = typer.Typer(
    name="packetbench",
    help="Synthetic insurance submission packets, and a benchmark of LLM hallucination on them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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


for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_module.name}").register(app)


def main() -> None:
    try:
        app()
    except (GeneratorError, BenchmarkError) as error:
        typer.echo(f"packetbench: error: {error}", err=True)
        sys.exit(2)
