"""Two pages on one sheet (`generator.render.twoup`): the first two pages of an ACORD
125 reduced side by side on a landscape sheet and scanned. Every located value's box, carried
by its page's map, lands on its value (Tesseract reads a sample there), the rebuild from the
recorded maps is the scan's clean side, the legibility rule finds every box intact, and the
same seed gives the same bytes."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from PIL import Image

from packetbench.generator.render import twoup
from packetbench.generator.render.scan import open_pdf
from packetbench.reading.legibility import INTACT_VERDICT, box_pixels, pixel_verdict
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text
from tests.support.ocr import needs_tesseract
from tests.support.rendering import Render

DOC = "acord_125"
SEED = 7
LEVEL = twoup.LEVEL
Pixels = np.ndarray[Any, Any]


@pytest.fixture(scope="module")
def sheet(render: Render) -> tuple[twoup.ScannedSheet, dict[str, dict[str, Any]], bytes]:
    plain = render("N3", 3, (DOC,))
    native = plain.files[f"{DOC}.pdf"]
    pdf = open_pdf(native)
    try:
        scanned = twoup.scan_sheet(pdf, [0, 1], LEVEL, SEED, judged=True)
    finally:
        pdf.close()
    return scanned, plain.fields(DOC), native


def _boxes(
    scanned: twoup.ScannedSheet, fields: dict[str, dict[str, Any]]
) -> list[tuple[str, int, list[float]]]:
    """(path, native page, quad on the sheet) of every located value of pages 1 and 2."""
    return [
        (path, loc["page"], scanned.sheet.halves[loc["page"] - 1].quad(loc["bbox"]))
        for path, entry in fields.items()
        if entry["kind"] != "checkbox"
        for loc in entry["locations"]
        if loc["page"] in (1, 2)
    ]


def test_the_pages_sit_side_by_side_on_a_landscape_sheet(sheet: Any) -> None:
    scanned, fields, _ = sheet
    assert scanned.pixels is not None
    rows, cols = scanned.pixels.shape
    assert cols > rows and (cols, rows) == (
        round(twoup.SHEET[0] * LEVEL.dpi / 72),
        round(twoup.SHEET[1] * LEVEL.dpi / 72),
    )
    middle = twoup.SHEET[0] / 2
    boxes = _boxes(scanned, fields)
    assert {page for _, page, _ in boxes} == {1, 2}
    for path, page, quad in boxes:
        xs = quad[0::2]
        assert (max(xs) < middle) if page == 1 else (min(xs) > middle), (path, page, quad)
    # Reduced to fit half the sheet: a Letter page at about 60 %.
    scale = float(np.hypot(*scanned.sheet.halves[0].matrix[:2, 0]))
    assert 0.55 < scale < 0.65


def test_the_rebuild_from_the_recorded_maps_is_the_clean_side(sheet: Any) -> None:
    scanned, _, native = sheet
    pdf = open_pdf(native)
    try:
        clean = twoup.clean_sheet(pdf, [0, 1], LEVEL, scanned.sheet.details["matrices"])
    finally:
        pdf.close()
    assert np.array_equal(clean, scanned.clean)


def test_every_box_on_the_sheet_is_intact(sheet: Any) -> None:
    scanned, fields, _ = sheet
    assert scanned.clean is not None and scanned.pixels is not None
    verdicts = []
    for _, _, quad in _boxes(scanned, fields):
        box = box_pixels(quad, LEVEL.dpi, twoup.SHEET[1], scanned.pixels.shape)
        assert box is not None
        left, top, right, bottom = box
        clean = scanned.clean[top:bottom, left:right]
        verdicts.append(pixel_verdict(clean, scanned.pixels[top:bottom, left:right]).verdict)
    assert len(verdicts) > 80
    assert verdicts.count(INTACT_VERDICT) == len(verdicts)


@needs_tesseract
def test_tesseract_reads_values_where_their_boxes_say(sheet: Any) -> None:
    """A box off its value holds its neighbour's ink or nothing, and reads as neither: 12
    values of each half, of 6 characters or more, are read in their boxes on the sheet."""
    scanned, fields, _ = sheet
    image = np.asarray(Image.open(io.BytesIO(scanned.image)).convert("L"))
    engine = Tesseract()
    for half in (1, 2):
        chosen = [
            (path, quad)
            for path, page, quad in _boxes(scanned, fields)
            if page == half and len(fields[path]["rendered_as"]) >= 6
        ][:12]
        read = 0
        for path, quad in chosen:
            box = box_pixels(quad, LEVEL.dpi, twoup.SHEET[1], image.shape, margin=2.0)
            assert box is not None
            left, top, right, bottom = box
            crop = image[top:bottom, left:right]
            sheet_image = np.full((crop.shape[0] + 80, crop.shape[1] + 80), 255, np.uint8)
            sheet_image[40:-40, 40:-40] = crop
            words = engine.words(sheet_image, LEVEL.dpi, "test_two_up", psm="7")
            read += same_text(" ".join(w.text for w in words), fields[path]["rendered_as"])
        assert len(chosen) == 12 and read >= 10, (half, read)


def test_a_sheet_is_byte_identical_for_the_same_seed(sheet: Any) -> None:
    scanned, _, native = sheet
    pdf = open_pdf(native)
    try:
        again = twoup.scan_sheet(pdf, [0, 1], LEVEL, SEED)
        other = twoup.scan_sheet(pdf, [0, 1], LEVEL, SEED + 1)
        single = twoup.scan_sheet(pdf, [2], LEVEL, SEED)
    finally:
        pdf.close()
    assert again.image == scanned.image and other.image != scanned.image
    assert len(single.sheet.halves) == 1  # an odd last page: alone on the left half
    with pytest.raises(ValueError, match="one or two pages"):
        twoup.placement([(612.0, 792.0)] * 3, LEVEL, SEED)
