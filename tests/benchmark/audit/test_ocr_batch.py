"""The fast path's OCR (benchmark.audit.ocr): many images in one tesseract process, and boxes
read on their own without the page read whole, exactly as the full audit reads them again."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw, ImageFont

from packetbench.benchmark.audit.ocr import Tesseract, read_boxes, read_pages
from tests.support.audit import Run
from tests.support.ocr import needs_tesseract


def _image(text: str) -> np.ndarray:
    picture = Image.new("L", (700, 160), 255)
    ImageDraw.Draw(picture).text((24, 40), text, fill=0, font=ImageFont.load_default(size=52))
    return np.asarray(picture)


@needs_tesseract
def test_one_process_reads_each_image_as_its_own_call_does() -> None:
    engine = Tesseract()
    images = [_image(t) for t in ("POLICY 4471", "$8,001", "Harbor Lane")]
    many = engine.words_many(images, 300, "test", psm="7")
    alone = [engine.words(image, 300, "test", psm="7") for image in images]
    assert [[w.text for w in page] for page in many] == [[w.text for w in a] for a in alone]
    assert [w.text for w in many[1]] == ["$8,001"]


@needs_tesseract
@pytest.mark.slow
def test_boxes_read_alone_read_as_the_full_audit_reads_them_again(
    run_cli: Run, tmp_path: Path
) -> None:
    result = run_cli(
        "generate",
        "--tiers",
        "N3",
        "--seed",
        "4",
        "--out",
        str(tmp_path),
        "--set",
        "documents=acord_125",
        "--set",
        "patterns.only=scan.skewed",
    )
    assert result.returncode == 0, result.stderr
    packet = tmp_path / "N3-000004"
    manifest = json.loads((packet / "manifest_acord_125.json").read_text())
    fields = json.loads((packet / "field_truth_acord_125.json").read_text())["fields"]
    quads = [
        location["quad"]
        for entry in fields
        if entry.get("kind") != "checkbox"
        for location in entry["locations"]
        if location["page"] == 1
    ][:12]
    assert len(quads) == 12
    slopes = sorted(
        float(np.degrees(np.arctan2(q[3] - q[1], q[2] - q[0]))) for q in quads if q[2] - q[0] > 8
    )
    angle = slopes[len(slopes) // 2]
    assert abs(angle) > 0.5  # the skewed level turns the page: deskewing is exercised
    engine = Tesseract()
    pdf = pdfium.PdfDocument(packet / manifest["file"])
    try:
        alone = read_boxes(pdf, {1: quads}, engine, packet / manifest["file"], angles={1: angle})
        ((_, page),) = list(
            read_pages(pdf, [1], engine, packet / manifest["file"], angles={1: angle})
        )
        again = page.reread(quads)
    finally:
        pdf.close()
    assert alone[1] == again
    assert sum(1 for readings in again if any(r.strip() for r in readings)) >= 10
