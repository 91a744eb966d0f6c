"""scan.*: pages emitted as scanned images, their boxes moved with the page, read by OCR."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from packetbench.generator.patterns.base import catalogue
from packetbench.generator.patterns.catalogue import capture_mode_shares
from packetbench.generator.patterns.presets import preset
from packetbench.generator.render.scan_draw import Transform, _rotation_about
from packetbench.generator.render.scan_levels import LEVELS, MODES, NATIVE
from tests.support import perspective
from tests.support.ocr import needs_tesseract
from tests.support.rendering import Render, Rendered, write

WHOLE = ("clean", "moderate", "fax", "skewed", "degraded", "photo")
DOC = "acord_125"


def _locations(rendered: Rendered, doc_id: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        (path, location)
        for path, entry in rendered.fields(doc_id).items()
        for location in entry["locations"]
    ]


def _page_objects(rendered: Rendered, doc_id: str, number: int) -> list[int]:
    pdf = rendered.pdf(doc_id)
    page = pdf[number - 1]
    try:
        return [obj.type for obj in page.get_objects()]
    finally:
        page.close()
        pdf.close()


def _image(rendered: Rendered, doc_id: str, number: int) -> np.ndarray[Any, Any]:
    """The scanned page's embedded image, as stored (not as displayed)."""
    pdf = rendered.pdf(doc_id)
    page = pdf[number - 1]
    try:
        (image,) = [obj for obj in page.get_objects() if obj.type == raw.FPDF_PAGEOBJ_IMAGE]
        return np.asarray(image.get_bitmap().to_pil().convert("L"))
    finally:
        page.close()
        pdf.close()


def test_a_tiers_capture_mode_shares_follow_its_preset() -> None:
    """The shares the tier reference prints: each scanned document counted once, in the mode of
    the level that claims it (scans claim in catalogue order), so they sum to the preset's
    scanned share; a mode drawn by no level of the tier has none, and a --set that moves one
    level moves only its own mode and what it leaves the levels after it."""
    n1, n4, n5 = (capture_mode_shares(tier) for tier in ("N1", "N4", "N5"))
    assert set(n5) == set(MODES)
    assert sum(n1.values()) == 0.0
    assert 0.6 < sum(n4.values()) < sum(n5.values()) <= 1.0
    # N5 is drawn nearly all at one level (presets.py): its mode holds nine documents in ten.
    assert max(n5, key=n5.__getitem__) == "phone_far" and n5["phone_far"] > 0.9, n5
    assert n4["phone_far"] == 0.0 and n4["fax"] > 0.0
    # Counted by hand from N4's knobs: the fax level is drawn after clean and moderate, on
    # what they leave, and is the mode's only level in N4's draw.
    knobs = preset("N4")
    clean, moderate, fax = (
        knobs[f"patterns.scan.{level}"] for level in ("clean", "moderate", "fax")
    )
    assert n4["fax"] == pytest.approx((1 - clean) * (1 - moderate) * fax)


def test_every_scan_level_belongs_to_one_capture_mode() -> None:
    """Each level names a mode of the vocabulary, every mode has a level, and every scan
    pattern of the catalogue scans at levels that have one (scan.mixed and scan.ocr_layer at
    clean or moderate)."""
    assert all(level.mode in MODES for level in LEVELS.values()), {
        name: level.mode for name, level in LEVELS.items() if level.mode not in MODES
    }
    assert {level.mode for level in LEVELS.values()} == set(MODES)
    assert NATIVE not in MODES
    ids = {p.id for p in catalogue() if p.phase == "scan"}
    assert {f"scan.{name}" for name in LEVELS} <= ids
    assert ids - {f"scan.{name}" for name in LEVELS} == {"scan.mixed", "scan.ocr_layer"}


