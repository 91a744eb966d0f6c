"""overlay.blot: values damaged past reading on scanned pages (docs/patterns.md rule 3b). The rule
marks the blotted box illegible and its neighbour legible; real Tesseract agrees; the truth
files expect abstention for the destroyed value and keep everything else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from packetbench.reading.legibility import box_pixels
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text
from tests.support.boxes import overlaps as _overlaps
from tests.support.ocr import needs_tesseract
from tests.support.rendering import Render, Rendered

DOC = "acord_125"
PATTERNS = "scan.clean,overlay.blot"
DPI = 200  # scan.clean's resolution: the page is drawn back at it, pixel for pixel


def _blotted(render: Render) -> Rendered:
    return render("N5", 3, (DOC,), PATTERNS)


def _get(data: Any, path: str) -> Any:
    import re

    for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        data = data[int(index)] if index else data[key]
    return data


def test_a_blotted_value_expects_abstention(render: Render) -> None:
    rendered = _blotted(render)
    applied = rendered.applied(DOC, "overlay.blot")
    assert applied is not None and applied["truth"] == "illegible"
    fields, truth, universe = rendered.fields(DOC), rendered.truth(DOC), rendered.universe(DOC)
    illegible = [path for path, entry in fields.items() if entry.get("illegible")]
    assert illegible and set(illegible) <= set(applied["targets"])
    assert all(applied["ground_truth_delta"][p]["illegible"] for p in illegible)
    listed = {entry["path"]: entry for entry in universe["illegible"]}
    assert set(listed) == set(illegible)
    for path in illegible:
        entry = fields[path]
        assert _get(truth, path) is None  # abstention expected
        assert all(loc["legible"] is False for loc in entry["locations"])
        shown = listed[path]
        assert shown["text"] == entry["rendered_as"] and shown["value"] == entry["value"]
        on_page = [s["text"] for s in universe["strings"] if s["page"] == shown["page"]]
        assert entry["rendered_as"] not in on_page  # out of the universe
    # Every other value keeps its truth and every PDF location says legible.
    legible = [p for p in fields if p not in illegible]
    assert len(legible) > 40
    for path in legible:
        assert all(loc["legible"] is True for loc in fields[path]["locations"])
        assert _get(truth, path) is not None


def _read(image: np.ndarray[Any, Any]) -> str:
    """Tesseract's reading of one box, set on a white sheet as one line (psm 7)."""
    sheet = np.full((image.shape[0] + 80, image.shape[1] + 80), 255, dtype=np.uint8)
    sheet[40:-40, 40:-40] = image
    words = Tesseract().words(sheet, DPI, "test_blot", psm="7")
    return " ".join(word.text for word in words)


def _likeness(read: str, value: str) -> float:
    """How much of `value` a reading holds, 0 to 1 (difflib's ratio, case and spaces aside)."""
    from difflib import SequenceMatcher

    def plain(text: str) -> str:
        return "".join(text.lower().split())

    return SequenceMatcher(None, plain(read), plain(value)).ratio()


@needs_tesseract
def test_tesseract_cannot_read_the_blotted_value_and_reads_its_neighbour(
    render: Render,
) -> None:
    rendered = _blotted(render)
    fields = rendered.fields(DOC)
    path = next(p for p, entry in fields.items() if entry.get("illegible"))
    target = fields[path]
    (location,) = target["locations"]
    page = location["page"]
    pdf = rendered.pdf(DOC)
    try:
        height = float(pdf[page - 1].get_size()[1])
        image = np.asarray(
            pdf[page - 1].render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
        )
    finally:
        pdf.close()
    box = box_pixels(location["quad"], DPI, height, image.shape, margin=2.0)
    assert box is not None
    # The nearest legible value of a few characters that the blot does not reach.
    neighbours = []
    for other, entry in fields.items():
        if other == path or entry.get("illegible") or len(entry["rendered_as"]) < 4:
            continue
        for loc in entry["locations"]:
            near = box_pixels(loc["quad"], DPI, height, image.shape, margin=2.0)
            if loc["page"] == page and near is not None and not _overlaps(box, near, 12):
                distance = abs(near[1] - box[1]) + abs(near[0] - box[0]) / 4
                neighbours.append((distance, other, near))
    neighbours.sort()
    assert neighbours
    left, top, right, bottom = box
    read = _read(image[top:bottom, left:right])
    assert not same_text(read, target["rendered_as"]), read
    # What it makes of the blot's mottle shares next to nothing with the value.
    assert _likeness(read, target["rendered_as"]) < 0.5, (read, target["rendered_as"])
    # Beside it, the page reads as drawn: the first of the nearest values Tesseract reads.
    readings = []
    for _, other, (left, top, right, bottom) in neighbours[:5]:
        got = _read(image[top:bottom, left:right])
        readings.append((fields[other]["rendered_as"], got))
        if same_text(got, fields[other]["rendered_as"]):
            break
    else:
        pytest.fail(f"no neighbour read: {readings}")


