"""Two pixel-mode cases that used to send a scanned page to whole-page OCR: a scan with an
OCR text layer (its hidden text is shown absent by pixels: the page draws nothing but its
image, `pixels.image_alone`), and a watermark drawn corner to corner (read along its own
line, `reading.strategies.read_lines`, not on the page read whole)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from packetbench.audit import audit_packet, pixels
from packetbench.audit.drawn import drawn_text
from packetbench.audit.pixels import PixelPage, image_alone, pixel_pages, sampled
from packetbench.reading.strategies import read_lines
from packetbench.reading.tesseract import Tesseract
from packetbench.truth.documents import read_packet
from tests.support.audit import Run, audit_json, findings
from tests.support.ocr import needs_tesseract


def _generate(
    run_cli: Run, out: Path, only: str, documents: str = "acord_125", seed: int = 4
) -> Path:
    result = run_cli(
        "generate",
        "--tiers",
        "N3",
        "--seed",
        str(seed),
        "--out",
        str(out),
        "--set",
        f"documents={documents}",
        "--set",
        f"patterns.only={only}",
    )
    assert result.returncode == 0, result.stderr
    return out / f"N3-{seed:06d}"


def _scan_dpi(packet: Path, doc_id: str) -> dict[int, int]:
    manifest = json.loads((packet / f"manifest_{doc_id}.json").read_text())
    (scan,) = [p for p in manifest["patterns_applied"] if p["phase"] == "scan"]
    return {int(k): v["dpi"] for k, v in scan["details"]["pages"].items()}


def test_an_ocr_layer_that_draws_nothing_is_told_from_one_that_shows(
    run_cli: Run, tmp_path: Path
) -> None:
    """Every page of a scan with an OCR layer draws exactly its image; the same file with
    its layer's render mode set from invisible (3) to fill (0) does not, on every page."""
    packet = _generate(run_cli, tmp_path, "scan.ocr_layer")
    file = packet / "acord_125.pdf"
    dpis = _scan_dpi(packet, "acord_125")
    assert len(dpis) >= 2
    assert all(image_alone(file, page, dpi) for page, dpi in dpis.items())
    shown = tmp_path / "shown.pdf"
    with pikepdf.open(file) as pdf:
        for page in pdf.pages:
            data = page.Contents.read_bytes()
            assert b"3 Tr" in data
            page.Contents.write(data.replace(b"3 Tr", b"0 Tr"))
        pdf.save(shown)
    assert not any(image_alone(shown, page, dpi) for page, dpi in dpis.items())


@needs_tesseract
@pytest.mark.slow
def test_an_ocr_layer_scan_is_judged_by_pixels_and_its_hidden_text_settled(
    run_cli: Run, tmp_path: Path
) -> None:
    """`audit --ocr` (pixel mode) on a scan with an OCR layer: no page outside the
    calibration sample is read whole, every hidden string the layer holds is settled (by
    pixels, or by OCR on a sampled page), and nothing is a finding."""
    packet = _generate(run_cli, tmp_path, "scan.ocr_layer")
    code, report = audit_json(run_cli, packet, ocr=True)
    assert (code, report["status"]) == (0, "passed"), findings(report)[:3]
    (doc,) = [d for p in report["packets"] for d in p["documents"] if d["doc_id"] == "acord_125"]
    attacks, pixels = doc["attacks"], doc["pixels"]
    assert attacks["hidden_in_layer"] > 0
    assert attacks["hidden_not_drawn"] > 0
    assert (
        attacks["hidden_not_drawn"]
        + attacks["hidden_also_shown"]
        + attacks["hidden_not_seen"]
        + attacks["hidden_misread_by_ocr"]
        == attacks["hidden_in_layer"]
    )
    assert pixels["pages"] >= 1 and pixels["pages_ocr"] == 0


def _watermark_line(packet: Path, doc_id: str) -> tuple[list[float], str]:
    manifest = json.loads((packet / f"manifest_{doc_id}.json").read_text())
    (mark,) = [p for p in manifest["patterns_applied"] if p["id"] == "overlay.watermark"]
    text = mark["details"]["text"]
    pdf = pdfium.PdfDocument(packet / manifest["file"])
    try:
        drawn = drawn_text(pdf, 0)
    finally:
        pdf.close()
    assert drawn is not None
    line = drawn.line(text)
    assert line is not None
    return line, text


