"""A fax's transmission header (`generator.render.faxheader`): the sending machine's
line on every page of a faxed document, read back by Tesseract with its page marker; a value it
prints over is past reading by the legibility rule and by OCR, one beside it is not; the same
seed gives the same bytes."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from packetbench.generator.packet import build_packet
from packetbench.generator.render import faxheader
from packetbench.generator.render.scan import ScannedPage, open_pdf, placement, scan_page
from packetbench.generator.render.scan_levels import LEVELS
from packetbench.generator.tiers import resolve
from packetbench.reading.legibility import (
    DAMAGED_VERDICT,
    MAX_OCCLUDED,
    Legibility,
    box_pixels,
    legible,
    occlusion,
    quad_height,
    quarter_turns,
)
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text
from tests.support.boxes import overlaps as _overlaps
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


def _scanned_with(native: bytes, seed: int, header: faxheader.FaxHeader) -> ScannedPage:
    pdf = open_pdf(native)
    try:
        scanned = scan_page(pdf, 0, FAX, seed, judged=True, header=header)
    finally:
        pdf.close()
    assert scanned.clean is not None and scanned.pixels is not None
    assert scanned.covered is not None
    return scanned


def _verdict(quad: list[float], scanned: ScannedPage) -> Legibility:
    """The rule on one box, as the generator applies it (`PdfDocument._mark_legible`)."""
    assert scanned.clean is not None and scanned.pixels is not None
    assert scanned.covered is not None
    box = box_pixels(quad, DPI, 792.0, scanned.pixels.shape)
    assert box is not None
    left, top, right, bottom = box
    crop = (slice(top, bottom), slice(left, right))
    return legible(
        scanned.clean[crop],
        scanned.pixels[crop],
        blur=FAX.blur,
        motion=FAX.motion,
        glyph_pixels=quad_height(quad) * DPI / 72,
        turn=quarter_turns(quad),
        occluded=occlusion(scanned.clean[crop], scanned.covered[crop]),
    )


def _crop(pixels: Pixels, quad: list[float], height: float) -> Pixels:
    """The box around `quad` with two points of margin, as OCR reads a box."""
    box = box_pixels(quad, DPI, height, pixels.shape, margin=2.0)
    assert box is not None
    left, top, right, bottom = box
    return pixels[top:bottom, left:right]


SEED = 5  # the fax's scan seed in the tests built on purpose


def _faxed_acord_125(render: Render) -> tuple[bytes, dict[str, Any], Any, float]:
    """An N3 ACORD 125's native PDF, its fields by path, where a fax scan of seed SEED moves
    its first page (`placement`), and that page's height in points."""
    plain = render("N3", 3, ("acord_125",))
    native = plain.files["acord_125.pdf"]
    pdf = open_pdf(native)
    try:
        transform, _ = placement(pdf, 0, FAX, SEED)
        height = float(pdf[0].get_size()[1])
    finally:
        pdf.close()
    return native, plain.fields("acord_125"), transform, height


@needs_tesseract
def test_a_value_under_the_header_is_illegible_and_one_beside_it_legible(render: Render) -> None:
    """Built on purpose: the header's FROM field set over a value of an ACORD 125's first page
    (its box as the fax moved it). The rule judges that value illegible and Tesseract cannot
    read it; the nearest value the header leaves alone is legible and Tesseract reads it."""
    seed = SEED
    native, fields, transform, height = _faxed_acord_125(render)
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
    scanned = _scanned_with(native, seed, header)
    assert scanned.pixels is not None
    pixels = scanned.pixels
    cells = [box for _, box in faxheader.layout(header, 1, 612.0, DPI)]
    target_box = box_pixels(quad, DPI, height, pixels.shape)
    assert target_box is not None and any(_overlaps(target_box, c) for c in cells)
    under = _verdict(quad, scanned)
    assert not under.legible and under.occluded > 0.9
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
        beside_verdict = _verdict(other, scanned)
        assert beside_verdict.legible and beside_verdict.occluded == 0.0, path
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


def _build(doc: str, seed: int) -> dict[str, bytes]:
    knobs = resolve(
        "N3",
        {
            "documents": (doc,),
            "lines": ("property", "gl", "auto", "wc"),
            "patterns.only": ("scan.fax",),
        },
    )
    return dict(build_packet("N3", seed, knobs).files)


