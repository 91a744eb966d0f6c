#!/usr/bin/env python3
"""A real offline baseline: the PDF text layer (pypdfium2), mapped to a schema by printed labels.

This is a plain rules system, the kind a team writes before it reaches for a model: it reads
the text runs pypdfium2 finds on each page and fills the fields of three document types by
the labels printed beside them (ACORD 125, the statement of values, the loss run), with the
rules it shares with `ppocr_baseline.py` (`baseline_fields.py`). It was written against the
layout of the documents, never against their truth files, and it is not tuned. Its errors are
what the benchmark measures in a real system.

As a command-provider program (docs/own-system.md):

    packetbench extract --provider command --packets PACKETS --out RUN \\
        --command "python examples/textlayer_baseline.py {file} {schema}" \\
        --doc-types acord_125,sov,loss_run --formats pdf

It prints one JSON answer on stdout; a document type it has no rules for, or a file that is
not a PDF, exits with status 2 (that document's error record). `--predictions PACKETS DIR`
writes the same answers as a predictions folder (`packetbench import predictions DIR`)
instead. Needs only pypdfium2.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2 as pdfium

# The shared rules sit beside this file: found however it is run (as a script, whose folder is
# on the path, or loaded by runpy or a plug-in, whose is not).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_fields import READERS, Cell, main

__all__ = ["READERS", "VERSION", "read_pdf"]  # what a plug-in takes (docs/own-system.md)

VERSION = "textlayer-baseline 1.0"


def read_pdf(path: str) -> tuple[list[str], list[Cell]]:
    """The text lines of every page, and every text run with its box."""
    pdf = pdfium.PdfDocument(path)
    lines: list[str] = []
    cells: list[Cell] = []
    for number in range(len(pdf)):
        text = pdf[number].get_textpage()
        lines.extend(line.strip() for line in text.get_text_range().splitlines() if line.strip())
        for i in range(text.count_rects()):
            left, bottom, right, top = text.get_rect(i)
            found = text.get_text_bounded(left, bottom, right, top)
            if found.strip():
                cells.append(Cell(number, left, bottom, right, top, found))
    return lines, cells


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], VERSION, read_pdf))
