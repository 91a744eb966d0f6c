"""`packetbench view`: browse runs, their truth and the model's output, page by page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def view(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN",
            show_default=False,
            help="Run folders (scored or not, finished or still running).",
        ),
    ],
    packets: Annotated[
        Path | None,
        typer.Option(help="The packets the runs were extracted from (default: run.json's)."),
    ] = None,
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port on 127.0.0.1 (0: any free port).")
    ] = 8765,
    out: Annotated[
        Path | None,
        typer.Option(help="Write the viewer as static files into this folder instead."),
    ] = None,
    force: Annotated[bool, typer.Option(help="With --out: replace an earlier export.")] = False,
    cache: Annotated[
        Path | None,
        typer.Option(
            help="Where page images, document indexes and the hashes of the files checked "
            "at start are cached (default: $PACKETBENCH_PAGE_CACHE or "
            "~/.cache/packetbench/pages)."
        ),
    ] = None,
) -> None:
    """Serve a read-only viewer of RUN... on 127.0.0.1, or write it as static files (--out).

    A run's overview and its documents worst first; each document's pages with the box of
    every true value coloured by the run's outcome for it (correct, wrong, omitted,
    abstained, hallucinated, stale, guessed), the model's value beside the truth, its
    claims, and the patterns and hidden text applied to its pages. Two runs compare side by
    side. Stop the server with Ctrl-C.

    Before it serves, each packet's packet_truth.json is checked against the run (packets
    regenerated or of another corpus: one line, exit 2). The documents' files are checked
    as `score` checks them while it serves, each before it is shown and the rest in the
    background: one that differs is refused.
    """
    from packetbench.benchmark.viewer.pages import Pages, default_cache
    from packetbench.benchmark.viewer.source import open_runs

    pages = Pages(cache or default_cache())
    pages.check_cache()
    if out is not None:
        from packetbench.benchmark.viewer.export import check_target, export
        from packetbench.core.progress import bar

        check_target(out, force)  # before the runs are read: a refusal costs nothing
        sources = open_runs(runs, packets)
        total = sum(len(s.documents) for s in sources)
        try:
            with bar("view --out", "documents", total) as advance:
                done = export(sources, pages, out, force, on_document=advance)
        finally:
            for source in sources:
                source.close()
        typer.echo(
            f"wrote {done.folder}/index.html: {done.runs} run(s), {done.documents:,} documents, "
            f"{done.pages:,} page images"
        )
        return
    from packetbench.benchmark.viewer.app import Viewer, bind, serve

    sock = bind(port)  # a port in use is refused before the runs are read
    try:
        # Each packet's packet_truth.json is checked here; the documents' files as the
        # server runs, each document before it is shown.
        sources = open_runs(runs, packets, check_files=False, cache=pages.cache)
    except BaseException:
        sock.close()
        raise
    try:
        viewer = Viewer(sources, pages)
    except BaseException:
        sock.close()
        raise

    def ready(url: str) -> None:
        typer.echo(f"packetbench view: serving {url} (Ctrl-C to stop)")

    serve(viewer, sock, ready)  # closes the viewer and the socket however it ends


def register(app: typer.Typer) -> None:
    app.command("view", short_help="Browse a run document by document, page by page.")(view)