@pytest.mark.parametrize("level", WHOLE)
def test_a_scanned_page_is_one_image_with_no_text(render: Render, level: str) -> None:
    rendered = render("N3", 3, (DOC,), f"scan.{level}")
    record = rendered.applied(DOC, f"scan.{level}")
    assert record is not None
    pages = rendered.manifest(DOC)["pages"]
    assert record["pages_affected"] == list(range(1, pages + 1))
    assert record["phase"] == "scan" and record["truth"] == "none"
    for number in range(1, pages + 1):
        assert rendered.text(DOC, number).strip() == "", "a scan has no text layer"
        assert _page_objects(rendered, DOC, number) == [raw.FPDF_PAGEOBJ_IMAGE]
        how = record["details"]["pages"][str(number)]
        spec = LEVELS[level]
        assert how["level"] == level and how["dpi"] == spec.dpi
        assert how["capture_mode"] == spec.mode == record["details"]["capture_mode"]
        # Off its quarter turn, when it is fed or photographed turned.
        off = abs(how["angle"]) % 90 if spec.turns else abs(how["angle"])
        off = min(off, 90 - off) if spec.turns else off
        assert spec.min_angle <= off <= spec.angle
    # Everything drawn is still rendered (rule 2), now readable from pixels only.
    for path, location in _locations(rendered, DOC):
        assert location["text_layer"] is False, path
        quad = location["quad"]
        assert len(quad) == 8
        assert location["bbox"] == [
            min(quad[0::2]),
            min(quad[1::2]),
            max(quad[0::2]),
            max(quad[1::2]),
        ]
    assert all(entry.get("text_layer") is False for entry in rendered.universe(DOC)["strings"])
    # The truth itself is the plain document's.
    assert rendered.truth(DOC) == render("N3", 3, (DOC,)).truth(DOC)


@pytest.mark.parametrize("level", ("clean", "moderate", "skewed", "degraded"))
def test_boxes_move_exactly_as_the_page_moved(render: Render, level: str) -> None:
    """The quad is the native box carried by the recorded rotation, scale and shift."""
    plain = render("N3", 3, (DOC,))
    scanned = render("N3", 3, (DOC,), f"scan.{level}")
    record = scanned.applied(DOC, f"scan.{level}")
    assert record is not None
    width, height = 612.0, 792.0
    native, moved = _locations(plain, DOC), _locations(scanned, DOC)
    assert [path for path, _ in native] == [path for path, _ in moved]
    for (_, before), (_, location) in zip(native, moved, strict=True):
        how = record["details"]["pages"][str(location["page"])]
        transform = Transform(
            _rotation_about(width / 2, height / 2, how["angle"], how["scale"], *how["shift"])
        )
        expected = transform.quad(before["bbox"])
        assert max(abs(a - b) for a, b in zip(expected, location["quad"], strict=True)) < 0.05


def test_each_level_damages_the_page_its_own_way(render: Render) -> None:
    images = {level: _image(render("N3", 3, (DOC,), f"scan.{level}"), DOC, 1) for level in WHOLE}
    assert set(np.unique(images["fax"]).tolist()) == {0, 255}, "a fax is black and white"
    for level, image in images.items():
        dpi = LEVELS[level].dpi
        # pdfium rounds a bitmap's size up by a pixel at some scales.
        assert abs(image.shape[0] - 792 * dpi / 72) <= 1, level
        assert abs(image.shape[1] - 612 * dpi / 72) <= 1, level

    # Paper is flat on a clean scan, grainy on a degraded one (a blank band of the page).
    def grain(image: np.ndarray[Any, Any]) -> float:
        band = image[
            image.shape[0] * 3 // 4 : image.shape[0] * 4 // 5,
            image.shape[1] // 3 : image.shape[1] * 2 // 3,
        ].astype(np.float64)
        return float(band.std())

    assert grain(images["clean"]) < grain(images["degraded"])
    # A photo shows the desk around the page; a scan shows paper to the edge.
    assert images["photo"][2, 2] < 120 < images["clean"][2, 2]
    scanned = render("N3", 3, (DOC,), "scan.moderate").files[f"{DOC}.pdf"]
    assert b"/DCTDecode" in scanned, "grey scans are embedded as JPEG"


