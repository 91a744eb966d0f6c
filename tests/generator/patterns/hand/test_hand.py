"""hand.*: ink on the paper. Handwritten values, corrections, stamps, notes and signatures are
pixels (glyph outlines), never text: pdfium reads none of them, OCR of the page reads them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from packetbench.audit.result import HANDWRITING, OCR_RECALL_MIN
from packetbench.benchmark.score.field_view import Claim
from packetbench.benchmark.score.verdicts import grounded, verdict
from packetbench.generator.render import hand
from packetbench.reading.page import OcrPage
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import folded
from packetbench.truth import normalize
from packetbench.truth.universe import document_universe
from tests.support.audit import Run, audit_json, findings
from tests.support.ocr import needs_tesseract
from tests.support.rendering import Render, Rendered, first_applied, write

DOCS = ("acord_125", "acord_130", "loss_run_pdf")
FORM = "acord_125"
DPI = 300


def _ocr(rendered: Rendered, doc_id: str, number: int) -> OcrPage:
    pdf = rendered.pdf(doc_id)
    page = pdf[number - 1]
    try:
        image = page.render(scale=DPI / 72, grayscale=True).to_numpy()
        top = float(page.get_cropbox()[3])
    finally:
        page.close()
        pdf.close()
    image = image.reshape(image.shape[:2])
    return OcrPage(Tesseract().words(image, DPI, doc_id), DPI / 72, 0.0, top, image)


def _bounded(rendered: Rendered, doc_id: str, number: int, bbox: list[float]) -> str:
    """What pdfium's text layer holds inside `bbox`, grown by two points."""
    with rendered.page(doc_id, number) as (_, textpage):
        x0, y0, x1, y1 = bbox
        return str(textpage.get_text_bounded(x0 - 2, y0 - 2, x1 + 2, y1 + 2))


def _case(
    render: Render, pattern: str, doc_id: str = FORM
) -> tuple[Rendered, Rendered, dict[str, Any]]:
    seed = first_applied(render, pattern, doc_id, "N3", DOCS)
    on, off = render("N3", seed, DOCS, pattern), render("N3", seed, DOCS)
    record = on.applied(doc_id, pattern)
    assert record is not None
    return on, off, record


def _colored(pixels: np.ndarray[Any, Any]) -> int:
    """Pixels in a coloured ink (blue, red, purple): far from any gray."""
    rgb = pixels.astype(int)
    return int(((rgb.max(axis=2) - rgb.min(axis=2)) > 60).sum())


def test_the_hand_fonts_are_shipped_with_their_licences() -> None:
    added = [p for p in hand.shipped_files() if p.name != "DejaVuSans.ttf"]
    assert sum(p.stat().st_size for p in added) < 200_000  # a small set
    for path in hand.shipped_files():
        licence = path.with_suffix(".LICENSE")
        assert licence.is_file(), licence
        text = licence.read_text()
        assert "Open Font License" in text or "Bitstream Vera" in text, path.name
    assert all(hand.writable(h, "$1,234.56 07/01/2025 Check #s") for h in hand.HAND_FONTS)


def test_written_text_is_deterministic_and_jittered() -> None:
    import random

    first = hand.write("print", "07/01/2025", 10, 10, 9, random.Random(4))
    again = hand.write("print", "07/01/2025", 10, 10, 9, random.Random(4))
    other = hand.write("print", "07/01/2025", 10, 10, 9, random.Random(5))
    steady = hand.write("print", "07/01/2025", 10, 10, 9, random.Random(4), hand.STEADY)
    assert first.commands == again.commands and first.bbox == again.bbox
    assert first.commands != other.commands != steady.commands
    assert 0.85 < steady.width / hand.width("print", "07/01/2025", 9) < 1.1


@needs_tesseract
@pytest.mark.slow
def test_filled_fields_are_ink_that_ocr_reads_and_pdfium_does_not(render: Render) -> None:
    on, off, record = _case(render, "hand.filled_fields")
    assert record["phase"] == "document" and record["truth"] == "none"
    fields_on, fields_off = on.fields(FORM), off.fields(FORM)
    targets = record["targets"]
    assert len(targets) >= 10
    pages: dict[int, OcrPage] = {}
    found = 0
    for path in targets:
        entry = fields_on[path]
        assert fields_off[path]["locations"][0]["text_layer"] is True  # typed when plain
        for location in entry["locations"]:
            assert location["text_layer"] is False
            number = location["page"]
            held = normalize.string(_bounded(on, FORM, number, location["bbox"]))
            assert normalize.string(entry["rendered_as"]) not in held, path
        location = entry["locations"][0]
        if location["page"] not in pages:
            pages[location["page"]] = _ocr(on, FORM, location["page"])
        ok, _, _ = pages[location["page"]].find(location["bbox"], entry["rendered_as"])
        found += ok
    assert found >= OCR_RECALL_MIN[HANDWRITING] * len(targets), (found, len(targets))
    # Their strings are in the universe as pixels only.
    strings = on.universe(FORM)["strings"]
    written = {fields_on[p]["rendered_as"] for p in targets}
    assert {s["text"] for s in strings if s.get("text_layer") is False} >= written


