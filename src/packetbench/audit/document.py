"""Audit one document: every located value and every visible string, read back independently.

Each source of a document's values has its auditor (`sources/`, one interface): PDF pages are
read through their text layer (`sources.textlayer`), or by the pixel rule and OCR
(`sources.scanned`) where the manifest says the text layer cannot be trusted (`sources.pdf`
gives each page to its source); workbooks through openpyxl (`sources.workbook`), CSV files
through the csv module (`sources.csvfile`). Nothing the generator recorded about *how* it drew
is reused: a value is found only when the reader returns its `rendered_as` at its location.
"""

from __future__ import annotations

from typing import Any

from packetbench.audit.result import DocumentAudit
from packetbench.audit.rungs import check_rungs
from packetbench.audit.sources.base import DocumentState, Pages
from packetbench.audit.sources.cells import CellAuditor
from packetbench.audit.sources.csvfile import CsvAuditor
from packetbench.audit.sources.pdf import PageHook, PdfPages
from packetbench.audit.sources.workbook import WorkbookAuditor
from packetbench.audit.truth import check_truth
from packetbench.reading.tesseract import Tesseract
from packetbench.truth.documents import Document

__all__ = ["PageHook", "audit_document"]

# The source a document of each format is read from, but a PDF, whose pages each go to theirs.
CELL_SOURCES: dict[str, type[CellAuditor]] = {"xlsx": WorkbookAuditor, "csv": CsvAuditor}


def audit_document(
    doc: Document,
    *,
    engine: Tesseract | None = None,
    on_page: PageHook | None = None,
    packet: dict[str, Any] | None = None,
    calibrate: set[int] | None = None,
) -> DocumentAudit:
    """Read back every located value and visible string of `doc`; `engine` enables OCR;
    `packet` (its packet_truth.json, with `engine`) judges scanned pages by pixels first;
    `calibrate`, the scanned pages of `doc` read by OCR as well to calibrate that rule (None:
    the pages `pixels.sampled` draws)."""
    state = DocumentState(doc, packet, calibrate)
    state.audit.findings.extend(check_truth(doc))
    state.audit.findings.extend(check_rungs(doc))
    state.check_values()
    if doc.format == "pdf":
        PdfPages(state).check(engine, on_page)
    else:
        strings = state.strings_by_page()
        CELL_SOURCES[doc.format](state).check(Pages(sorted(strings), strings=strings))
    return state.audit
