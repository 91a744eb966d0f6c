"""What the audit's OCR does to a page before and after tesseract reads it: rules come off,
and a value the page's OCR missed is read again from its own box, and only from there."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from packetbench.generator.render import scan, scan_levels
from packetbench.reading.boxes import BoxReader
from packetbench.reading.imaging import (
    DARK,
    RULE,
    ink_lines,
    levelled,
    render_page,
    unruled,
    upright,
)
from packetbench.reading.page import OcrPage
from packetbench.reading.strategies import cut_boxes, read_boxes, read_pages
from packetbench.reading.tesseract import MARGIN, READINGS, Tesseract
from packetbench.reading.text import same_text
from tests.support.ocr import needs_tesseract

DPI = 300
# A schedule of lone codes in a row of ruled cells (what tesseract's page segmentation drops),
# one cell left empty: (column left, text). The row is 14 pt high.
CELLS = [(72.0, "P"), (144.0, "4"), (216.0, "17"), (288.0, "")]
ROW_TOP, ROW_BOTTOM = 638.0, 624.0


def _schedule(path: Path) -> dict[str, list[float]]:
    """A one-row schedule with a title; each value's bbox (PDF points)."""
    page = canvas.Canvas(str(path), pagesize=letter)
    page.setFont("Helvetica-Bold", 24)
    page.drawString(72, 700, "HAZARD SCHEDULE")
    page.setLineWidth(0.8)
    for y in (ROW_TOP, ROW_BOTTOM):
        page.line(60, y, 360, y)
    for x in (60.0, 132.0, 204.0, 276.0, 360.0):
        page.line(x, ROW_BOTTOM, x, ROW_TOP)  # shorter than a rule `_unruled` takes
    page.line(40, 560, 40, 680)  # a margin rule, long enough for it
    page.setFont("Helvetica", 10)
    boxes = {}
    for left, text in CELLS:
        x = left - 10  # tight against the cell's left rule, as a code column draws it
        page.drawString(x, 628, text or " ")
        width = stringWidth(text or "0", "Helvetica", 10)
        boxes[text or "empty"] = [x, 626.0, x + width, 636.0]
    page.save()
    return boxes


def _longest_dark_run(pixels: np.ndarray, axis: int) -> int:
    dark = (pixels < DARK).astype(np.int32)
    if axis == 0:
        dark = dark.T
    longest = 0
    for line in dark:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], line, [0]))))
        if edges.size:
            longest = max(longest, int((edges[1::2] - edges[0::2]).max()))
    return longest


@pytest.mark.slow
def test_rules_come_off_and_text_stays(tmp_path: Path) -> None:
    _schedule(tmp_path / "page.pdf")
    pdf = pdfium.PdfDocument(tmp_path / "page.pdf")
    image, _, _ = render_page(pdf, 1, DPI)
    pixels = image.reshape(image.shape[:2])
    cleaned = unruled(pixels, DPI)
    rule = round(RULE * DPI)
    assert _longest_dark_run(pixels, 1) > rule and _longest_dark_run(pixels, 0) > rule
    # The 24 pt bold title's strokes are long but thick: they stay, pixel for pixel.
    scale = DPI / 72
    title = (
        slice(round((792 - 724) * scale), round((792 - 694) * scale)),
        slice(round(70 * scale), round(300 * scale)),
    )
    assert (cleaned[title] == pixels[title]).all()
    # No run as long as a rule is left anywhere, and every value's glyphs are still inked.
    assert _longest_dark_run(cleaned, 1) < rule and _longest_dark_run(cleaned, 0) < rule
    for left, text in CELLS[:3]:
        x = round((left - 9) * scale)
        glyphs = cleaned[
            round((792 - 637) * scale) : round((792 - 627) * scale), x : x + round(11 * scale)
        ]
        assert (glyphs < DARK).sum() > 40, text


def _scanned(tmp_path: Path, level: str) -> tuple[Path, dict[str, list[float]], float]:
    """The schedule scanned at `level`: an image-only PDF, each value's moved quad and the
    page's angle."""
    boxes = _schedule(tmp_path / "native.pdf")
    native = pdfium.PdfDocument(tmp_path / "native.pdf")
    page = scan.scan_page(native, 0, scan_levels.LEVELS[level], 11)
    picture = Image.open(io.BytesIO(page.image))
    out = tmp_path / "scanned.pdf"
    picture.save(out, "PDF", resolution=scan_levels.LEVELS[level].dpi)
    quads = {text: page.transform.quad(box) for text, box in boxes.items()}
    return out, quads, float(page.details["angle"])


