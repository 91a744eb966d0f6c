"""Independent read-back of every field_truth location (used by the generator tests).

PDF text inside each bbox comes from pypdfium2, XLSX cells from openpyxl, CSV cells from the
csv module; each must equal the field's `rendered_as` (PDF text whitespace-normalized).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pypdfium2 as pdfium

from generator.render.cells import cell_text


@dataclass(frozen=True)
class Mismatch:
    doc_id: str
    path: str
    expected: str
    got: str
    location: dict[str, Any]


def normalize(text: str) -> str:
    return " ".join(text.split())


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def check_document(packet: Path, doc_id: str) -> tuple[int, list[Mismatch]]:
    """(locations checked, mismatches) for one document of `packet`."""
    manifest = read_json(packet / f"manifest_{doc_id}.json")
    fields = read_json(packet / f"field_truth_{doc_id}.json")["fields"]
    file = packet / manifest["file"]
    checked = 0
    bad: list[Mismatch] = []
    if manifest["format"] == "pdf":
        pdf = pdfium.PdfDocument(file)
        pages: dict[int, Any] = {}
        try:
            for field in fields:
                for loc in field["locations"]:
                    page = loc["page"]
                    if page not in pages:
                        pages[page] = pdf[page - 1].get_textpage()
                    got = pages[page].get_text_bounded(*loc["bbox"])
                    checked += 1
                    if normalize(got) != normalize(field["rendered_as"]):
                        bad.append(Mismatch(doc_id, field["path"], field["rendered_as"], got, loc))
        finally:
            for textpage in pages.values():
                textpage.close()
            pdf.close()
    elif manifest["format"] == "xlsx":
        book = openpyxl.load_workbook(file)
        for field in fields:
            for loc in field["locations"]:
                got = cell_text(book[loc["sheet"]][loc["cell"]].value)
                checked += 1
                if got != field["rendered_as"]:
                    bad.append(Mismatch(doc_id, field["path"], field["rendered_as"], got, loc))
        book.close()
    else:
        rows = list(csv.reader(io.StringIO(file.read_text(encoding="utf-8"), newline="")))
        for field in fields:
            for loc in field["locations"]:
                got = rows[loc["row"]][loc["column"]]
                checked += 1
                if got != field["rendered_as"]:
                    bad.append(Mismatch(doc_id, field["path"], field["rendered_as"], got, loc))
    return checked, bad


def doc_ids(packet: Path) -> list[str]:
    return [d["doc_id"] for d in read_json(packet / "packet_truth.json")["documents"]]
