"""Independent read-back of every field_truth location (used by the generator tests).

PDF text inside each bbox comes from pdfium's character boxes (characters at display size,
watermark and stamp lettering, left out), XLSX cells from openpyxl, CSV cells from the csv
module; each must equal the field's `rendered_as` (PDF text whitespace- and NFKC-normalized;
a value split across pages reads as its pieces joined).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl

from packetbench.generator.render.cells import cell_text
from packetbench.reading.pdftext import PdfText
from packetbench.truth.csvread import read_csv
from tests.support.files import read_json


@dataclass(frozen=True)
class Mismatch:
    doc_id: str
    path: str
    expected: str
    got: str
    location: dict[str, Any]


def normalize(text: str) -> str:
    """Whitespace squashed and compatibility forms folded (a ligature reads as its letters)."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def check_document(packet: Path, doc_id: str) -> tuple[int, list[Mismatch]]:
    """(locations checked, mismatches) for one document of `packet`."""
    manifest = read_json(packet / f"manifest_{doc_id}.json")
    fields = read_json(packet / f"field_truth_{doc_id}.json")["fields"]
    file = packet / manifest["file"]
    checked = 0
    bad: list[Mismatch] = []
    if manifest["format"] == "pdf":
        # pdfium's char boxes, read once per page; lettering drawn over the page at display
        # size (watermarks, stamps) is not part of any value (reading.pdftext).
        pieces: dict[str, dict[int, str]] = {}
        with PdfText(file) as pdf:
            by_page: dict[int, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
            for field in fields:
                for loc in field["locations"]:
                    # A scanned page has no text layer to read (text_layer false): OCR reads
                    # it, in the audit and tests/generator/patterns/test_scan.py.
                    if loc.get("text_layer", True):
                        by_page.setdefault(loc["page"], []).append((field, loc))
            for page, located in sorted(by_page.items()):
                with pdf.page(page, sizes=True) as layer:
                    read = layer.bounded_many([loc["bbox"] for _, loc in located], display=False)
                for (field, loc), got in zip(located, read, strict=True):
                    if "fragment" in loc:
                        pieces.setdefault(field["path"], {})[loc["fragment"][0]] = got
                        continue
                    checked += 1
                    if normalize(got) != normalize(field["rendered_as"]):
                        bad.append(Mismatch(doc_id, field["path"], field["rendered_as"], got, loc))
        for field in fields:
            whole = {loc["fragment"][1] for loc in field["locations"] if "fragment" in loc}
            # A value split across a native and a scanned page (scan.mixed) is read whole only
            # by the audit's OCR: its text-layer pieces alone are not the value.
            if field["path"] in pieces and len(pieces[field["path"]]) in whole:
                got = " ".join(text for _, text in sorted(pieces[field["path"]].items()))
                checked += 1
                if normalize(got) != normalize(field["rendered_as"]):
                    bad.append(
                        Mismatch(
                            doc_id, field["path"], field["rendered_as"], got, field["locations"][0]
                        )
                    )
    elif manifest["format"] == "xlsx":
        book = openpyxl.load_workbook(file, data_only=True)  # a formula shows its cached value
        for field in fields:
            for loc in field["locations"]:
                got = cell_text(book[loc["sheet"]][loc["cell"]].value)
                checked += 1
                if got != field["rendered_as"]:
                    bad.append(Mismatch(doc_id, field["path"], field["rendered_as"], got, loc))
        book.close()
    else:
        rows = read_csv(file.read_bytes(), file).rows  # encoding, delimiter and header found
        for field in fields:
            for loc in field["locations"]:
                got = rows[loc["row"]][loc["column"]]
                checked += 1
                if got != field["rendered_as"]:
                    bad.append(Mismatch(doc_id, field["path"], field["rendered_as"], got, loc))
    return checked, bad


def doc_ids(packet: Path) -> list[str]:
    return [d["doc_id"] for d in read_json(packet / "packet_truth.json")["documents"]]
