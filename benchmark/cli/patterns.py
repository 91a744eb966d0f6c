"""`packetbench patterns` (the catalogue lives with the generator)."""

import typer

from generator.cli import patterns


def register(app: typer.Typer) -> None:
    app.command("patterns")(patterns)
