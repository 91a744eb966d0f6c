"""`packetbench difficulty`: the difficulty card of a corpus, ours or imported."""

from __future__ import annotations

from typing import Annotated

import typer

from packetbench.cli import _options as _o


def difficulty(
    packets: _o.PacketFolders = None,
    ocr_sample: Annotated[
        int,
        typer.Option(
            help="Pages per tier read by the naive OCR baseline (seeded sample; 0: none)."
        ),
    ] = 4,
    ocr_sample_seed: Annotated[int, typer.Option(help="Seed of the --ocr-sample draw.")] = 0,
    ocr_sample_per_mode: Annotated[
        int,
        typer.Option(
            help="Read each capture mode of a tier on at least this many of its pages, for the "
            "mode rows alone (the tier row stays the --ocr-sample's; 0: no more pages)."
        ),
    ] = 0,
    readers: Annotated[
        str,
        typer.Option(
            help="Careful readers of the sampled pages, beside the naive and restored OCR: "
            "careful_96, careful_110, careful_150, careful_300 (Tesseract after turning, "
            "deskewing, evening out, on the page rendered at that dpi), ppocr_96, ppocr_110, "
            "ppocr_150, ppocr_300 (PP-OCRv4, the audit's second reader), or the groups careful, "
            "ppocr, all; comma-separated, 'none' for none."
        ),
    ] = "careful",
    jobs: Annotated[
        int,
        typer.Option(
            help="Worker processes: packets measured and sampled pages read at once (the card "
            "is the same whatever their number)."
        ),
    ] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Print the difficulty card of the packets per tier: documents and PDF pages per packet,
    image-page share (read from the PDFs), share of located values absent from the text
    layer, what a naive OCR (Tesseract on the whole page, no restoration) recovers of the
    legible values on a sample of pages beside careful readers (--readers), the share of
    legible values still legible at each delivered resolution (90, 96, 110, 150 dpi),
    conflicts and illegible values (damaged past reading, expecting abstention) per packet,
    pattern uses per document, largest table (rows). Exit 2 on bad input."""
    import json

    from packetbench.benchmark.difficulty import difficulty_card, reader_names, render_table

    chosen = reader_names(readers)
    folders = _o.packet_folders("difficulty", packets)
    card = difficulty_card(
        folders,
        ocr_sample,
        ocr_sample_seed,
        progress=True,
        jobs=jobs,
        readers=chosen,
        ocr_per_mode=ocr_sample_per_mode,
    )
    if as_json:
        typer.echo(json.dumps(card.as_json(), indent=2))
        return
    typer.echo(render_table(card))


def register(app: typer.Typer) -> None:
    app.command("difficulty", short_help="How hard a corpus is to read, per tier.")(difficulty)
