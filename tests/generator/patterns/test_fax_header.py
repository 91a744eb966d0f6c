"""A fax's transmission header (issue 25, `generator.render.faxheader`): the sending machine's
line on every page of a faxed document, read back by Tesseract with its page marker; a value it
prints over is past reading by the legibility rule and by OCR, one beside it is not; the same
seed gives the same bytes."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from packetbench.benchmark.audit.ocr import Tesseract, same_text
from packetbench.generator.packet import build_packet
from packetbench.generator.render import faxheader
from packetbench.generator.render.scan import LEVELS, open_pdf, placement, scan_page
from packetbench.generator.tiers import resolve
from packetbench.legibility import box_pixels, legible, quad_height, quarter_turns
from tests.support.ocr import needs_tesseract
from tests.support.rendering import Render

FAX = LEVELS["fax"]
DPI = FAX.dpi
Pixels = np.ndarray[Any, Any]


def _page_image(pdf: Any, number: int) -> Pixels:
    page = pdf[number - 1]
    try:
        image = page.render(scale=DPI / 72, grayscale=True).to_numpy()
    finally:
        page.close()
    return np.asarray(image.reshape(image.shape[:2]), dtype=np.uint8)


def _read(image: Pixels, psm: str = "7") -> str:
    """Tesseract's reading of a crop set on a white sheet."""
    sheet = np.full((image.shape[0] + 80, image.shape[1] + 80), 255, dtype=np.uint8)
    sheet[40:-40, 40:-40] = image
    return " ".join(w.text for w in Tesseract().words(sheet, DPI, "test_fax_header", psm=psm))


def test_the_draw_is_the_documents_own() -> None:
    first, again = faxheader.draw(11, 7), faxheader.draw(11, 7)
    assert first == again
    assert faxheader.draw(12, 7) != first
    assert first.fields(2)[2].endswith("P.002/007")
    assert first.fields(2)[:2] == first.fields(7)[:2]  # only the page marker changes
    assert "555 01" in first.number and 4.0 <= first.top <= 22.0


@needs_tesseract
def test_every_page_of_a_fax_carries_the_header_with_its_page(render: Render) -> None:
    doc = "loss_run_pdf"
    rendered = render("N3", 3, (doc,), "scan.fax")
    applied = rendered.applied(doc, "scan.fax")
    assert applied is not None
    header = applied["details"]["header"]
    universe = rendered.universe(doc)["strings"]
    pdf = rendered.pdf(doc)
    try:
        count = len(pdf)
        assert count >= 2 and header["pages"] == count
        for number in range(1, count + 1):
            marker = f"P.{number:03d}/{count:03d}"
            shown = [s["text"] for s in universe if s["page"] == number]
            assert any(text.endswith(marker) for text in shown), shown
            image = _page_image(pdf, number)
            band = image[: round((header["top"] + 16) * DPI / 72)]
            read = _read(band, psm="6").replace(" ", "")
            assert "FROM:" in read and marker in read, read
            assert header["number"].replace(" ", "") in read, read
    finally:
        pdf.close()


def _scanned_with(
    native: bytes, seed: int, header: faxheader.FaxHeader
) -> tuple[Any, Pixels, Pixels, float]:
    pdf = open_pdf(native)
    try:
        scanned = scan_page(pdf, 0, FAX, seed, judged=True, header=header)
        height = float(pdf[0].get_size()[1])
    finally:
        pdf.close()
    assert scanned.clean is not None and scanned.pixels is not None
    return scanned.transform, scanned.clean, scanned.pixels, height


def _verdict(quad: list[float], clean: Pixels, pixels: Pixels, height: float) -> bool:
    box = box_pixels(quad, DPI, height, pixels.shape)
    assert box is not None
    left, top, right, bottom = box
    return legible(
        clean[top:bottom, left:right],
        pixels[top:bottom, left:right],
        blur=FAX.blur,
        motion=FAX.motion,
        glyph_pixels=quad_height(quad) * DPI / 72,
        turn=quarter_turns(quad),
    ).legible