@needs_tesseract
@pytest.mark.slow
def test_a_correction_strikes_a_visible_value_and_writes_the_truth_beside_it(
    render: Render, tmp_path: Path
) -> None:
    on, off, record = _case(render, "hand.correction")
    delta = record["ground_truth_delta"]
    assert delta and set(delta) == set(record["targets"])
    assert on.truth(FORM) == off.truth(FORM)
    write(on, tmp_path)
    universe = document_universe(tmp_path, FORM)
    strings = on.universe(FORM)["strings"]
    for path, entry in delta.items():
        field = on.fields(FORM)[path]
        assert entry["struck"] != entry["shown"] == field["rendered_as"]
        assert field["value"] == entry["canonical"] == off.fields(FORM)[path]["value"]
        (location,) = field["locations"]
        number = location["page"]
        # The struck value is printed: in the text layer and the universe (visible).
        assert entry["struck"] in on.text(FORM, number)
        assert any(s["text"] == entry["struck"] and s.get("text_layer", True) for s in strings)
        # The correction is ink: pdfium reads nothing of it, OCR reads it in its box.
        assert location["text_layer"] is False
        assert entry["shown"] not in _bounded(on, FORM, number, location["bbox"])
        ocr = _ocr(on, FORM, number)
        assert folded(entry["shown"]).replace(" ", "") in folded(
            ocr.in_box(location["bbox"])
        ).replace(" ", ""), ocr.in_box(location["bbox"])
        # Extracting the struck value is a contradiction, not an invention.
        claim = Claim(path, field["kind"], None, entry["struck"], field["value"], True, False)
        assert grounded(entry["struck"], field["kind"], None, universe)
        assert verdict(claim, True, None, universe) == "contradicted"


def test_signatures_are_ink_in_the_signature_boxes(render: Render) -> None:
    on, off, record = _case(render, "hand.signature")
    signed = record["details"]["signatures"]
    assert signed and record["targets"] == [] and record["ground_truth_delta"] == {}
    fields = on.fields(FORM)
    for entry in signed:
        number = entry["page"]
        # The signer is the name printed beside the box; the ink adds no text.
        assert entry["signer"] in fields
        assert on.text(FORM, number) == off.text(FORM, number)
        assert _colored(on.pixels(FORM, number)) > _colored(off.pixels(FORM, number)) + 200
    assert on.universe(FORM)["strings"] == off.universe(FORM)["strings"]


@needs_tesseract
@pytest.mark.slow
def test_a_received_stamp_is_coloured_ink_with_a_readable_date(render: Render) -> None:
    on, off, record = _case(render, "hand.date_stamp", "loss_run_pdf")
    doc = "loss_run_pdf"
    (number,) = record["pages_affected"]
    word, date, *_ = record["details"]["text"]
    assert word.startswith("REC") and normalize.date(date) is not None
    strings = [s for s in on.universe(doc)["strings"] if s["page"] == number]
    stamped = {s["text"] for s in strings if s.get("text_layer") is False}
    assert {word, date} <= stamped
    assert date not in on.text(doc, number) and on.text(doc, number) == off.text(doc, number)
    assert _colored(on.pixels(doc, number)) > _colored(off.pixels(doc, number)) + 500
    ocr = _ocr(on, doc, number)
    assert ocr.has_string(date) and ocr.has_string(word), ocr.text


@needs_tesseract
@pytest.mark.slow
def test_a_margin_note_is_ink_a_reader_can_read(render: Render) -> None:
    on, off, record = _case(render, "hand.margin_note", "loss_run_pdf")
    doc = "loss_run_pdf"
    notes = record["details"]["notes"]
    strings = [s for s in on.universe(doc)["strings"] if s.get("text_layer") is False]
    assert {s["text"] for s in strings} == set(notes)
    read = 0
    for entry in strings:
        assert entry["text"] not in on.text(doc, entry["page"])
        read += _ocr(on, doc, entry["page"]).has_string(entry["text"])
    assert read >= 1
    assert on.truth(doc) == off.truth(doc)


@pytest.fixture(scope="module")
def inked(render: Render, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A packet with every hand pattern forced on."""
    rendered = render(
        "N3",
        2,
        DOCS,
        "hand.signature,hand.date_stamp,hand.margin_note,hand.filled_fields,hand.correction",
    )
    return write(rendered, tmp_path_factory.mktemp("inked") / "N3-000002")


@pytest.mark.slow
def test_ink_is_not_checked_without_ocr(run_cli: Run, inked: Path) -> None:
    code, report = audit_json(run_cli, inked)
    assert (code, report["status"]) == (3, "not_verified")
    problems = {f["problem"] for f in findings(report)}
    assert problems == {"not_checked"}, findings(report)
    assert report["totals"]["fields_not_checked"] > 0


@needs_tesseract
@pytest.mark.slow
def test_the_audit_reads_the_ink_with_ocr(run_cli: Run, inked: Path) -> None:
    code, report = audit_json(run_cli, inked, ocr=True)
    assert code == 0, findings(report)
    level = report["totals"]["scans"][HANDWRITING]
    assert level["fields"]["checked"] > 20
    assert level["fields"]["found"] >= OCR_RECALL_MIN[HANDWRITING] * level["fields"]["checked"]
    manifest = json.loads((inked / "manifest_acord_125.json").read_text())
    assert {p["id"] for p in manifest["patterns_applied"]} >= {
        "hand.filled_fields",
        "hand.signature",
    }
