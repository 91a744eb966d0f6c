"""`scan.two_up` as a scan level: a whole document printed two pages to a sheet, and every page
number of its truth moved to the sheet (docs/notes/two_up_page_map.md). Read back with the
real readers: pdfium for the file's pages and sizes, Tesseract for values in their boxes and
the footers on the sheets, pikepdf for the sheet images the legibility rule judged.

Two loss runs (all lines, patterns off but these): N3 seed 3's has 4 pages (sheets [1, 2],
[3, 4]), N3 seed 1's has 5 (the last alone on its sheet) and carries blots past reading."""

from __future__ import annotations

import io
import math
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pikepdf
import pypdfium2.raw as raw
import pytest
from PIL import Image

from packetbench.generator.render import twoup
from packetbench.generator.render.scan_draw import Transform
from packetbench.generator.render.scan_levels import LEVELS
from packetbench.reading.legibility import box_pixels, legible, quad_height, quarter_turns
from packetbench.reading.tesseract import READINGS, Tesseract
from packetbench.reading.text import same_text
from tests.support.ocr import needs_tesseract
from tests.support.rendering import Render, Rendered

DOC = "loss_run_pdf"
LEVEL = LEVELS["two_up"]
SHEET = twoup.SHEET
ZOOM = 3  # crops read by Tesseract are enlarged this many times (`_crop`)
# (seed, native pages, what is forced on) of the two N3 loss runs.
CASES = {
    "even": (3, 4, "scan.two_up"),
    "odd": (1, 5, "scan.two_up,overlay.blot"),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request: pytest.FixtureRequest, render: Render) -> tuple[Rendered, Rendered, int]:
    """(the document printed 2-up, the same document plain, its native page count)."""
    seed, pages, only = CASES[request.param]
    return render("N3", seed, (DOC,), only), render("N3", seed, (DOC,)), pages


def _sheets(rendered: Rendered) -> list[list[int]]:
    record = rendered.applied(DOC, "scan.two_up")
    assert record is not None
    return list(record["details"]["sheets"])


def _located(rendered: Rendered) -> list[tuple[str, dict[str, Any]]]:
    return [
        (path, location)
        for path, entry in rendered.fields(DOC).items()
        for location in entry["locations"]
    ]


def test_the_file_has_a_landscape_sheet_per_two_pages(case: Any) -> None:
    on, plain, native = case
    source = plain.pdf(DOC)
    assert len(source) == native
    source.close()
    pdf = on.pdf(DOC)
    try:
        assert len(pdf) == math.ceil(native / 2) == on.manifest(DOC)["pages"]
        for number in range(len(pdf)):
            page = pdf[number]
            assert tuple(page.get_size()) == SHEET
            assert [obj.type for obj in page.get_objects()] == [raw.FPDF_PAGEOBJ_IMAGE]
            page.close()
    finally:
        pdf.close()
    pairs = [[page, page + 1] for page in range(1, native, 2)]
    assert _sheets(on) == pairs + ([[native]] if native % 2 else [])
    record = on.applied(DOC, "scan.two_up")
    assert record is not None
    sheets = record["details"]["pages"]
    assert sorted(sheets, key=int) == [str(n) for n in range(1, len(pairs) + native % 2 + 1)]
    for number, pages in enumerate(_sheets(on), start=1):
        how = sheets[str(number)]
        assert (how["level"], how["dpi"], how["sheet"]) == ("two_up", LEVEL.dpi, list(SHEET))
        assert len(how["matrices"]) == len(pages) and "matrix" not in how


def test_the_odd_last_page_sits_alone_on_the_left(render: Render) -> None:
    seed, _, only = CASES["odd"]
    image = _sheet_images(render("N3", seed, (DOC,), only))[-1]
    middle = image.shape[1] // 2
    left, right = image[:, 60:middle], image[:, middle + 60 : -60]
    assert (left < 128).mean() > 0.01  # the page's type
    assert (right < 128).mean() < 0.0005  # paper (a speck of noise at most)