@needs_tesseract
@pytest.mark.slow
def test_a_watermark_is_read_along_its_own_line(run_cli: Run, tmp_path: Path) -> None:
    """A watermark drawn corner to corner has a narrow rectangle along its line (its upright
    box covers most of the page), and OCR reads it there, turned level: its words are placed
    back inside that rectangle on the page. (A watermark over a dense form is often not read
    at all, there or on the page read whole; a narrative page's is.)"""
    packet = _generate(run_cli, tmp_path, "overlay.watermark", "broker_narrative", seed=3)
    line, text = _watermark_line(packet, "broker_narrative")
    xs, ys = line[0::2], line[1::2]
    length = ((xs[1] - xs[0]) ** 2 + (ys[1] - ys[0]) ** 2) ** 0.5
    thick = ((xs[3] - xs[0]) ** 2 + (ys[3] - ys[0]) ** 2) ** 0.5
    upright = (max(xs) - min(xs)) * (max(ys) - min(ys))
    assert thick < 0.3 * length and length * thick < 0.5 * upright
    file = packet / "broker_narrative.pdf"
    pdf = pdfium.PdfDocument(file)
    try:
        words = read_lines(pdf, {1: [line]}, Tesseract(), file)[1]
        height = pdf[0].get_size()[1]
    finally:
        pdf.close()
    assert " ".join(w.text for w in words) == text
    scale = 300 / 72
    for word in words:
        x, y = (word.left + word.right) / 2 / scale, (word.top + word.bottom) / 2 / scale
        assert min(xs) <= x <= max(xs) and height - max(ys) <= y <= height - min(ys)


def _paint_the_line(packet: Path, doc_id: str, number: int, text: str) -> None:
    """Paint paper over the rectangle along the line where scanned page `number` of `doc_id`
    draws `text` (the audit's own rebuild says where): it is no longer intact there."""

    def along(page: PixelPage) -> list[float]:
        line = page.string_line(text)
        assert line is not None
        return line

    _paint(packet, doc_id, number, along)