def _crop(pixels: Pixels, quad: list[float], height: float) -> Pixels:
    """The box around `quad` with two points of margin, as OCR reads a box."""
    box = box_pixels(quad, DPI, height, pixels.shape, margin=2.0)
    assert box is not None
    left, top, right, bottom = box
    return pixels[top:bottom, left:right]


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int], grow: int = 0) -> bool:
    return not (
        a[2] + grow <= b[0] or b[2] + grow <= a[0] or a[3] + grow <= b[1] or b[3] + grow <= a[1]
    )


@needs_tesseract
def test_a_value_under_the_header_is_illegible_and_one_beside_it_legible(render: Render) -> None:
    """Built on purpose: the header's FROM field set over a value of an ACORD 125's first page
    (its box as the fax moved it). The rule judges that value illegible and Tesseract cannot
    read it; the nearest value the header leaves alone is legible and Tesseract reads it."""
    doc, seed = "acord_125", 5
    plain = render("N3", 3, (doc,))
    native = plain.files[f"{doc}.pdf"]
    fields = plain.fields(doc)
    pdf = open_pdf(native)
    try:
        transform, _ = placement(pdf, 0, FAX, seed)
        height = float(pdf[0].get_size()[1])
    finally:
        pdf.close()
    on_page = [
        (path, transform.quad(loc["bbox"]))
        for path, entry in fields.items()
        if entry["kind"] != "checkbox" and len(entry["rendered_as"]) >= 6
        for loc in entry["locations"]
        if loc["page"] == 1
    ]

    # A value of 6 or more characters in the left half of the page (where the FROM field can
    # be set over it), as high on the page as such a value is (the header is printed over the
    # page's top).
    def spans(quad: list[float]) -> tuple[float, float, float]:
        return min(quad[0::2]), max(quad[0::2]), height - max(quad[1::2])

    target, quad = min(
        (
            (p, q)
            for p, q in on_page
            if 120 <= spans(q)[0] <= 250 and spans(q)[1] - spans(q)[0] < 150
        ),
        key=lambda item: spans(item[1])[2],
    )
    x0, _, top = spans(quad)
    header = dataclasses.replace(faxheader.draw(1, 3), top=round(top - 1.5, 2), middle=x0 - 6)
    _, clean, pixels, height = _scanned_with(native, seed, header)
    cells = [box for _, box in faxheader.layout(header, 1, 612.0, DPI)]
    target_box = box_pixels(quad, DPI, height, pixels.shape)
    assert target_box is not None and any(_overlaps(target_box, c) for c in cells)
    assert not _verdict(quad, clean, pixels, height)
    read = _read(_crop(pixels, quad, height))
    assert not same_text(read, fields[target]["rendered_as"]), read

    # Beside it: the nearest values no cell of the header reaches, legible and read.
    beside = []
    for path, other in on_page:
        box = box_pixels(other, DPI, height, pixels.shape, margin=2.0)
        if path == target or box is None or any(_overlaps(box, c, 4) for c in cells):
            continue
        beside.append((abs(box[1] - target_box[1]) + abs(box[0] - target_box[0]) / 4, path, other))
    beside.sort()
    assert beside
    readings = []
    for _, path, other in beside[:5]:
        assert _verdict(other, clean, pixels, height), path
        got = _read(_crop(pixels, other, height))
        readings.append((fields[path]["rendered_as"], got))
        if same_text(got, fields[path]["rendered_as"]):
            break
    else:
        pytest.fail(f"no value beside the header read: {readings}")


def test_a_fax_is_byte_identical_for_the_same_seed() -> None:
    knobs = resolve(
        "N3",
        {"documents": ("loss_run_pdf",), "lines": ("property",), "patterns.only": ("scan.fax",)},
    )
    first, second = (build_packet("N3", 4, knobs).files for _ in range(2))
    assert first == second
    assert first["loss_run_pdf.pdf"] != build_packet("N3", 5, knobs).files["loss_run_pdf.pdf"]