@needs_tesseract
@pytest.mark.parametrize("level", ["clean", "skewed"])
@pytest.mark.slow
def test_a_box_is_read_again_alone(tmp_path: Path, level: str) -> None:
    path, quads, angle = _scanned(tmp_path, level)
    engine = Tesseract()
    pdf = pdfium.PdfDocument(path)
    [(_, page)] = list(read_pages(pdf, [1], engine, path, angles={1: angle}))
    order = list(quads)
    readings = dict(zip(order, page.reread([quads[t] for t in order]), strict=True))
    for text in ("P", "4", "17"):
        assert any(same_text(read, text) for read in readings[text]), (text, readings)
    # The empty cell sits between two values and reads nothing: a box is read alone.
    assert readings["empty"] == ("",) * len(READINGS)
    if level == "skewed":  # the page really was turned, and the boxes turned with it
        assert abs(angle) >= scan_levels.LEVELS["skewed"].min_angle


@needs_tesseract
@pytest.mark.slow
def test_the_second_engine_looks_no_further_in_a_box_its_line_reads(tmp_path: Path) -> None:
    """On a page read whole (a calibration page), the boxes its reading missed are read
    again alone, by tesseract every way (what it reads in a box depends on the boxes beside
    it on its sheet), then by the second engine told what each should read: a box its
    one-line reading reads so is not searched for lines (the detected reading is ""); one
    asked for what it does not show is read both ways."""
    path, quads, angle = _scanned(tmp_path, "clean")
    pdf = pdfium.PdfDocument(path)
    [(_, page)] = list(read_pages(pdf, [1], Tesseract(), path, angles={1: angle}))
    regions = [quads["17"], quads["4"]]
    assert all(len(r) == len(READINGS) for r in page.reread(regions))
    second = page.second(regions, wanted=["17", "99"])
    assert second[0][0] == "" and same_text(second[0][1], "17"), second
    assert second[1] == page.second(regions[1:])[0], second
    assert second[1][0] != "", second


def test_a_page_without_a_reader_reads_no_box_again() -> None:
    page = OcrPage([], DPI / 72, 0.0, 792.0)
    assert page.reread([[0.0, 0.0, 10.0, 10.0]]) == [()]


@needs_tesseract
@pytest.mark.slow
def test_hidden_text_is_seen_only_where_a_phrase_reads_it(tmp_path: Path) -> None:
    """On a real page read by tesseract: a table whose row ends in "2" above a row starting
    with "15" does not show a hidden "2.15"; the same page with "Rate 2.15 applied" does."""
    rows = (
        ("14", "12 Main Street", "Frame", "Class 2"),
        ("15", "9 Harbor Point", "Masonry", "Class 4"),
        ("16", "3 Oak Lane", "Brick", "Class 3"),
    )

    def page(extra: bool) -> OcrPage:
        path = tmp_path / f"rows-{extra}.pdf"
        pdf = canvas.Canvas(str(path), pagesize=letter)
        pdf.setFont("Helvetica", 9)
        for y, cells in zip((700, 688, 676), rows, strict=True):
            for x, text in zip((60, 84, 170, 215), cells, strict=True):
                pdf.drawString(x, y, text)
        if extra:
            pdf.drawString(60, 640, "Rate 2.15 applied")
        pdf.save()
        image, _, top = render_page(pdfium.PdfDocument(path), 1, DPI)
        words = Tesseract().words(image, DPI, path.name)
        return OcrPage(words, DPI / 72, 0.0, top, image)

    table = page(False)
    assert table.on_page("2.15")  # the row's last word, then the next row's first
    assert not table.shows("2.15") and table.shows("Harbor Point")
    assert page(True).shows("2.15")


@needs_tesseract
@pytest.mark.slow
def test_hidden_text_is_not_seen_inside_a_grouped_number(tmp_path: Path) -> None:
    """On a real page read by tesseract (N5 seed 4404's acord_160 row): a hidden "800" (the
    OCR layer's misreading of the street number "300") is not on a page that shows "52,800"
    and "300"; a page that shows "Unit 800" does show it."""
    row = ("4", "1", "300 Ellis Road", "East Brianmouth", "ID", "83569", "FR", "2017", "52,800")

    def page(extra: bool) -> OcrPage:
        path = tmp_path / f"row-{extra}.pdf"
        pdf = canvas.Canvas(str(path), pagesize=letter)
        pdf.setFont("Helvetica", 9)
        for x, text in zip((40, 60, 80, 160, 250, 270, 310, 340, 380), row, strict=True):
            pdf.drawString(x, 700, text)
        if extra:
            pdf.drawString(40, 650, "Unit 800")
        pdf.save()
        image, _, top = render_page(pdfium.PdfDocument(path), 1, DPI)
        words = Tesseract().words(image, DPI, path.name)
        return OcrPage(words, DPI / 72, 0.0, top, image)

    plain = page(False)
    assert plain.shows("52,800") and plain.shows("300")
    assert not plain.shows("800") and plain.count("800") == 0
    assert page(True).shows("800")


# Names wrapped in a narrow cell of a schedule, as a mortgagee column draws them: 7 pt
# Helvetica, two or three lines each, one under the other.
WRAPPED = [
    ["Midland", "Federal Credit", "Union"],
    ["Commerce", "Trust Company"],
    ["New Brandon", "Community", "Bank"],
    ["Heritage", "Savings Bank"],
    ["Lake Andrew", "Community", "Bank"],
    ["West William", "Community", "Bank"],
]