def test_a_value_the_header_strikes_out_expects_abstention(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the pattern: the document's header set (on purpose) over a value drawn once, on
    page 1. The rule marks that value illegible, the truth expects abstention, the universe
    lists it as illegible, the manifest's delta says why; its neighbours keep their truth."""
    import json

    doc, seed = "acord_125", 3
    drawn = faxheader.draw

    def far(seed: int, pages: int) -> faxheader.FaxHeader:
        return dataclasses.replace(drawn(seed, pages), top=4.0)

    monkeypatch.setattr(faxheader, "draw", far)
    first = _build(doc, seed)
    fields = {f["path"]: f for f in json.loads(first[f"field_truth_{doc}.json"])["fields"]}
    assert not [p for p, f in fields.items() if f.get("illegible")]
    # A value drawn once, on page 1, in the page's left half, as high as such a value is.
    path, quad = min(
        (
            (p, f["locations"][0]["quad"])
            for p, f in fields.items()
            if len(f["locations"]) == 1
            and f["locations"][0]["page"] == 1
            and f["kind"] != "checkbox"
            and len(f["rendered_as"]) >= 6
            and 120 <= min(f["locations"][0]["quad"][0::2]) <= 250
            and max(f["locations"][0]["quad"][0::2]) - min(f["locations"][0]["quad"][0::2]) < 150
        ),
        key=lambda item: -max(item[1][1::2]),
    )
    top, left = 792.0 - max(quad[1::2]) - 1.5, min(quad[0::2]) - 6

    def over(seed: int, pages: int) -> faxheader.FaxHeader:
        return dataclasses.replace(drawn(seed, pages), top=round(top, 2), middle=round(left, 2))

    monkeypatch.setattr(faxheader, "draw", over)
    struck = _build(doc, seed)
    fields = {f["path"]: f for f in json.loads(struck[f"field_truth_{doc}.json"])["fields"]}
    assert fields[path].get("illegible") is True, fields[path]
    assert fields[path]["locations"][0]["legible"] is False
    truth = json.loads(struck[f"document_truth_{doc}.json"])["truth"]
    node: Any = truth
    for key in path.split("."):
        node = node[key]
    assert node is None  # abstention expected
    universe = json.loads(struck[f"rendered_universe_{doc}.json"])
    assert path in {entry["path"] for entry in universe["illegible"]}
    manifest = json.loads(struck[f"manifest_{doc}.json"])
    (applied,) = [p for p in manifest["patterns_applied"] if p["id"] == "scan.fax"]
    assert applied["ground_truth_delta"][path]["damage"] == "under the fax header"
    assert path in applied["targets"]
    # Most of the page keeps its truth: the header only takes what its cells cover.
    on_page = [f for f in fields.values() if any(loc["page"] == 1 for loc in f["locations"])]
    lost = [f["path"] for f in on_page if f.get("illegible")]
    assert len(lost) <= 4 and len(on_page) > 40, lost


@needs_tesseract
def test_a_value_cut_across_by_the_header_is_illegible_by_its_occlusion(render: Render) -> None:
    """The header's lower edge set through the middle of a value's glyph row: what is left of
    the row is exactly as drawn, so the NCC alone does not call it damaged, but half its ink is
    under the cell: the occlusion check makes it illegible, and Tesseract cannot read it."""
    seed = SEED
    native, fields, transform, _ = _faxed_acord_125(render)
    path, quad = next(
        (path, transform.quad(loc["bbox"]))
        for path, entry in fields.items()
        if path == "agency.fax"
        for loc in entry["locations"]
    )
    base = faxheader.draw(1, 3)
    cell = faxheader.layout(base, 1, 612.0, DPI)[1][1]
    cell_height = (cell[3] - cell[1]) * 72 / DPI
    middle = 792.0 - (max(quad[1::2]) + min(quad[1::2])) / 2  # the box's middle, from the top
    header = dataclasses.replace(
        base, top=round(middle - cell_height, 2), middle=min(quad[0::2]) - 6
    )
    scanned = _scanned_with(native, seed, header)
    verdict = _verdict(quad, scanned)
    assert MAX_OCCLUDED <= verdict.occluded < 0.9, verdict
    assert verdict.pixel.verdict != DAMAGED_VERDICT, verdict  # the NCC alone lets it pass
    assert not verdict.legible
    assert scanned.pixels is not None
    read = _read(_crop(scanned.pixels, quad, 792.0))
    assert not same_text(read, fields[path]["rendered_as"]), read


def test_the_audit_covers_exactly_what_the_header_covers(render: Render) -> None:
    """The audit knows where the machine printed each field (`Rebuilt.printed`, from
    `faxheader.cells`) and rebuilds the cover from it (`PixelPage.cover`): pixel for pixel the
    mask the generator judged legibility with. A place a cell covers past `STRING_COVERED` is
    covered for the audit (`PixelPage.covered`: a string drawn only there is not read); a place
    no cell reaches is not."""
    from packetbench.audit.pixels import STRING_COVERED, PixelPage

    native, fields, transform, height = _faxed_acord_125(render)
    quad = next(transform.quad(loc["bbox"]) for loc in fields["agency.fax"]["locations"])
    top = 792.0 - max(quad[1::2])
    header = dataclasses.replace(
        faxheader.draw(1, 3), top=round(top - 1.5, 2), middle=min(quad[0::2]) - 6
    )
    scanned = _scanned_with(native, SEED, header)
    assert scanned.clean is not None and scanned.pixels is not None
    page = PixelPage(
        scanned.clean,
        scanned.pixels,
        DPI,
        height,
        [float(v) for v in scanned.details["matrix"]],
        printed=[
            (text, cell) for _, text, cell in faxheader.cells(header, 1, (612.0, height), DPI)
        ],
    )
    assert page.cover is not None and scanned.covered is not None
    assert np.array_equal(page.cover, scanned.covered)
    assert _verdict(quad, scanned).occluded >= STRING_COVERED and page.covered(quad)
    clear = [
        transform.quad(loc["bbox"])
        for entry in fields.values()
        for loc in entry["locations"]
        if loc["page"] == 1 and entry["kind"] != "checkbox"
    ]
    below = [q for q in clear if 792.0 - max(q[1::2]) > top + 40]
    assert below and not any(page.covered(q) for q in below)


def _cut_across(files: dict[str, bytes], doc: str) -> list[str]:
    """The values of `doc`'s fax pages whose box a header cell's upper or lower edge runs
    across, the header where the manifest says the machine printed it."""
    import json

    manifest = json.loads(files[f"manifest_{doc}.json"])
    (applied,) = [p for p in manifest["patterns_applied"] if p["id"] == "scan.fax"]
    header = faxheader.FaxHeader(**applied["details"]["header"])
    fields = json.loads(files[f"field_truth_{doc}.json"])["fields"]
    scale = DPI / 72
    cut = []
    for number, how in applied["details"]["pages"].items():
        lift = how.get("header_lift", 0)
        cells = [box for _, box in faxheader.layout(header, int(number), 612.0, DPI, lift)]
        for entry in fields:
            for loc in entry["locations"]:
                if loc["page"] != int(number):
                    continue
                quad = loc["quad"]
                box = (
                    int(min(quad[0::2]) * scale),
                    int((792.0 - max(quad[1::2])) * scale),
                    int(max(quad[0::2]) * scale) + 1,
                    int((792.0 - min(quad[1::2])) * scale) + 1,
                )
                if any(faxheader._across(cell, box) for cell in cells):
                    cut.append(entry["path"])
    return cut


@pytest.mark.slow
def test_no_value_is_cut_across_by_the_header(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell's upper or lower edge never runs across a value's glyphs: the header lands a
    little higher or lower on that page (`faxheader.clear_lift`), so every value is under a
    cell's whole height or clear of it. Where a cell's edge cut a tenth to a quarter of a
    value's ink, the rule called it legible and OCR read about half of them (N3 seed 700005's
    policy form: "Davis & Dixon Precision Corp." read "Davis & Dixon risuisiui Cup."). The
    header is set here on purpose among an ACORD 125's first rows of values (112 points below
    the top), where without the lift its cells cut 6 to 8 of them."""
    drawn = faxheader.draw

    def low(seed: int, pages: int) -> faxheader.FaxHeader:
        return dataclasses.replace(drawn(seed, pages), top=112.0)

    monkeypatch.setattr(faxheader, "draw", low)
    seeds = range(1, 4)
    for seed in seeds:
        assert not _cut_across(_build("acord_125", seed), "acord_125"), seed
    monkeypatch.setattr(faxheader, "clear_lift", lambda *args: 0)
    assert all(_cut_across(_build("acord_125", seed), "acord_125") for seed in seeds)
