"""The fast path's OCR (reading.tesseract, reading.strategies): many images in one tesseract
process, and boxes read on their own without the page read whole, exactly as the full audit reads
them again."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from packetbench.reading.strategies import read_boxes, read_pages
from packetbench.reading.tesseract import Tesseract
from tests.support.audit import Run
from tests.support.ocr import needs_tesseract
from tests.support.paths import PACKETS


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


def _scanned_values(
    packet: Path, count: int, besides: frozenset[str] = frozenset()
) -> tuple[Path, list[tuple[str, list[float]]], float]:
    """A scanned document of `packet` (its file, `count` located values of page 1 with their
    quads, the page's turn), scanned at a level other than `besides`: the canonical N5
    packet scans nearly every PDF, most as phone photos."""
    from packetbench.reading.located import page_turn

    for manifest_file in sorted(packet.glob("manifest_*.json")):
        manifest = json.loads(manifest_file.read_text())
        if not str(manifest.get("file", "")).endswith(".pdf"):
            continue
        if {p["id"].removeprefix("scan.") for p in manifest["patterns_applied"]} & besides:
            continue
        truth = packet / manifest_file.name.replace("manifest_", "field_truth_")
        if not truth.exists():
            continue
        values = [
            (entry["rendered_as"], location["quad"])
            for entry in json.loads(truth.read_text())["fields"]
            if entry.get("kind") != "checkbox" and len(str(entry.get("rendered_as", ""))) >= 6
            for location in entry["locations"]
            if location["page"] == 1
            and location.get("quad")
            and location.get("legible", True)
            and not location.get("fragment")
        ]
        if len(values) >= count:
            angle = page_turn([(0, quad, (1, 1), False) for _, quad in values])
            return packet / manifest["file"], values[:count], angle
    raise AssertionError(f"{packet} has no scanned document with {count} values on page 1")


@needs_tesseract
@pytest.mark.slow
def test_the_library_reads_exactly_as_the_command_does() -> None:
    """Small images are read by libtesseract in this process (`reading.tesseract._Library`): its TSV
    must be the command's, byte for byte, on real scanned crops, sheets of boxes and bands, in every
    page segmentation mode the audit uses."""
    from packetbench.reading.boxes import BoxReader
    from packetbench.reading.strategies import cut_boxes
    from packetbench.reading.tesseract import PSM, READINGS, _Library, _pgm

    library = _Library.get()
    assert library is not None, "libtesseract did not load beside the tesseract command"
    file, values, angle = _scanned_values(PACKETS / "N5-000001", 8)
    pdf = pdfium.PdfDocument(file)
    try:
        crops = cut_boxes(pdf, {1: [quad for _, quad in values]}, 300, {1: angle})
    finally:
        pdf.close()
    sheets = [BoxReader.sheet(crops, row)[0] for row in BoxReader.rows(crops)]
    engine = Tesseract()
    compared = 0
    for image in [*crops[:4], *sheets]:
        for psm in (PSM, *READINGS):
            command = engine._run("stdin", _pgm(image), 300, "test", psm)
            assert library.tsv(image, 300, psm) == command
            compared += 1
    assert compared >= 12


@needs_tesseract
@pytest.mark.slow
def test_a_band_reads_its_values_and_nothing_far_from_them() -> None:
    """`read_bands` reads a scanned page only in bands around the regions asked: the values in
    them are found as a page read whole finds them, and a value drawn far from every band
    is not read at all."""
    from packetbench.reading.strategies import read_bands

    # A page the whole-page reading reads (not a phone photo from further back, nor a second
    # photocopy's thickened type, whose values the audit finds box by box).
    hard = frozenset({"far_photo", "photocopy_2nd"})
    file, values, angle = _scanned_values(PACKETS / "N5-000001", 40, hard)
    # Two values a band apart: the first and the lowest on the page.
    first = values[0]
    far = max(values, key=lambda v: abs(min(v[1][1::2]) - min(first[1][1::2])))
    # Points apart on the page image, far beyond a band's reach (a box height and a half
    # above and below, at least 14 points; the page may be a reduced copy).
    assert abs(min(far[1][1::2]) - min(first[1][1::2])) > 120
    engine = Tesseract()
    pdf = pdfium.PdfDocument(file)
    try:
        banded = read_bands(pdf, {1: [first[1]]}, engine, file, angles={1: angle})
        ((_, whole),) = list(read_pages(pdf, [1], engine, file, angles={1: angle}))
    finally:
        pdf.close()
    page = banded[1]
    assert whole.find(first[1], first[0])[0]
    assert page.find(first[1], first[0])[0]
    assert whole.find(far[1], far[0])[0]
    assert not page.in_box(far[1])
    assert 0 < len(page.words) < len(whole.words) / 4


@needs_tesseract
def test_a_value_wrapped_on_two_lines_reads_line_by_line() -> None:
    """A box holding a value wrapped on two lines (a long name in a narrow cell) is read as
    drawn, the first line's words before the second's, in each way of reading that finds its
    words; ordering the words by their left edges alone interleaves the lines."""
    from packetbench.reading.boxes import read_crops

    picture = Image.new("L", (520, 150), 255)
    draw = ImageDraw.Draw(picture)
    font = ImageFont.load_default(size=44)
    draw.text((10, 10), "Enterprise Fleet", fill=0, font=font)
    draw.text((10, 80), "Management, Inc.", fill=0, font=font)
    (readings,) = read_crops(Tesseract(), [np.asarray(picture)], 300, "test")
    assert "Enterprise Fleet Management, Inc." in readings, readings


@needs_tesseract
def test_blurred_small_type_is_read_sharpened() -> None:
    """5-point type out of focus (a `blurred` scan's driver schedule), which a person reads
    and tesseract mostly does not, is read once the crop is sharpened (`reading.imaging.sharpened`):
    the reading a box no other reading found its value in gets last."""
    from packetbench.reading.boxes import read_crops
    from packetbench.reading.imaging import sharpened
    from packetbench.reading.text import same_text

    words = ["Padilla", "Blankenship", "V22569019", "Christopher", "09/15/2022", "Williams"]
    words += ["Regular", "Kenneth"]
    crops = []
    for word in words:
        picture = Image.new("L", (20 + 22 * len(word), 44), 255)
        ImageDraw.Draw(picture).text((8, 7), word, fill=0, font=ImageFont.load_default(size=22))
        crops.append(np.asarray(picture.filter(ImageFilter.GaussianBlur(2.1))))
    assert sharpened(crops[0]).shape == (88, 2 * crops[0].shape[1])
    engine = Tesseract()
    plain = read_crops(engine, crops, 300, "test")
    sharp = read_crops(engine, crops, 300, "test", sharpen=True)

    def read(readings: list[tuple[str, ...]]) -> list[str]:
        pairs = zip(words, readings, strict=True)
        return [w for w, got in pairs if any(same_text(r, w) for r in got)]

    assert len(read(sharp)) >= len(read(plain)) + 4, (read(plain), read(sharp))


@needs_tesseract
def test_a_red_stamp_drops_out_of_a_drawn_page(tmp_path: Path) -> None:
    """Values under a red CANCELLED stamp on a page drawn, not scanned: in gray the stamp's
    letters are as dark as the type and tesseract reads neither; in the red channel
    (`dropout`) the stamp is as light as the paper, as a reader looks through it."""
    import io

    from reportlab.lib.colors import Color
    from reportlab.pdfgen import canvas

    from packetbench.reading.text import same_text

    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, pagesize=(612, 792))
    titles = ["Evidence of Commercial Property Insurance", "Cancellation Request / Policy Release"]
    boxes = []
    for row, title in enumerate(titles):
        y = 700 - 12 * row
        page.setFont("Helvetica", 9)
        page.drawString(60, y, title)
        boxes.append([60.0, y - 2.0, 60 + page.stringWidth(title, "Helvetica", 9), y + 7.0])
    page.setFillColor(Color(0.92, 0.3, 0.3, alpha=0.35))
    page.rect(100, 670, 300, 56, fill=1, stroke=0)
    page.setFillColor(Color(0.8, 0.05, 0.05, alpha=0.75))
    page.setFont("Helvetica-Bold", 40)
    page.drawString(110, 686, "CANCELLED")
    page.save()
    path = tmp_path / "stamped.pdf"
    path.write_bytes(buffer.getvalue())
    pdf = pdfium.PdfDocument(path)
    try:
        gray, dropped = (
            read_boxes(pdf, {1: boxes}, Tesseract(), path, dropout=dropout)[1]
            for dropout in (False, True)
        )
    finally:
        pdf.close()

    def read(readings: list[tuple[str, ...]]) -> list[bool]:
        pairs = zip(titles, readings, strict=True)
        return [any(same_text(r, title) for r in got) for title, got in pairs]

    assert read(dropped) == [True, True], dropped
    assert read(gray) == [False, False], gray
