"""The fast text-layer reader answers exactly what pdfium's get_text_bounded answers."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

from packetbench.core.errors import BadInput
from packetbench.reading.pdftext import PdfText


def _pdf_documents(packets: list[Path]) -> list[tuple[Path, list[dict[str, Any]]]]:
    out = []
    for packet in packets:
        for manifest_path in sorted(packet.glob("manifest_*.json")):
            manifest = json.loads(manifest_path.read_text())
            if manifest["format"] == "pdf":
                fields = json.loads(
                    (packet / f"field_truth_{manifest['doc_id']}.json").read_text()
                )["fields"]
                out.append((packet / manifest["file"], fields))
    return out


@pytest.mark.slow
def test_every_location_of_the_suite_reads_as_get_text_bounded(
    canonical_packets: list[Path],
) -> None:
    checked = 0
    for file, fields in _pdf_documents(canonical_packets):
        by_page: dict[int, list[list[float]]] = defaultdict(list)
        for entry in fields:
            for location in entry["locations"]:
                by_page[location["page"]].append(location["bbox"])
        reference = pdfium.PdfDocument(file)
        with PdfText(file) as pdf:
            for number, bboxes in sorted(by_page.items()):
                with pdf.page(number) as layer:
                    fast = layer.bounded_many(bboxes)
                textpage = reference[number - 1].get_textpage()
                slow = [textpage.get_text_bounded(*bbox) for bbox in bboxes]
                textpage.close()
                # Exact strings, trailing spaces and line breaks included.
                assert fast == slow, f"{file.name} page {number}"
                checked += len(bboxes)
        reference.close()
    assert checked > 20_000


def _attacked_text_layer(packets: list[Path]) -> str:
    """The PDF of the hardest packet that has one whose text layer an attack reshaped (not
    scanned: most N4-N5 pages are), the one with the most pages."""
    for packet in reversed(packets):
        candidates = []
        for manifest_path in sorted(packet.glob("manifest_*.json")):
            manifest = json.loads(manifest_path.read_text())
            applied = {p["id"].split(".")[0] for p in manifest["patterns_applied"]}
            if manifest["format"] == "pdf" and "textlayer" in applied and "scan" not in applied:
                candidates.append((manifest["pages"], manifest["file"]))
        if candidates:
            return f"{packet.name}/{max(candidates)[1]}"
    raise AssertionError("no packet of the suite has a native PDF with a text-layer attack")


@pytest.mark.parametrize(
    "doc", ["N1-000001/acord_125.pdf", "N3-000001/loss_run_pdf.pdf", "attacked"]
)
def test_arbitrary_rectangles_read_as_get_text_bounded(
    canonical_packets: list[Path], doc: str
) -> None:
    """Rectangles spanning several objects and lines take pdfium's full joining rules."""
    if doc == "attacked":
        doc = _attacked_text_layer(canonical_packets)
    file = canonical_packets[0].parent / doc
    rng = random.Random(doc)
    reference = pdfium.PdfDocument(file)
    multi_line = 0
    with PdfText(file) as pdf:
        for number in range(1, pdf.pages + 1):
            width, height = reference[number - 1].get_size()
            rects = []
            for _ in range(300):
                x, y = rng.uniform(-20, width), rng.uniform(-20, height)
                rects.append([x, y, x + rng.uniform(0.5, 400), y + rng.uniform(0.5, 80)])
            rects.append([rects[0][2], rects[0][3], rects[0][0], rects[0][1]])  # reversed
            rects.append([0, 0, width, height])  # the whole page
            with pdf.page(number) as layer:
                fast = layer.bounded_many(rects)
            textpage = reference[number - 1].get_textpage()
            slow = [textpage.get_text_bounded(*rect) for rect in rects]
            textpage.close()
            assert fast == slow, f"{doc} page {number}"
            multi_line += sum("\r\n" in text for text in slow)
    reference.close()
    assert multi_line > 10  # the line-break rules were exercised


def test_empty_queries_and_empty_rectangles(canonical_packets: list[Path]) -> None:
    with PdfText(canonical_packets[0] / "sov_pdf.pdf") as pdf, pdf.page(1) as layer:
        assert layer.bounded_many([]) == []
        assert layer.bounded([1000, 1000, 1001, 1001]) == ""
        assert layer.bounded([100, 100, 100, 300]) == ""  # zero width: pdfium's empty rect
        assert "STATEMENT OF VALUES" in layer.text


def test_unreadable_pdf_is_bad_input(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 not really")
    with pytest.raises(BadInput, match=r"broken\.pdf: unreadable PDF"):
        PdfText(broken)