@pytest.mark.slow
def test_blotted_packets_are_byte_identical_across_jobs(tmp_path: Path) -> None:
    """The legibility verdicts come from pixels, which are deterministic: one worker or two,
    the same bytes, blots and illegible truth included."""
    import hashlib
    import subprocess

    from tests.support.paths import cli_path

    digests = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        subprocess.run(
            [
                *(cli_path(), "generate", "--tiers", "N5", "--seed", "3", "--count", "2"),
                *("--jobs", jobs, "--out", str(out), "--set", "documents=acord_125"),
                *("--set", "patterns.only=scan.clean,overlay.blot"),
            ],
            check=True,
            capture_output=True,
            timeout=600,
        )
        digests.append(
            {
                str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(out.rglob("*"))
                if p.is_file()
            }
        )
    assert digests[0] == digests[1]
    illegible = [
        entry
        for path in (tmp_path / "1").rglob("rendered_universe_*.json")
        for entry in json.loads(path.read_text())["illegible"]
    ]
    assert illegible


def _judged(rendered: Rendered, folder: Path, doc_id: str) -> dict[str, list[tuple[str, bool]]]:
    """Every scanned location of `doc_id` judged again as the audit judges it (the document
    rebuilt clean from its seed, each box cut by `legibility.cut`): path -> (verdict, the
    generator's legible flag) per location."""
    import pypdfium2 as pdfium

    from packetbench.audit.pixels import pixel_pages
    from packetbench.truth.documents import read_packet
    from tests.support.rendering import write

    packet = read_packet(write(rendered, folder))
    (doc,) = [d for d in packet.documents if d.doc_id == doc_id]
    pdf = pdfium.PdfDocument(doc.file)
    try:
        pages, why = pixel_pages(doc, packet.truth, pdf)
    finally:
        pdf.close()
    assert not why and pages
    out: dict[str, list[tuple[str, bool]]] = {}
    for entry in doc.fields:
        for location in entry["locations"]:
            page = pages.get(location.get("page"))
            if page is not None and "quad" in location:
                verdict = page.box_verdict(location["quad"]).verdict
                out.setdefault(entry["path"], []).append((verdict, location["legible"]))
    return out


# A dense table of long values (VINs, 16-17 characters in rows 10-12 points apart) on a page
# turned or fed crooked: packets (N5, these seeds, ACORD 23 with only the level and blots on)
# where a blot grown as an upright box reached the boxes beside its own, or the generator,
# judging a box's upright rectangle, called a neighbour of a blot illegible.
BLOT_CASES = (("crooked", 3), ("rotated", 5), ("rotated", 8), ("reduced", 8))


@pytest.mark.parametrize(("level", "seed"), BLOT_CASES)
def test_a_blot_destroys_its_value_and_nothing_else(
    render: Render, tmp_path: Path, level: str, seed: int
) -> None:
    """On a crooked, turned or reduced page a blot lies along its value and stops short of
    every other value's box: the values it destroys are exactly the blotted ones (nothing is
    left half under a blot, neither legible nor not), and every other box of the page is
    intact by the rule as the audit cuts it, so the generator's flags and the audit's
    verdicts agree box by box. A blot drawn as the upright box of a crooked VIN (the box grown
    by a fifth of its pixel height, that height being the tilt's) covered most of the row
    beside it (N5 seed 6601's ACORD 23: vehicles[1].vin under vehicles[0].vin's blot)."""
    rendered = render("N5", seed, ("acord_23",), f"scan.{level},overlay.blot")
    applied = rendered.applied("acord_23", "overlay.blot")
    assert applied is not None
    blotted = set(applied["ground_truth_delta"])
    assert blotted
    judged = _judged(rendered, tmp_path, "acord_23")
    assert len(judged) > 40
    for path, verdicts in judged.items():
        for verdict, legible in verdicts:
            if path in blotted:
                assert (verdict, legible) == ("damaged", False), path
            else:
                assert (verdict, legible) == ("intact", True), (path, verdict, legible)


def test_a_blot_lies_along_its_value() -> None:
    """`damage.blot` on a box turned 7 degrees: every pixel of the box is under the blot, and
    nothing further than the stated growth (BLOT_GROW of its height, one pixel for the
    rounding) beyond it is touched, so a row 1.3 box heights away keeps every pixel."""
    import math

    from packetbench.generator.render import damage

    pixels = np.full((200, 400), 255, dtype=np.uint8)
    angle = math.radians(7.0)
    ux, uy = math.cos(angle), -math.sin(angle)  # along the line (image rows grow downwards)
    vx, vy = -uy, ux  # down the glyphs... then up is the opposite
    length, tall = 220.0, 20.0
    x0, y0 = 80.0, 140.0
    corners = [
        (x0, y0),
        (x0 + length * ux, y0 + length * uy),
        (x0 + length * ux - tall * vx, y0 + length * uy - tall * vy),
        (x0 - tall * vx, y0 - tall * vy),
    ]
    damage.blot(pixels, corners, np.random.Generator(np.random.PCG64(1)))
    ys, xs = np.mgrid[0:200, 0:400]
    px, py = xs + 0.5 - x0, ys + 0.5 - y0
    along = px * ux + py * uy
    up = -(px * vx + py * vy)
    inside = (along >= 1) & (along <= length - 1) & (up >= 1) & (up <= tall - 1)
    assert (pixels[inside] < 64).all()
    grow = damage.BLOT_GROW * tall + 1.5
    beyond = (along < -grow) | (along > length + grow) | (up < -grow) | (up > tall + grow)
    assert (pixels[beyond] == 255).all()
    # The row below, 1.3 box heights down: untouched.
    below = (along >= 0) & (along <= length) & (up <= -0.3 * tall) & (up >= -1.3 * tall)
    assert (pixels[below] == 255).all()
