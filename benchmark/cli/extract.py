"""`packetbench extract`: run a provider over a folder of packets into a run folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def extract(
    packets: Annotated[Path, typer.Option(help="A packet folder, or a folder of packets.")],
    out: Annotated[Path, typer.Option(help="The run folder to write.")],
    provider: Annotated[str, typer.Option(help="Extraction provider (sim = simulator).")] = "sim",
    profile: Annotated[str, typer.Option(help="sim only: perfect, typical or sloppy.")] = (
        "typical"),
    seed: Annotated[int, typer.Option(help="sim only: seed of the injected errors.")] = 0,
    force: Annotated[bool, typer.Option(help="Replace an existing run folder.")] = False,
) -> None:
    """Extract every document of the packets into RUN (one record per document)."""
    # Imported here so `packetbench --help` and other commands start fast.
    from benchmark.extract import extract as run_extraction
    from benchmark.providers import provider_class

    cls = provider_class(provider)
    instance = cls.from_options({"profile": profile, "seed": seed})
    summary = run_extraction(instance, packets, out, force=force)
    label = " (SIMULATED extractor, not a model)" if cls.simulator else ""
    statuses = ", ".join(f"{n} {s}" for s, n in summary.by_status.items()) or "none"
    typer.echo(f"{summary.run}: {summary.written} of {summary.documents} documents written "
               f"[{statuses}] by {provider}{label}")


def register(app: typer.Typer) -> None:
    app.command("extract")(extract)