def _wrapped_column(path: Path) -> dict[str, list[float]]:
    """A page of wrapped names in a 48 pt column, each beside a number; each name's bbox."""
    page = canvas.Canvas(str(path), pagesize=letter)
    page.setFont("Helvetica-Bold", 9)
    page.drawString(40, 700, "MORTGAGEE")
    page.drawString(170, 700, "LOC")
    boxes: dict[str, list[float]] = {}
    top = 688.0
    for number, lines in enumerate(WRAPPED, start=30):
        page.setFont("Helvetica", 7)
        for row, line in enumerate(lines):
            page.drawString(40, top - 7.5 * (row + 1), line)
        page.drawRightString(180, top - 7.5, str(number))
        width = max(stringWidth(line, "Helvetica", 7) for line in lines)
        bottom = top - 7.5 * len(lines) - 2
        boxes[" ".join(lines)] = [40.0, bottom, 40 + width, top - 1]
        page.setLineWidth(0.5)
        page.line(36, bottom - 1, 300, bottom - 1)
        top = bottom - 4
    page.save()
    return boxes


@needs_tesseract
def test_a_wrapped_value_is_read_with_all_its_lines(tmp_path: Path) -> None:
    """A value wrapped over two or three lines of a narrow cell, on a motion-blurred scan: read
    as one line or as sparse text, tesseract keeps one line and drops the others as noise; the
    box is read alone as a block too (`BLOCK`), and every line comes back in order."""
    boxes = _wrapped_column(tmp_path / "native.pdf")
    native = pdfium.PdfDocument(tmp_path / "native.pdf")
    # The box's lines are counted from its ink: what decides that it is read as a block.
    lines = [ink_lines(crop) for crop in cut_boxes(native, {1: list(boxes.values())})]
    assert lines == [len(name) for name in WRAPPED]
    level = scan_levels.LEVELS["motion_blur"]
    page = scan.scan_page(native, 0, level, 5)
    out = tmp_path / "scanned.pdf"
    Image.open(io.BytesIO(page.image)).save(out, "PDF", resolution=level.dpi)
    names = list(boxes)
    pdf = pdfium.PdfDocument(out)
    [readings] = read_boxes(
        pdf,
        {1: [page.transform.quad(boxes[name]) for name in names]},
        Tesseract(),
        out,
        angles={1: float(page.details["angle"])},
    ).values()
    unread = [
        (name, texts)
        for name, texts in zip(names, readings, strict=True)
        if not any(same_text(text, name) for text in texts)
    ]
    assert len(unread) <= 1, unread


SLANTED = "48215 Juarez Properties"


def _slanted_line(path: Path, degrees: float) -> list[float]:
    """One line of 6-point type turned `degrees` counter-clockwise about its start, as the
    far side of a photographed page leaves it after a deskew; its quad (PDF points)."""
    import math

    page = canvas.Canvas(str(path), pagesize=letter)
    page.setFont("Helvetica", 6)
    x, y = 150.0, 500.0
    page.saveState()
    page.translate(x, y)
    page.rotate(degrees)
    page.drawString(0, 0, SLANTED)
    page.restoreState()
    page.save()
    width = stringWidth(SLANTED, "Helvetica", 6)
    cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    low, high = -1.5, 5.0  # below the baseline and above the capitals

    def at(u: float, v: float) -> list[float]:
        return [x + u * cos - v * sin, y + u * sin + v * cos]

    return [*at(0, low), *at(width, low), *at(width, high), *at(0, high)]


@needs_tesseract
def test_a_slanted_box_is_cut_along_its_own_line(tmp_path: Path) -> None:
    """A value whose line is still turned 9 degrees on the deskewed page is cut out along its
    line (`levelled`): the crop is the box's own height, not the height of the rectangle
    around its slant, and the box reading reads the value; a level box is cut as before."""
    path = tmp_path / "slanted.pdf"
    quad = _slanted_line(path, 9.0)
    pdf = pdfium.PdfDocument(str(path))
    try:
        image, left, top = render_page(pdf, 1, DPI)
    finally:
        pdf.close()
    gray = np.ascontiguousarray(image.reshape(image.shape[:2]))
    page = OcrPage([], DPI / 72, left, top)
    corners = page.corners(quad)
    reader = BoxReader(Tesseract(), gray, 0.0, DPI, str(path))
    grow = MARGIN * DPI / 72
    (crop,) = reader.crops([corners], grow)
    _, top, _, bottom = upright(corners, grow, 0.0, gray.shape[1], gray.shape[0])
    assert crop.shape[0] < 0.6 * (bottom - top)  # the slant's rectangle is twice as tall
    (readings,) = reader.read([corners], grow)
    assert any(same_text(text, SLANTED) for text in readings), readings
    level = [(0.0, 10.0), (100.0, 10.4), (100.0, 0.4), (0.0, 0.0)]  # 0.2 degrees
    box = np.full((20, 110), 255, dtype=np.uint8)
    assert levelled(box, level, 2.0) is box
