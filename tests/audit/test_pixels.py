"""`audit --ocr` judges scanned pages by pixels first (audit.pixels): values painted
over on the scanned image are caught by the rule, without OCR, every one of them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from packetbench.audit.pixels import calibration_candidates, calibration_pages
from packetbench.reading.legibility import INTACT_VERDICT, PixelVerdict, box_pixels
from packetbench.truth.documents import read_packet
from tests.support.audit import Run, audit_json, edit_json, findings
from tests.support.ocr import needs_tesseract

DOCS = "acord_125,sov_pdf"
GROW = 1.5  # points


def generate_scanned(run_cli: Run, out: Path, documents: str, level: str) -> Path:
    """Packet N3-000004 of `documents`, every page scanned at `level`, written under `out`."""
    result = run_cli(
        "generate",
        "--tiers",
        "N3",
        "--seed",
        "4",
        "--out",
        str(out),
        "--set",
        f"documents={documents}",
        "--set",
        f"patterns.only=scan.{level}",
    )
    assert result.returncode == 0, result.stderr
    return out / "N3-000004"


@pytest.fixture
def scanned_packet(run_cli: Run, tmp_path: Path) -> Path:
    """Two documents scanned at the skewed level (rotated, shrunk, a shadow)."""
    return generate_scanned(run_cli, tmp_path, DOCS, "skewed")


def _scan_pages(manifest: dict[str, Any]) -> dict[int, dict[str, Any]]:
    for pattern in manifest["patterns_applied"]:
        if pattern["phase"] == "scan":
            return {int(k): v for k, v in pattern["details"]["pages"].items()}
    return {}


def calibration_of(packet: Path) -> set[tuple[str, int]]:
    """The scanned pages (doc_id, page) the audit reads whole to calibrate its pixel rule."""
    files = read_packet(packet)
    candidates = [
        (doc.doc_id, page)
        for doc in files.documents
        if doc.format == "pdf"
        for page in calibration_candidates(doc)
    ]
    return calibration_pages(files.packet_id, candidates)


def paint_over(packet: Path, doc_id: str, per_page: int = 2, calibration: bool = False) -> set[str]:
    """White out `per_page` located values on every scanned page of `doc_id` outside the
    calibration sample (inside it too, with `calibration`: the image changed in place, the
    PDF saved again); their paths."""
    manifest = json.loads((packet / f"manifest_{doc_id}.json").read_text())
    fields = json.loads((packet / f"field_truth_{doc_id}.json").read_text())["fields"]
    file = packet / manifest["file"]
    skipped = set() if calibration else calibration_of(packet)
    pdf = pdfium.PdfDocument(file.read_bytes())
    painted: set[str] = set()
    for number, how in sorted(_scan_pages(manifest).items()):
        if (doc_id, number) in skipped:
            continue
        page = pdf[number - 1]
        (image,) = [o for o in page.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
        bitmap = image.get_bitmap(render=False).to_numpy()
        pixels = np.ascontiguousarray(bitmap.reshape(bitmap.shape[:2]))
        chosen = [
            (entry["path"], location["quad"])
            for entry in fields
            if entry.get("kind") != "checkbox" and len(entry["rendered_as"]) >= 3
            for location in entry["locations"]
            if location["page"] == number
            and "fragment" not in location
            and len(entry["locations"]) == 1
        ][:per_page]
        height = float(page.get_size()[1])
        picture = Image.fromarray(pixels, "L")
        scale = how["dpi"] / 72
        for path, quad in chosen:
            assert box_pixels(quad, how["dpi"], height, pixels.shape) is not None
            # The value's own glyph box grown by GROW points each way (a glyph's anti-aliased
            # edge reaches past its box): neighbours in a table stay as they were.
            points = np.array(list(zip(quad[0::2], quad[1::2], strict=True)))
            out = points - points.mean(axis=0)
            points = points + out / np.linalg.norm(out, axis=1, keepdims=True) * GROW * 1.414
            corners = [(float(x) * scale, (height - float(y)) * scale) for x, y in points]
            ImageDraw.Draw(picture).polygon(corners, fill=242)  # the skewed level's paper
            painted.add(path)
        image.set_bitmap(pdfium.PdfBitmap.from_pil(picture), pages=[page])
        page.gen_content()
        page.close()
    pdf.save(file)
    pdf.close()
    return painted


@needs_tesseract
@pytest.mark.slow
def test_the_pixel_rule_catches_every_painted_over_value(
    run_cli: Run, scanned_packet: Path
) -> None:
    painted = set()
    for doc_id in DOCS.split(","):
        painted |= {(doc_id, p) for p in paint_over(scanned_packet, doc_id)}
    assert len(painted) >= 4
    code, report = audit_json(run_cli, scanned_packet, ocr=True)
    assert (code, report["status"]) == (1, "failed")
    caught = {
        (f["doc_id"], f["path"])
        for f in findings(report)
        if f["problem"] == "missing" and f["reader"] == "pixel"
    }
    assert caught == painted
    # Nothing else is called damaged, and every other box was intact or left to OCR.
    pixels = report["totals"]["pixels"]
    assert pixels["boxes"]["damaged"] == len(painted)
    assert pixels["unavailable"] == ""
    # A painted value's line (the visible string naming its leaf) is judged in the value's box:
    # never verified by pixels, it is left to OCR (which may still read its words elsewhere
    # on the page, as the full audit would).
    lines = sum(
        1
        for doc_id, path in painted
        for entry in json.loads((scanned_packet / f"rendered_universe_{doc_id}.json").read_text())[
            "strings"
        ]
        if entry.get("path") == path
    )
    assert lines >= len(painted)
    assert pixels["strings"]["undecided"] >= lines
    # The file is no longer its manifest's: that is reported too, as it always was.
    assert {f["doc_id"] for f in findings(report) if f["problem"] == "integrity"} == {
        d for d, _ in painted
    }


@needs_tesseract
@pytest.mark.slow
def test_an_edited_truth_file_is_read_by_ocr_not_judged_by_pixels(
    run_cli: Run, scanned_packet: Path
) -> None:
    """The rule never reads a value: where the truth is not what the generator wrote, the
    pixel path stands aside and OCR reads (and misses) the edited value."""

    def street(data: dict[str, Any]) -> None:
        entry = next(e for e in data["fields"] if e["path"] == "buildings[0].address.street")
        entry["rendered_as"] = entry["value"] = "7631 Johnson Harbor"

    edit_json(scanned_packet / "field_truth_sov_pdf.json", street)
    code, report = audit_json(run_cli, scanned_packet, ocr=True)
    documents = {d["doc_id"]: d for d in report["packets"][0]["documents"]}
    pixels = documents["sov_pdf"]["pixels"]
    assert "field_truth_sov_pdf.json" in pixels["unavailable"]
    assert "pixel" not in documents["sov_pdf"]["fields"]
    assert documents["acord_125"]["pixels"]["unavailable"] == ""
    missed = {f["expected"] for f in documents["sov_pdf"]["ocr_misses"]}
    assert "7631 Johnson Harbor" in missed | {f["expected"] for f in findings(report)}
    assert code in (0, 1, 3)  # one miss on a scanned page may be within the level's recall


@needs_tesseract
@pytest.mark.slow
def test_the_text_report_shows_the_pixel_reader(run_cli: Run, tmp_path: Path) -> None:
    """`audit --ocr` without --json on a packet with scans: its table has the pixel reader's
    rows and a line saying what the rule verified (it once died sorting the readers)."""
    packet = generate_scanned(run_cli, tmp_path, "acord_125", "moderate")
    result = run_cli("audit", "--ocr", "--packets", str(packet))
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if "│ pixel " in line]
    assert rows, result.stdout
    pixels = [line for line in result.stdout.splitlines() if line.startswith("Pixels: ")]
    assert len(pixels) == 1
    assert " located values on " in pixels[0] and " left to OCR; calibration: " in pixels[0]


@needs_tesseract
@pytest.mark.slow
def test_a_fax_header_is_read_in_its_cells_not_on_the_whole_page(
    run_cli: Run, tmp_path: Path
) -> None:
    """A fax's transmission header is printed over the scan (the clean page never has it), so
    the rule cannot judge its words: the audit reads them where the rebuild says the machine
    printed them (`Rebuilt.printed`), box by box, and no page goes to whole-page OCR for
    them."""
    packet = generate_scanned(run_cli, tmp_path, "acord_125", "fax")
    universe = json.loads((packet / "rendered_universe_acord_125.json").read_text())
    headers = [s for s in universe["strings"] if str(s.get("text", "")).startswith("FROM: ")]
    assert len(headers) >= 2  # one a page
    code, report = audit_json(run_cli, packet, ocr=True)
    assert code == 0, findings(report)
    (doc,) = report["packets"][0]["documents"]
    pixels = doc["pixels"]
    assert pixels["strings"]["not_found"] == 0  # every header field has its place
    assert pixels["strings_read"] >= 3 * len(headers) - 3 * pixels["pages_sampled"]
    assert pixels["strings_read_found"] >= pixels["strings_read"] // 2
    assert pixels["pages_ocr"] == 0


def _lenient(box: Any) -> PixelVerdict:
    """A pixel rule wrong on purpose: every box is intact, whatever its pixels show."""
    return PixelVerdict(INTACT_VERDICT, 1.0, 1)


@needs_tesseract
@pytest.mark.slow
@pytest.mark.parametrize("seed", [4])
def test_a_wrong_pixel_rule_is_caught_by_its_calibration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """A pixel rule that vouches for every box (`_lenient`) on a packet whose scanned pages
    have 60 values each painted over (most of a form's, a fifth of a dense schedule's), the
    file's hash in its manifest made to match: judged by that
    rule alone, the audit would pass on values no one can read. The calibration pages (at
    least two a packet, read whole by OCR) show the rule wrong: the packet's
    calibration refutes it and the audit does not pass. With no calibration page drawn, the
    same audit is not verified: a rule nothing checked proves nothing."""
    import hashlib

    from packetbench.audit import audit_packet, pixels
    from packetbench.audit.result import NOT_VERIFIED, PASSED, AuditResult
    from packetbench.generator.packet import build_packet
    from packetbench.generator.tiers import resolve
    from packetbench.reading import legibility
    from packetbench.reading.tesseract import Tesseract
    from tests.support.rendering import Rendered, write

    knobs = resolve("N3", {"documents": DOCS.split(","), "patterns.only": ("scan.skewed",)})
    folder = write(Rendered(build_packet("N3", seed, knobs).files), tmp_path / f"N3-{seed:06d}")
    for doc_id in DOCS.split(","):
        assert paint_over(folder, doc_id, per_page=60, calibration=True)
        manifest = folder / f"manifest_{doc_id}.json"
        data = (folder / json.loads(manifest.read_text())["file"]).read_bytes()
        edit_json(manifest, _set_sha256(hashlib.sha256(data).hexdigest()))
    # One rule, wherever it judges: the audit's boxes and the rungs it decides again on the
    # delivered pages (`resolution.pixels_intact`), or the rungs alone would refute it.
    monkeypatch.setattr(pixels, "cut_verdict", _lenient)
    monkeypatch.setattr(legibility, "cut_verdict", _lenient)
    engine = Tesseract()
    packet = audit_packet(folder, engine=engine, ocr_mode="pixel")
    stats = packet.pixels()
    assert stats is not None and stats.pages and stats.pages_sampled >= 2
    assert "disagree" in packet.calibration_problem()
    assert AuditResult([packet], True).status != PASSED
    # The same rule with no page read whole: nothing could show it wrong, so nothing it
    # judged is passed either (the check that could not fail, before: no page in the sample).
    monkeypatch.setattr(pixels, "MIN_CALIBRATION", 0)
    monkeypatch.setattr(pixels, "SAMPLE", 1 << 62)
    unchecked = audit_packet(folder, engine=engine, ocr_mode="pixel")
    assert "none of its calibration boxes" in unchecked.calibration_problem()
    assert AuditResult([unchecked], True).status == NOT_VERIFIED


def _set_sha256(digest: str) -> Callable[[Any], None]:
    """An edit of a manifest: its file's sha256 set to `digest`."""

    def change(manifest: Any) -> None:
        manifest["sha256"] = digest

    return change