def test_mixed_scans_some_pages_and_leaves_the_others_native(render: Render) -> None:
    doc = "loss_run_pdf"
    rendered = next(
        r
        for seed in range(1, 9)
        if (r := render("N3", seed, (doc,), "scan.mixed")).applied(doc, "scan.mixed")
    )
    record = rendered.applied(doc, "scan.mixed")
    assert record is not None
    pages = set(range(1, rendered.manifest(doc)["pages"] + 1))
    scanned = set(record["pages_affected"])
    assert scanned and scanned < pages
    for number in sorted(pages):
        text = rendered.text(doc, number).strip()
        assert (text == "") == (number in scanned), number
    for path, location in _locations(rendered, doc):
        assert location["text_layer"] is (location["page"] not in scanned), path


@pytest.mark.slow
def test_a_scan_refuses_what_only_a_text_layer_carries(run_cli: Any, tmp_path: Path) -> None:
    result = run_cli(
        "generate",
        "--tiers",
        "N3",
        "--out",
        str(tmp_path / "p"),
        "--set",
        "patterns.only=scan.fax,overlay.redaction",
    )
    assert result.returncode == 2
    assert "scan.fax" in result.stderr and "overlay.redaction" in result.stderr


@pytest.mark.slow
def test_scans_are_byte_identical_across_processes(run_cli: Any, tmp_path: Path) -> None:
    digests = []
    for name, hash_seed in (("a", "0"), ("b", "977")):
        result = run_cli(
            "generate",
            "--tiers",
            "N4",
            "--seed",
            "5",
            "--out",
            str(tmp_path / name),
            "--set",
            "documents=acord_125,loss_run_pdf,sov_pdf",
            "--set",
            "patterns.only=scan.photo",
            env={"PYTHONHASHSEED": hash_seed},
        )
        assert result.returncode == 0, result.stderr
        digests.append(
            {
                p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted((tmp_path / name / "N4-000005").iterdir())
            }
        )
    assert digests[0] == digests[1]
    assert len([n for n in digests[0] if n.endswith(".pdf")]) == 3


@needs_tesseract
@pytest.mark.parametrize("level", ("skewed", "fax"))
@pytest.mark.slow
def test_the_audit_reads_scanned_values_by_ocr(
    run_cli: Any, render: Render, tmp_path: Path, level: str
) -> None:
    rendered = render("N3", 3, (DOC,), f"scan.{level}")
    packet = write(rendered, tmp_path / "N3-000003")
    blind = run_cli("audit", "--packets", str(packet))
    # not verified: it names the command that reads the scans
    assert blind.returncode == 3 and "check them: packetbench audit --ocr " in blind.stdout
    result = run_cli("audit", "--ocr", "--json", "--packets", str(packet))
    assert result.returncode == 0, result.stdout[-3000:]
    totals = json.loads(result.stdout)["totals"]
    fields = totals["scans"][level]["fields"]
    located = len(_locations(rendered, DOC))
    assert fields["checked"] == located
    # Found inside their moved boxes, not merely somewhere on the page.
    assert fields["found"] - fields["found_outside_box"] >= 0.9 * located


@needs_tesseract
@pytest.mark.slow
def test_the_audit_fails_a_scan_ocr_cannot_read(
    run_cli: Any, render: Render, tmp_path: Path
) -> None:
    """Boxes that point at the wrong place are not saved by a lenient OCR check: with one
    value in four changed (every one would cost OCR's every retry on every box, minutes),
    the level's recall falls far below its minimum."""
    rendered = render("N3", 3, (DOC,), "scan.clean")
    packet = write(rendered, tmp_path / "N3-000003")
    truth = packet / f"field_truth_{DOC}.json"
    data = json.loads(truth.read_text())
    for entry in data["fields"][::4]:
        entry["rendered_as"] = entry["rendered_as"][::-1] + "Q"
    truth.write_text(json.dumps(data))
    result = run_cli("audit", "--ocr", "--json", "--packets", str(packet))
    assert result.returncode == 1
    findings = [f for p in json.loads(result.stdout)["packets"] for f in p["findings"]]
    assert any(f["problem"] == "ocr_recall" and f["path"] == "clean" for f in findings)