def test_every_page_number_is_a_page_of_the_file(case: Any) -> None:
    """Locations, universe strings, illegible values and every pattern's pages are sheets;
    the sheets are all used; the truth is the plain document's."""
    on, plain, native = case
    count = math.ceil(native / 2)
    pages = range(1, count + 1)
    located = _located(on)
    assert {location["page"] for _, location in located} == set(pages)
    universe = on.universe(DOC)
    assert {entry["page"] for entry in universe["strings"]} == set(pages)
    assert all(entry["page"] in pages for entry in universe["illegible"] + universe["hidden"])
    for record in on.manifest(DOC)["patterns_applied"]:
        assert record["pages_affected"] and set(record["pages_affected"]) <= set(pages), record
    # Each value sits on the sheet of the page it was drawn on, in that page's half.
    sheets = {page: n for n, held in enumerate(_sheets(on), start=1) for page in held}
    native_pages = {
        (path, number): location["page"]
        for path, entry in plain.fields(DOC).items()
        for number, location in enumerate(entry["locations"])
    }
    for path, entry in on.fields(DOC).items():
        for number, location in enumerate(entry["locations"]):
            page = native_pages[(path, number)]
            assert location["page"] == sheets[page], (path, page, location)
            xs = location["quad"][0::2]
            middle = SHEET[0] / 2
            assert (max(xs) < middle) if page % 2 else (min(xs) > middle), (path, location)
    if on.applied(DOC, "overlay.blot") is None:
        assert on.truth(DOC) == plain.truth(DOC)


def test_footers_keep_the_document_s_page_numbers(case: Any) -> None:
    """What the paper shows: sheet 2 carries "Page 3 of N" and "Page 4 of N"."""
    on, _, native = case
    sheets = _sheets(on)
    strings = on.universe(DOC)["strings"]
    for number, held in enumerate(sheets, start=1):
        footers = {
            e["text"] for e in strings if e["page"] == number and e["text"].startswith("Page ")
        }
        assert footers == {f"Page {page} of {native}" for page in held}


@needs_tesseract
def test_tesseract_reads_the_footer_where_its_half_put_it(case: Any) -> None:
    on, plain, native = case
    record = on.applied(DOC, "scan.two_up")
    assert record is not None
    images = _sheet_images(on)
    engine = Tesseract()
    with plain.page(DOC, 1) as (page, _):
        width = float(page.get_size()[0])
    for number, held in enumerate(_sheets(on), start=1):
        matrices = record["details"]["pages"][str(number)]["matrices"]
        for page, matrix in zip(held, matrices, strict=True):
            # The footer's "Page n of N", right-aligned at the margin 22 points up.
            half = Transform(np.array(matrix, dtype=np.float64).reshape(3, 3))
            quad = half.quad([width - 36 - 45, 18.0, width - 34, 30.0])
            crop = _crop(images[number - 1], quad)
            read = [
                " ".join(w.text for w in engine.words(crop, LEVEL.dpi * ZOOM, "footer", psm=psm))
                for psm in READINGS
            ]
            # Tesseract reads this "of" as "0f" now and then: the page numbers are the point.
            numbers = [re.fullmatch(r"Page\s*(\d)\s*[o0]f\s*(\d)", text) for text in read]
            assert any(m and m.groups() == (str(page), str(native)) for m in numbers), read