def test_values_under_a_stamp_stay_out_of_the_calibration() -> None:
    """Fresh N3 seed 820016: a SUPERSEDED stamp across a schedule's rows is on the clean page
    too, so the rule finds its values as drawn; OCR left 14 of the 25 unread and the packet's
    calibration refuted the rule. The stamp's targets on its page are left out of the sample
    (`ScannedPageAuditor.stamped`); other pages and other overlays keep theirs."""
    from types import SimpleNamespace

    from packetbench.audit.sources.scanned import ScannedPageAuditor

    manifest = {
        "patterns_applied": [
            {"id": "overlay.void_stamp", "pages_affected": [1], "targets": ["a.b", "c[0].d"]},
            {"id": "overlay.watermark", "pages_affected": [1, 2], "targets": ["e"]},
            {"id": "overlay.void_stamp", "pages_affected": "bad", "targets": ["f"]},
        ]
    }
    auditor = SimpleNamespace(doc=SimpleNamespace(manifest=manifest))
    assert ScannedPageAuditor.stamped(auditor, 1) == {"a.b", "c[0].d"}  # type: ignore[arg-type]
    assert ScannedPageAuditor.stamped(auditor, 2) == set()  # type: ignore[arg-type]


def test_a_group_3_fax_is_rebuilt_for_the_pixel_rule(run_cli: Run, tmp_path: Path) -> None:
    """A fax records each page's lines per inch (`rows`) in its manifest; the rebuild the pixel
    rule draws its clean side from records them too, so a fax's values are judged by pixels as
    any scan's (its manifest differed, and the audit fell back to OCR alone on faxes)."""
    from packetbench.audit.native import rebuilt

    folder = generate_scanned(run_cli, tmp_path, "acord_125", "fax_g3")
    packet = json.loads((folder / "packet_truth.json").read_text())
    (doc,) = read_packet(folder).documents
    rows = {how.get("rows") for _, how, _ in doc.scanned_pages()}
    assert rows and rows <= {98, 196}
    again, why = rebuilt(doc, packet)
    assert (why, again is not None) == ("", True)
