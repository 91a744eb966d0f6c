"""The difficulty card's careful readers (`benchmark.readers`) on a page drawn with reportlab,
rendered by pypdfium2 and turned with PIL: the skew they measure, the page they read once
turned back, and where they put what they read."""

from __future__ import annotations

import io
import math
from typing import Any

import numpy as np
import pytest
from PIL import Image

from packetbench.benchmark import readers
from packetbench.reading.page import OcrPage
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text
from tests.support.ocr import needs_tesseract
from tests.support.rendering import gray_page

HEIGHT = 792.0
# Values in a two-column table, 11-point Helvetica: (x, baseline y) in points, the text.
VALUES = [
    ((72 + 260 * column, 700 - 30 * row), f"{name} {4471 + 97 * row + 13 * column}")
    for row, name in enumerate(("Policy", "Claim", "Vehicle", "Building", "Driver", "Premium"))
    for column in range(2)
]
SIZE = 11.0


def _page(dpi: int) -> np.ndarray[Any, Any]:
    """The table drawn on a letter page, rendered in gray at `dpi`."""
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=(612, HEIGHT))
    pdf.setFont("Helvetica", SIZE)
    pdf.drawString(72, 740, "SCHEDULE OF VALUES AND IDENTIFIERS FOR THE SUBMISSION")
    for (x, y), text in VALUES:
        pdf.drawString(x, y, text)
    pdf.save()
    return gray_page(out.getvalue(), dpi)


def _turned(image: np.ndarray[Any, Any], degrees: float) -> np.ndarray[Any, Any]:
    """The page turned counter-clockwise by `degrees` about its centre (same size)."""
    picture = Image.fromarray(image).rotate(
        degrees, resample=Image.Resampling.BICUBIC, fillcolor=255
    )
    return np.asarray(picture)


def _quads(dpi: int, degrees: float, size: tuple[int, int]) -> list[list[float]]:
    """Each value's box turned as `_turned` turns the page, as a quad in PDF points."""
    scale = dpi / 72
    cx, cy = size[0] / 2, size[1] / 2
    radians = math.radians(degrees)
    quads = []
    for (x, y), text in VALUES:
        width = len(text) * SIZE * 0.56
        corners = [(x, y - 2), (x + width, y - 2), (x + width, y + SIZE), (x, y + SIZE)]
        quad: list[float] = []
        for px, py in corners:
            # Points -> pixels, turned counter-clockwise on the image (y grows down).
            u, v = px * scale - cx, (HEIGHT - py) * scale - cy
            tu = u * math.cos(radians) + v * math.sin(radians)
            tv = -u * math.sin(radians) + v * math.cos(radians)
            quad += [(tu + cx) / scale, HEIGHT - (tv + cy) / scale]
        quads.append(quad)
    return quads


@pytest.mark.parametrize("degrees", [4.0, -6.5, 0.0])
def test_skew_is_the_angle_the_lines_are_turned_by(degrees: float) -> None:
    page = _turned(_page(150), degrees)
    assert readers.skew(page, 150) == pytest.approx(degrees, abs=0.15)


def test_otsu_splits_ink_from_paper() -> None:
    image = np.full((40, 40), 230, dtype=np.uint8)
    image[10:20, 5:35] = 40
    assert 40 <= readers.otsu(image) < 230
    assert readers.otsu(np.zeros((0, 0), dtype=np.uint8)) == 128


@needs_tesseract
@pytest.mark.slow  # ~15 s: Tesseract reads a 300-dpi page twice, and its orientation once
def test_the_careful_reader_turns_and_deskews_what_the_naive_reader_misses() -> None:
    """Upside down and 5 degrees crooked: Tesseract as it is reads almost nothing; the careful
    reader turns the page upright, deskews it and reads the values where they are drawn."""
    dpi, degrees = 300, 185.0
    page = _turned(_page(dpi), degrees)
    quads = _quads(dpi, degrees, (page.shape[1], page.shape[0]))
    engine = Tesseract()
    naive = OcrPage(engine.words(page, dpi, "naive"), dpi / 72, 0.0, HEIGHT)
    words, done = readers.CarefulTesseract(engine).read(page, dpi, "careful")
    careful = OcrPage(words, dpi / 72, 0.0, HEIGHT)
    assert done.rotate == 180 and done.skew == pytest.approx(5.0, abs=0.2)
    texts = [text for _, text in VALUES]
    assert sum(naive.find(q, t)[0] for q, t in zip(quads, texts, strict=True)) <= 2
    # Read inside each value's own (turned) box: the words were put back where they are drawn.
    inside = [same_text(careful.in_box(q), t) for q, t in zip(quads, texts, strict=True)]
    assert sum(inside) >= len(VALUES) - 1, [careful.in_box(q) for q in quads]


@needs_tesseract
@pytest.mark.slow  # ~10 s: a 150-dpi page enlarged to 300 and read
def test_the_careful_reader_enlarges_a_page_given_at_150_dpi() -> None:
    page = _page(150)
    words, done = readers.CarefulTesseract().read(page, 150, "careful")
    assert done.scale == 2.0 and done.rotate == 0 and done.skew == pytest.approx(0.0, abs=0.2)
    ocr = OcrPage(words, 150 / 72, 0.0, HEIGHT)
    quads = _quads(150, 0.0, (page.shape[1], page.shape[0]))
    assert all(same_text(ocr.in_box(q), t) for q, (_, t) in zip(quads, VALUES, strict=True))


@pytest.mark.slow  # ~10 s: PP-OCR's models loaded and a page read
def test_ppocr_puts_each_character_in_the_box_it_is_drawn_in() -> None:
    """PP-OCR reads lines; cut into characters, each value's own box holds its text and no
    character of the value beside it on the same line."""
    page = _page(150)
    chars, tokens = readers.PagePpOcr().read(page, "ppocr")
    by_char = OcrPage(chars, 150 / 72, 0.0, HEIGHT)
    by_token = OcrPage(tokens, 150 / 72, 0.0, HEIGHT)
    quads = _quads(150, 0.0, (page.shape[1], page.shape[0]))
    inside = [same_text(by_char.in_box(q), t) for q, (_, t) in zip(quads, VALUES, strict=True)]
    assert sum(inside) >= len(VALUES) - 1, [by_char.in_box(q) for q in quads]
    # The heading's line, in pieces as PP-OCR spaced it (it often drops spaces).
    above_table = (HEIGHT - 715) * 150 / 72  # pixels: the heading is drawn at 740 points
    heading = [t for t in tokens if t.bottom < above_table and "SCHEDULE" in t.text.upper()]
    assert heading and by_token.words == tokens


def test_ppocr_that_does_not_import_is_one_usage_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from packetbench.core.errors import UsageError
    from packetbench.reading import ppocr

    monkeypatch.setattr(ppocr, "available", lambda: False)
    with pytest.raises(UsageError, match=r"^--readers ppocr needs PP-OCR \(rapidocr-onnxruntime\)"):
        ppocr.required("--readers ppocr")


@needs_tesseract
def test_a_page_without_text_has_no_orientation_to_tell() -> None:
    """Tesseract's orientation detection exits 1 when it finds too little text: the page is
    left as it is, nothing fails."""
    blank = np.full((800, 600), 255, dtype=np.uint8)
    assert Tesseract().orientation(blank, 150, "blank") == 0
