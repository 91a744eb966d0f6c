"""A Group 3 fax (`render.scan_fax`, level `fax_g3`) and a copy of a copy (`render.scan_copy`) on
pages drawn with reportlab and scanned by `render.scan`: the resolution chosen by the page's
smallest type, the lines a standard fax sends, the bilevel halftone, the copier's compounding
pass, and the bytes the same seed gives."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen import canvas

from packetbench.generator.render import scan, scan_copy, scan_fax
from packetbench.generator.render.scan_levels import LEVELS

FAX = LEVELS["fax_g3"]


def _pdf(size: float, gray: float | None = None) -> Any:
    """A letter page of text at `size` points, with a box filled `gray` (0-1) when given."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=(612, 792))
    page.setFont("Helvetica", size)
    for row in range(10):
        page.drawString(72, 700 - row * 2.5 * size, f"Policy 6830-{row} premium $66,180")
    if gray is not None:
        page.setFillGray(gray)
        page.rect(72, 200, 300, 150, stroke=0, fill=1)
    page.save()
    return pdfium.PdfDocument(out.getvalue())


def _scanned(pdf: Any, level: Any = FAX, seed: int = 7) -> np.ndarray[Any, Any]:
    done = scan.scan_page(pdf, 0, level, seed)
    with Image.open(io.BytesIO(done.image)) as image:
        return np.asarray(image.convert("L"))


def test_small_type_is_sent_fine_and_large_type_standard() -> None:
    """A page with type under FINE_BELOW points goes fine (196 lines per inch), a page of larger
    type only standard (98), a level that is no Group 3 fax neither; the manifest's details
    say which."""
    small, large = _pdf(5.0), _pdf(11.0)
    assert scan_fax.smallest_type(small[0]) == 5.0
    assert scan_fax.resolution(small[0], FAX) == scan_fax.FINE
    assert scan_fax.resolution(large[0], FAX) == scan_fax.STANDARD
    assert scan_fax.resolution(large[0], LEVELS["fax"]) == 0
    assert scan.scan_page(large, 0, FAX, 7).details["rows"] == scan_fax.STANDARD


def test_a_standard_fax_is_bilevel_lines_each_two_rows_tall_with_a_dithered_gray() -> None:
    """Stored at 204 dpi, the page holds 98 lines per inch: every pixel row repeats the one
    above or starts a line, about one in 2.08; only black and white; a 25 % gray fill is a
    halftone of dots, not solid and not blank."""
    pixels = _scanned(_pdf(11.0, gray=0.75))
    assert set(np.unique(pixels).tolist()) <= {0, 255}
    rows = pixels.shape[0]
    starts = 1 + int(np.count_nonzero(np.any(pixels[1:] != pixels[:-1], axis=1)))
    assert starts <= round(rows * scan_fax.STANDARD / FAX.dpi) + 1
    assert starts > rows * 0.3  # the page's content does change from line to line
    scale = FAX.dpi / 72
    fill = pixels[round((792 - 340) * scale) : round((792 - 210) * scale), :][
        :, round(82 * scale) : round(362 * scale)
    ]
    black = float(np.mean(fill == 0))
    assert 0.1 < black < 0.45


def test_the_thermal_fade_pales_solid_ink_and_keeps_strokes_of_type_whole() -> None:
    """At the strongest fade, a rule across the page prints mottled where the head is weak, and
    ten-dot strokes (the arm of 9-point type at 204 dpi) keep every dot, wherever they stand."""
    pixels = np.full((60, 1200), 255, dtype=np.uint8)
    pixels[10:13, 50:1150] = 0  # a rule
    arms = [(30 + 8 * (i % 2), x) for i, x in enumerate(range(60, 1140, 40))]
    for y, x in arms:
        pixels[y : y + 3, x : x + scan_fax.SOLID_RUN - 1] = 0
    faded = replace(FAX, fade=1.0, dropouts=0)
    out = scan_fax.transmit(pixels, faded, np.random.default_rng(5), faded.dpi)
    for y, x in arms:
        assert (out[y : y + 3, x : x + scan_fax.SOLID_RUN - 1] == 0).all(), (y, x)
    rule = out[10:13, 50:1150] == 0
    assert rule[:, :100].mean() > 0.9 or rule[:, -100:].mean() > 0.9  # the strong side
    assert min(rule[:, :100].mean(), rule[:, -100:].mean()) < 0.5  # the weak side


def test_line_faults_fall_between_the_values_never_on_them() -> None:
    """A value's rows (`spared`) keep every dot of the fax without line faults; the faults
    land on the lines between values (garbled or lost), so the page still has them."""
    pixels = np.full((400, 600), 255, dtype=np.uint8)
    spared = [(top, top + 14) for top in range(20, 380, 40)]  # value rows, 26 rows apart
    for top, bottom in spared:
        pixels[top + 2 : bottom - 2, 40:560:7] = 0  # glyph strokes
    calm = replace(FAX, fade=0.0, dropouts=0)
    stormy = replace(FAX, fade=0.0, dropouts=60)
    before = scan_fax.transmit(pixels, calm, np.random.default_rng(3), FAX.rows, spared)
    after = scan_fax.transmit(pixels, stormy, np.random.default_rng(3), FAX.rows, spared)
    changed = np.flatnonzero((before != after).any(axis=1))
    assert changed.size > 40  # the faults happened
    for top, bottom in spared:
        assert not ((changed >= top) & (changed < bottom)).any(), (top, bottom)
    unspared = scan_fax.transmit(pixels, stormy, np.random.default_rng(3), FAX.rows)
    hit = np.flatnonzero((before != unspared).any(axis=1))
    assert any(((hit >= top) & (hit < bottom)).any() for top, bottom in spared)


def test_the_same_seed_gives_the_same_fax_and_another_seed_another() -> None:
    pdf = _pdf(5.0, gray=0.8)
    first = scan.scan_page(pdf, 0, FAX, 11).image
    assert scan.scan_page(pdf, 0, FAX, 11).image == first
    assert scan.scan_page(pdf, 0, FAX, 12).image != first


def test_each_copy_grays_the_paper_and_darkens_one_side() -> None:
    """The copier's pass compounds: the paper of a third copy is grayer than a first's, and
    the band along one side is darker than the page's middle."""
    blank = np.full((400, 300), 255, dtype=np.uint8)
    papers = []
    for count in (1, 3):
        pixels = blank.copy()
        rng = np.random.Generator(np.random.PCG64(5))
        for _ in range(count):
            scan_copy.copy_once(pixels, LEVELS["photocopy_3rd"], rng)
        papers.append(float(np.median(pixels)))
        middle = float(np.median(pixels[150:250, 100:200]))
        edges = [pixels[:4].mean(), pixels[-4:].mean(), pixels[:, :4].mean(), pixels[:, -4:].mean()]
        assert min(edges) < middle - 40
    assert papers[1] <= papers[0] - 2 * scan_copy.CAST