def _paint(
    packet: Path, doc_id: str, number: int, where: Callable[[PixelPage], list[float]]
) -> None:
    """Paint paper over the quad (PDF points of the scanned page) `where` gives on scanned
    page `number` of `doc_id`, as the audit's own rebuild places it."""
    document = next(d for d in read_packet(packet).documents if d.doc_id == doc_id)
    truth = json.loads((packet / "packet_truth.json").read_text())
    pdf = pdfium.PdfDocument(document.file.read_bytes())
    pages, why = pixel_pages(document, truth, pdf)
    assert not why
    line = where(pages[number])
    page = pdf[number - 1]
    (image,) = [o for o in page.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
    bitmap = image.get_bitmap(render=False).to_numpy()
    picture = Image.fromarray(np.ascontiguousarray(bitmap.reshape(bitmap.shape[:2])), "L")
    scale, height = pages[number].dpi / 72, pages[number].height
    corners = [
        (x * scale, (height - y) * scale) for x, y in zip(line[0::2], line[1::2], strict=True)
    ]
    ImageDraw.Draw(picture).polygon(corners, fill=245)
    image.set_bitmap(pdfium.PdfBitmap.from_pil(picture), pages=[page])
    page.gen_content()
    page.close()
    pdf.save(document.file)
    pdf.close()


@needs_tesseract
@pytest.mark.slow
def test_a_watermark_not_intact_is_read_along_its_line_not_on_the_page_whole(
    run_cli: Run, tmp_path: Path
) -> None:
    """A loss run watermarked corner to corner (FILE COPY) and scanned (skewed), paper painted
    along the watermark's line on page 1: the rule does not call it intact there, no band
    holds it, so OCR reads it along its line; no page is read whole."""
    packet = _generate(run_cli, tmp_path, "overlay.watermark,scan.skewed", "loss_run_pdf", 1)
    assert not sampled(packet.name, "loss_run_pdf", 1)
    manifest = json.loads((packet / "manifest_loss_run_pdf.json").read_text())
    (mark,) = [p for p in manifest["patterns_applied"] if p["id"] == "overlay.watermark"]
    text = mark["details"]["text"]
    _paint_the_line(packet, "loss_run_pdf", 1, text)
    _, report = audit_json(run_cli, packet, ocr=True)
    (doc,) = [d for p in report["packets"] for d in p["documents"] if d["doc_id"] == "loss_run_pdf"]
    pixels = doc["pixels"]
    assert pixels["strings"]["undecided"] >= 1
    assert pixels["lines_read"] >= 1 and pixels["pages_ocr"] == 0


@pytest.mark.slow
def test_a_watermark_is_judged_along_its_line_not_in_its_upright_box(
    run_cli: Run, tmp_path: Path
) -> None:
    """A scanned loss run watermarked corner to corner: the rule judges the watermark in the
    rectangle along its line, turned level (`PixelPage.line_verdict`), where it is intact; paper
    painted along that line leaves it not intact there, while the rest of the page under the
    watermark's upright box still vouches for nothing (that box is never judged for it)."""
    packet = _generate(run_cli, tmp_path, "overlay.watermark,scan.skewed", "loss_run_pdf", 1)
    manifest = json.loads((packet / "manifest_loss_run_pdf.json").read_text())
    (mark,) = [p for p in manifest["patterns_applied"] if p["id"] == "overlay.watermark"]
    text = mark["details"]["text"]

    def judged() -> tuple[str, bool]:
        page = _judged_page(packet, "loss_run_pdf", 1)
        (upright,) = page.string_quads(text)
        assert page.spreads(upright)
        line = page.string_line(text)
        assert line is not None
        return page.line_verdict(line).verdict, page.string_verdict(text)[0] == "intact"

    verdict, by_its_box = judged()
    assert verdict == "intact" and not by_its_box
    _paint_the_line(packet, "loss_run_pdf", 1, text)
    assert judged()[0] != "intact"


def _judged_page(packet: Path, doc_id: str, number: int) -> PixelPage:
    """Scanned page `number` of `doc_id` as the audit's pixel rule judges it."""
    document = next(d for d in read_packet(packet).documents if d.doc_id == doc_id)
    truth = json.loads((packet / "packet_truth.json").read_text())
    pdf = pdfium.PdfDocument(document.file.read_bytes())
    try:
        pages, why = pixel_pages(document, truth, pdf)
    finally:
        pdf.close()
    assert not why
    return pages[number]


@needs_tesseract
@pytest.mark.slow
def test_a_watermark_at_a_slant_on_a_photo_is_judged_along_its_line(
    run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watermark (COPY, seed 4) on a photographed ACORD 125: the paper is a part of the
    photo's frame, so the word's upright box covers too little of the frame to count as
    drawn across it, yet most of that box is the form under it, which no reading of the box
    takes for the word. Paper painted over a corner of that box, away from the word (as a
    blotch or a fold can), leaves the box not intact. The word runs at a slant, so it is
    judged along its line, where it is intact, and no box is read for it; a string drawn
    level on the same page is not at a slant."""
    packet = _generate(run_cli, tmp_path, "overlay.watermark,scan.photo")
    manifest_file = packet / "manifest_acord_125.json"
    manifest = json.loads(manifest_file.read_text())
    (mark,) = [p for p in manifest["patterns_applied"] if p["id"] == "overlay.watermark"]
    text = mark["details"]["text"]
    assert text == "COPY"

    page = _judged_page(packet, "acord_125", 3)  # pages 1 and 2: the calibration sample's
    (upright,) = page.string_quads(text)
    line = page.string_line(text)
    assert line is not None and not page.spreads(upright) and page.slanted(text)

    def corner(_: PixelPage) -> list[float]:  # the box's upper left, away from the word
        xs, ys = upright[0::2], upright[1::2]
        x0, y1 = min(xs), max(ys)
        w, h = 0.3 * (max(xs) - x0), 0.3 * (y1 - min(ys))
        return [x0, y1 - h, x0 + w, y1 - h, x0 + w, y1, x0, y1]

    _paint(packet, "acord_125", 3, corner)
    data = (packet / manifest["file"]).read_bytes()
    edit = json.loads(manifest_file.read_text())
    edit["sha256"] = hashlib.sha256(data).hexdigest()  # painted as if it had been scanned so
    manifest_file.write_text(json.dumps(edit, indent=2))
    page = _judged_page(packet, "acord_125", 3)
    assert page.box_verdict(upright).verdict != "intact"
    assert page.line_verdict(line).verdict == "intact"
    strings = next(d for d in read_packet(packet).documents if d.doc_id == "acord_125").strings
    level = next(e["text"] for e in strings if e.get("page") == 3 and e["text"] != text)
    assert page.string_quads(level) and not page.slanted(level)
    # The audit with the rule and without it (no slant counts): the one string it judges
    # otherwise is the watermark, judged intact along its line, not read in its box.
    judged = audit_packet(packet, engine=Tesseract()).pixels()
    monkeypatch.setattr(pixels, "SLANT", 91.0)
    level_only = audit_packet(packet, engine=Tesseract()).pixels()
    assert judged is not None and level_only is not None
    assert judged.lines_read == level_only.lines_read == 0
    assert judged.strings["intact"] == level_only.strings["intact"] + 1
    assert judged.strings_read == level_only.strings_read - 1


def _document(report: dict[str, Any], doc_id: str) -> dict[str, Any]:
    (doc,) = [d for p in report["packets"] for d in p["documents"] if d["doc_id"] == doc_id]
    found: dict[str, Any] = doc
    return found


@needs_tesseract
@pytest.mark.slow
@pytest.mark.parametrize("pattern", ["textlayer.cmap_scramble", "textlayer.hidden_layer"])
def test_a_page_attacked_in_its_file_is_settled_by_the_file_before_the_attack(
    run_cli: Run, tmp_path: Path, pattern: str
) -> None:
    """A native page whose text layer an attack on the emitted file changed (a scrambled
    ToUnicode, a hidden layer) renders the pixels the file did before the attack: its values
    are read from that file's text layer (reader `pixel`), its hidden strings are not on the
    page, and no OCR runs for it."""
    packet = _generate(run_cli, tmp_path, pattern, seed=3)
    code, report = audit_json(run_cli, packet, ocr=True)
    assert (code, report["status"]) == (0, "passed"), findings(report)[:3]
    doc = _document(report, "acord_125")
    assert doc["pixels"]["pages_unattacked"] >= 1
    assert "ocr" not in doc["fields"]
    attacks = doc["attacks"]
    assert attacks["hidden_not_drawn"] == attacks["hidden_in_layer"]
    assert attacks["unreadable"] + attacks["hidden_in_layer"] > 0
    if attacks["unreadable"]:
        assert doc["fields"]["pixel"]["found"] >= attacks["unreadable"]


@needs_tesseract
@pytest.mark.slow
def test_a_changed_file_is_not_settled_by_the_file_before_the_attack(
    run_cli: Run, tmp_path: Path
) -> None:
    """The same scrambled page with a value painted over in the file: the file is no longer
    the one its seed makes, so nothing is taken from the rebuild (the reason is given), OCR
    reads the page, and the painted value is among OCR's misses there (an attacked page is
    judged by recall, as a scan is); the file's changed hash is a finding of its own."""
    packet = _generate(run_cli, tmp_path, "textlayer.cmap_scramble", seed=3)
    manifest = json.loads((packet / "manifest_acord_125.json").read_text())
    (attack,) = [p for p in manifest["patterns_applied"] if p["id"] == "textlayer.cmap_scramble"]
    page = attack["pages_affected"][0]
    fields = json.loads((packet / "field_truth_acord_125.json").read_text())["fields"]
    path, bbox = next(
        (entry["path"], location["bbox"])
        for entry in fields
        if entry.get("kind") != "checkbox"
        and len(entry["rendered_as"]) >= 5
        and len(entry["locations"]) == 1
        for location in entry["locations"]
        if location["page"] == page and location.get("text_layer") is False
    )
    with pikepdf.open(packet / "acord_125.pdf", allow_overwriting_input=True) as pdf:
        x0, y0, x1, y1 = bbox
        cover = f"q 1 g {x0 - 1} {y0 - 1} {x1 - x0 + 2} {y1 - y0 + 2} re f Q".encode()
        pdf.pages[page - 1].contents_add(pikepdf.Stream(pdf, cover), prepend=False)
        pdf.save(packet / "acord_125.pdf")
    _, report = audit_json(run_cli, packet, ocr=True)
    doc = _document(report, "acord_125")
    assert doc["pixels"]["pages_unattacked"] == 0
    assert "is not the file its seed and knobs make" in doc["pixels"]["unavailable"]
    assert doc["fields"]["ocr"]["checked"] > 0
    assert {f["problem"] for f in findings(report)} == {"integrity"}
    assert path in {f["path"] for f in doc["ocr_misses"] if f["problem"] == "missing"}