def test_scanned_pdf_opens_in_pdfium(render: Render) -> None:
    data = render("N3", 3, (DOC,), "scan.degraded").files[f"{DOC}.pdf"]
    pdf = pdfium.PdfDocument(data)
    try:
        assert len(pdf) >= 1
        assert pdf[0].render(scale=0.5).to_pil().size == (306, 396)
    finally:
        pdf.close()


def test_a_photo_drawn_tile_by_tile_follows_its_perspective() -> None:
    """A perspective is drawn by pdfium as affine tiles: together they cover the page once,
    each stays within 0.3 px of the homography; and a photo's page, drawn on paper that is
    not flat (`scan_mesh`), puts dots drawn all over it where its transform puts them."""
    from packetbench.generator.render import scan_draw

    level, width, height = LEVELS["photo"], 612.0, 792.0
    to_pixels = scan_draw._to_pixels(level.dpi / 72, height)
    # The tiles of a photo's perspective, upright and flat (a photo itself is drawn on bent
    # paper, below; far_photo's tiles: test_scan_opt_in_levels.py).
    upright = replace(level, turns=(), curl=0.0, folds=0, fold=0.0)
    for seed in range(40):
        homography, size, tiles = perspective.tiles(upright, seed, width, height)
        covered = np.zeros(size[::-1], dtype=np.int32)
        for (left, top, right, bottom), piece in tiles:
            covered[top:bottom, left:right] += 1
            xs, ys = np.meshgrid(np.linspace(left, right, 9), np.linspace(top, bottom, 9))
            moved = np.vstack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
            source = np.linalg.inv(homography) @ moved
            drawn = piece @ (source / source[2])
            assert np.abs(drawn[:2] - moved[:2]).max() < 0.3, (seed, left, top)
        assert (covered == 1).all()

    # Drawn for real: round dots all over a page (pdfium puts an upright square's edges on
    # whole pixels) land where the transform puts them (the
    # darkness-weighted centre of each dot, to a fraction of a pixel).
    from reportlab.pdfgen import canvas as pdf_canvas

    centres = [(36.0 + 60.0 * i, 30.0 + 61.0 * j) for i in range(10) for j in range(13)]
    sheet = Path(__file__).with_name("_photo_dots.pdf")
    try:
        drawing = pdf_canvas.Canvas(str(sheet), pagesize=(width, height))
        for x, y in centres:
            drawing.circle(x, y, 3, stroke=0, fill=1)
        drawing.save()
        pdf = pdfium.PdfDocument(sheet.read_bytes())
    finally:
        sheet.unlink(missing_ok=True)
    for seed in (3, 11):
        transform, _ = scan_draw.geometry(
            level, np.random.Generator(np.random.PCG64(seed)), width, height
        )
        page = pdf[0]
        dark = 255.0 - np.asarray(
            scan_draw.draw(page, transform, level.dpi, size, 255), dtype=np.float64
        )
        page.close()
        for x, y in centres:
            # Where the transform puts it: the homography, after the paper's curl and fold.
            ((px, py),) = transform.points([(x, y)])
            u, v, w = to_pixels @ np.array([px, py, 1.0])
            cx, cy = u / w, v / w
            left, top = round(cx) - 14, round(cy) - 14
            window = dark[top : top + 29, left : left + 29]
            window = np.where(window > 64, window, 0.0)  # the dot, not the paper's shading
            rows, cols = np.mgrid[top : top + 29, left : left + 29] + 0.5  # pixel centres
            found = ((window * cols).sum() / window.sum(), (window * rows).sum() / window.sum())
            assert math.dist(found, (cx, cy)) < 0.35, (seed, x, y, found, (cx, cy))
    pdf.close()
