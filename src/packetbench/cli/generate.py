"""`packetbench generate`: write packets of one or more tiers with their ground truth."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from packetbench.core.progress import bar

if TYPE_CHECKING:
    from packetbench.generator.packet import PacketSummary


def generate(
    tiers: Annotated[
        str, typer.Option(help="Comma-separated difficulty tiers (N1..N5), each written in turn.")
    ],
    out: Annotated[Path, typer.Option(help="Folder that receives one sub-folder per packet.")],
    seed: Annotated[int, typer.Option(help="First seed; packets use seed .. seed+count-1.")] = 1,
    count: Annotated[int, typer.Option(help="Number of packets.")] = 1,
    jobs: Annotated[
        int,
        typer.Option(
            help="Worker processes (local), or CPUs of the Ray instance started for the run "
            "(ray without --ray-address)."
        ),
    ] = 1,
    executor: Annotated[
        str, typer.Option(help="Where packets are written: local (worker processes) or ray.")
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="--executor ray: 'auto' (this machine's cluster) or HOST:PORT; without it a "
            "Ray instance is started for the run."
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Replace packet folders that already exist.")] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue an interrupted generation: keep the packets that are complete "
            "(every file matches its manifest) and write the others.",
        ),
    ] = False,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="Override a tier knob, e.g. --set sov.max_rows=400."),
    ] = None,
) -> None:
    """Generate submission packets with exact ground truth next to every document."""
    from packetbench.core.codes import parse_tiers
    from packetbench.core.executors import make_executor
    from packetbench.generator import generation  # the renderers load only when this command runs
    from packetbench.generator.corpus import read
    from packetbench.generator.tiers import parse_overrides, resolve

    overrides = parse_overrides(set_ or [])
    chosen = parse_tiers(tiers)
    for tier in chosen:  # a bad knob is refused before the first tier is written
        resolve(tier, overrides)
    runner = make_executor(executor, jobs, ray_address)
    started = time.perf_counter()
    summaries: list[PacketSummary] = []
    with bar("generate", f"{','.join(chosen)} x{count}", total=count * len(chosen)) as advance:

        def done(summary: PacketSummary) -> None:
            advance(None)

        for tier in chosen:
            summaries += generation.generate(
                tier,
                seed,
                count,
                out,
                jobs=jobs,
                force=force,
                overrides=overrides,
                resume=resume,
                on_done=done,
                executor=runner,
            )
    elapsed = time.perf_counter() - started
    # Plain lines, never wrapped: scripts read the packet paths from stdout.
    for s in summaries:
        typer.echo(
            f"{s.path}  {s.documents} documents, {s.pdf_pages} PDF pages"
            + ("  (complete, kept)" if s.kept else "")
        )
    written = [s for s in summaries if not s.kept]
    kept = len(summaries) - len(written)
    typer.echo(
        f"wrote {len(written):,} packet(s), {sum(s.documents for s in written):,} documents, "
        f"{sum(s.pdf_pages for s in written):,} PDF pages"
        + (f"; kept {kept:,} complete packet(s)" if kept else "")
        + f" in {elapsed:.1f} s"
    )
    listed = read(out)
    typer.echo(
        f"corpus {out / 'corpus.json'}: {len(listed.entries):,} packet(s), digest {listed.digest}"
    )


def register(app: typer.Typer) -> None:
    app.command("generate", short_help="Write packets with their ground truth.")(generate)
