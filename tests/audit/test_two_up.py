"""The audit of a document printed two pages to a sheet (`scan.two_up`): every location is on
a sheet of the file, so the audit's OCR reads each value there and shows each blotted one
unreadable (`--ocr-mode full`); pixel mode leaves the sheets to OCR, saying why, and reaches
the same verdict (the pixel rule's clean side is a native page under one map; a sheet is two
pages under two, `pixels.scan_details`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

from packetbench.audit import audit_packets
from packetbench.generator.packet import build_packet
from packetbench.generator.tiers import resolve
from tests.support.ocr import needs_tesseract
from tests.support.rendering import Rendered, write

DOC = "loss_run_pdf"
SEED = 1  # N3: a loss run of 5 pages, on 3 sheets


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    overrides: dict[str, Any] = {
        "documents": (DOC,),
        "lines": ("property", "gl", "auto", "wc"),
        "patterns.only": ("scan.two_up", "overlay.blot"),
    }
    return build_packet("N3", SEED, resolve("N3", overrides)).files


@pytest.fixture
def packet(files: dict[str, bytes], tmp_path: Path) -> Path:
    return write(Rendered(files), tmp_path / f"N3-{SEED:06d}")


def _illegible(rendered: Rendered) -> set[str]:
    return {entry["path"] for entry in rendered.universe(DOC)["illegible"]}


@needs_tesseract
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["full", "pixel"])
def test_the_audit_reads_the_sheets_and_confirms_the_blots(
    files: dict[str, bytes], packet: Path, mode: str
) -> None:
    rendered = Rendered(files)
    illegible = _illegible(rendered)
    assert illegible and rendered.manifest(DOC)["pages"] == 3
    result = audit_packets([packet], ocr=True, ocr_mode=mode)
    assert result.ok, [f.to_json() for f in result.findings()]
    totals = result.totals()
    assert totals["pdf_pages"] == 3
    assert totals["illegible_values_confirmed"] == len(illegible)
    (level,) = totals["scans"]
    assert level == "two_up"
    fields = totals["scans"]["two_up"]["fields"]
    assert fields["checked"] == totals["fields_checked"] > 500
    assert fields["found"] >= 0.9 * fields["checked"]
    if mode == "pixel":
        pixels = totals["pixels"]
        assert pixels["pages"] == 0 and "two_up" in pixels["unavailable"]


def test_without_ocr_the_sheets_are_named_not_checked(
    files: dict[str, bytes], packet: Path
) -> None:
    """The fast tier's check (no OCR): the file holds three landscape sheets with no text
    layer, every location lies on one of them, and the audit without OCR vouches for none of
    it: every located value is counted as needing OCR, the three sheets named, nothing else
    found."""
    with pdfium.PdfDocument(packet / f"{DOC}.pdf") as pdf:
        sizes = [pdf[i].get_size() for i in range(len(pdf))]
        assert sizes == [(792.0, 612.0)] * 3
        assert all(pdf[i].get_textpage().count_chars() == 0 for i in range(3))
    fields = json.loads((packet / f"field_truth_{DOC}.json").read_text())["fields"]
    locations = [loc for entry in fields for loc in entry["locations"]]
    assert len(locations) > 500
    for loc in locations:
        x0, y0, x1, y1 = loc["bbox"]
        assert 1 <= loc["page"] <= 3 and 0 <= x0 < x1 <= 792 and 0 <= y0 < y1 <= 612, loc
    result = audit_packets([packet])
    (finding,) = result.findings()
    assert finding.problem == "not_checked" and "on page(s) [1, 2, 3] need OCR" in finding.detail
    totals = result.totals()
    # (a blotted value is proven unreadable by its truth, not left to OCR)
    blotted = [loc for loc in locations if loc.get("legible") is False]
    assert 0 < len(blotted) <= len(_illegible(Rendered(files)))
    assert totals["fields_checked"] == 0
    assert totals["fields_not_checked"] == len(locations) - len(blotted)
