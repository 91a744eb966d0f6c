#!/usr/bin/env python3
"""A real offline baseline: PP-OCR on rendered pages, mapped to a schema by printed labels.

It renders each PDF page with pypdfium2 at 150 dpi (it never reads the text layer) and reads
the image with PP-OCRv4 as packaged by `rapidocr-onnxruntime` (detection, line orientation,
recognition; the models ship inside the package, nothing is downloaded). The lines it reads,
each with its box, go to the same label-to-field rules as `textlayer_baseline.py`
(`baseline_fields.py`): the two programs differ only in how they read a page. It was written
against the layout of the documents, never against their truth files, and it is not tuned:
what the engine misreads (a dropped space, a checkbox's mark it does not see, a digit) is
answered as read.

As a command-provider program (docs/own-system.md):

    packetbench extract --provider command --packets PACKETS --out RUN \\
        --command "python examples/ppocr_baseline.py {file} {schema}" \\
        --doc-types acord_125,sov,loss_run --formats pdf --concurrency 2

It prints one JSON answer on stdout; a document type it has no rules for, or a file that is
not a PDF (a workbook or CSV has no page to see), exits with status 2 (that document's error
record). `--predictions PACKETS DIR` writes the same answers as a predictions folder
(`packetbench import predictions DIR`) instead. The engine runs on one thread: the same page
reads the same every run, and `--concurrency` decides how many cores the run takes.
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

# The shared rules sit beside this file: found however it is run (as a script, or by runpy).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_fields import READERS, Cell, main

__all__ = ["READERS", "VERSION", "read_pdf"]

VERSION = f"ppocr-baseline 1.0 (PP-OCRv4, rapidocr-onnxruntime {version('rapidocr-onnxruntime')})"
DPI = 150
POINTS = 72 / DPI  # one pixel of the rendered page, in PDF points


def engine() -> Any:
    # onnxruntime on Linux starts a telemetry client unless this is set when it loads: an
    # offline baseline sends nothing anywhere.
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    from rapidocr_onnxruntime import RapidOCR

    return RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)


def read_pdf(path: str) -> tuple[list[str], list[Cell]]:
    """Every line PP-OCR reads on every page, with its box (PDF points, y upwards), and the
    lines in reading order."""
    import numpy as np  # here: a refusal or --version answers without loading it

    ocr = engine()
    pdf = pdfium.PdfDocument(path)
    lines: list[str] = []
    cells: list[Cell] = []
    for number in range(len(pdf)):
        page = pdf[number]
        height = page.get_size()[1]
        gray = page.render(scale=DPI / 72, grayscale=True).to_numpy()
        if gray.ndim == 3:
            gray = gray[:, :, 0]
        found, _ = ocr(np.ascontiguousarray(np.repeat(gray[:, :, None], 3, axis=2)))
        read: list[Cell] = []
        for corners, text, _confidence in found or []:
            xs = [float(x) for x, _ in corners]
            ys = [float(y) for _, y in corners]
            if text.strip():
                read.append(
                    Cell(number, min(xs) * POINTS, height - max(ys) * POINTS,
                         max(xs) * POINTS, height - min(ys) * POINTS, text)
                )  # fmt: skip
        cells.extend(read)
        lines.extend(cell.text for cell in reading_order(read))
    return lines, cells


def reading_order(cells: list[Cell]) -> list[Cell]:
    """The page's lines top to bottom, left to right, except that a line is followed by the
    lines stacked under it (same left edge, no gap larger than a line): a form's label then
    its value, a paragraph's lines in turn. A text layer hands them over in that order; an
    image has only positions."""
    todo = sorted(cells, key=lambda c: (-c.top, c.left))
    done: set[int] = set()
    ordered: list[Cell] = []
    for start in range(len(todo)):
        at = start
        while at not in done:
            done.add(at)
            cell = todo[at]
            ordered.append(cell)
            tall = cell.top - cell.bottom
            under = [
                i
                for i, other in enumerate(todo)
                if i not in done
                and abs(other.left - cell.left) <= tall / 2
                and cell.bottom - tall <= other.top <= cell.bottom + tall / 2
            ]
            if not under:
                break
            at = min(under, key=lambda i: -todo[i].top)
    return ordered


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], VERSION, read_pdf))
