"""`packetbench generate` (the command itself lives with the generator)."""

import typer

from generator.cli import generate


def register(app: typer.Typer) -> None:
    app.command("generate")(generate)