@needs_tesseract
def test_tesseract_reads_values_in_their_boxes_on_every_half(case: Any) -> None:
    """Ten legible values of 6 characters or more per page, read in their boxes on its
    sheet: a box off its value holds a neighbour's ink or paper and reads as neither."""
    on, _, _ = case
    images = _sheet_images(on)
    fields = on.fields(DOC)
    engine = Tesseract()
    halves: dict[tuple[int, bool], list[tuple[str, list[float]]]] = {}
    for path, location in _located(on):
        if location["legible"] and len(fields[path]["rendered_as"]) >= 6:
            left = max(location["quad"][0::2]) < SHEET[0] / 2
            halves.setdefault((location["page"], left), []).append((path, location["quad"]))
    assert set(halves) == {
        (number, left)
        for number, held in enumerate(_sheets(on), start=1)
        for left in (True, False)[: len(held)]
    }
    for (sheet, left), boxes in sorted(halves.items()):
        chosen = boxes[:: max(1, len(boxes) // 10)][:10]
        read = 0
        for path, quad in chosen:
            read += _reads(engine, _crop(images[sheet - 1], quad), fields[path]["rendered_as"])
        assert len(chosen) == 10 and read >= 8, (sheet, left, read)


def test_legibility_is_the_rule_s_verdict_on_the_sheet(case: Any) -> None:
    """Every location says `legible`, and it is what the legibility rule says of its box on
    the sheet (the clean side drawn again from the native pages under the recorded maps,
    the scanned side the sheet's own JPEG): a blotted value illegible, the rest legible."""
    on, plain, native = case
    record = on.applied(DOC, "scan.two_up")
    assert record is not None
    images = _sheet_images(on)
    source = plain.pdf(DOC)
    try:
        clean = [
            twoup.clean_sheet(
                source,
                [page - 1 for page in held],
                LEVEL,
                record["details"]["pages"][str(number)]["matrices"],
            )
            for number, held in enumerate(_sheets(on), start=1)
        ]
    finally:
        source.close()
    verdicts: dict[str, list[bool]] = {}
    for path, location in _located(on):
        assert type(location["legible"]) is bool and location["text_layer"] is False
        quad = location["quad"]
        sheet = location["page"] - 1
        rect = box_pixels(quad, LEVEL.dpi, SHEET[1], images[sheet].shape)
        assert rect is not None
        left, top, right, bottom = rect
        verdict = legible(
            clean[sheet][top:bottom, left:right],
            images[sheet][top:bottom, left:right],
            blur=LEVEL.blur,
            motion=LEVEL.motion,
            glyph_pixels=quad_height(quad) * LEVEL.dpi / 72.0,
            turn=quarter_turns(quad),
        )
        assert verdict.legible is location["legible"], (path, location, verdict)
        verdicts.setdefault(path, []).append(verdict.legible)
    blot = on.applied(DOC, "overlay.blot")
    blotted = set(blot["targets"]) if blot is not None else set()
    assert {path for path, marks in verdicts.items() if not any(marks)} == blotted
    if native % 2:
        assert blotted  # the odd case carries blots: the rule finds them on the sheet
        assert {e["path"] for e in on.universe(DOC)["illegible"]} == blotted
        assert all(on.fields(DOC)[path].get("illegible") for path in blotted)


def test_another_process_makes_the_same_bytes(
    render: Render, run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """`packetbench generate` in a process of its own, under another hash seed, writes the
    files this process built, sheets, page map and verdicts included."""
    seed, _, only = CASES["odd"]
    result = run_cli(
        "generate",
        "--tiers",
        "N3",
        "--seed",
        str(seed),
        "--out",
        str(tmp_path),
        "--set",
        f"documents={DOC}",
        "--set",
        "lines=property,gl,auto,wc",
        "--set",
        f"patterns.only={only}",
        env={"PYTHONHASHSEED": "12345"},
    )
    assert result.returncode == 0, result.stderr
    written = {p.name: p.read_bytes() for p in (tmp_path / f"N3-{seed:06d}").iterdir()}
    here = render("N3", seed, (DOC,), only).files
    assert written.keys() == here.keys()
    assert [name for name in here if written[name] != here[name]] == []


def _sheet_images(rendered: Rendered) -> list[np.ndarray[Any, Any]]:
    """Each sheet's one image, decoded from its JPEG stream by Pillow (as the generator
    decoded it to judge its boxes)."""
    images = []
    with pikepdf.Pdf.open(io.BytesIO(rendered.files[f"{DOC}.pdf"])) as pdf:
        for page in pdf.pages:
            (stream,) = page.get_images().values()
            assert [str(name) for name in stream.Filter] == ["/DCTDecode"]
            with Image.open(io.BytesIO(stream.read_raw_bytes())) as decoded:
                images.append(np.asarray(decoded.convert("L")))
    size = (round(SHEET[1] * LEVEL.dpi / 72), round(SHEET[0] * LEVEL.dpi / 72))
    assert all(image.shape == size for image in images)
    return images


def _reads(engine: Tesseract, crop: np.ndarray[Any, Any], text: str) -> bool:
    """Whether Tesseract reads `text` in `crop` one of the ways the audit reads a box
    (`reading.tesseract.READINGS`: a line, and sparse text)."""
    return any(
        same_text(" ".join(w.text for w in words), text)
        for words in (
            engine.words(crop, LEVEL.dpi * ZOOM, "test_two_up_pages", psm=psm) for psm in READINGS
        )
    )


def _crop(image: np.ndarray[Any, Any], quad: list[float]) -> np.ndarray[Any, Any]:
    """The box's pixels (a point of margin: the rows of a loss run are close), enlarged
    ZOOM times as a person zooms into a scan, on a white surround (how Tesseract reads a
    crop best). Read at `LEVEL.dpi * ZOOM`."""
    box = box_pixels(quad, LEVEL.dpi, SHEET[1], image.shape, margin=1.0)
    assert box is not None
    left, top, right, bottom = box
    crop = Image.fromarray(image[top:bottom, left:right])
    crop = crop.resize((crop.width * ZOOM, crop.height * ZOOM), Image.Resampling.LANCZOS)
    sheet = np.full((crop.height + 80, crop.width + 80), 255, np.uint8)
    sheet[40:-40, 40:-40] = np.asarray(crop)
    return sheet
