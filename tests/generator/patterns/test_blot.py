"""overlay.blot: values damaged past reading on scanned pages (docs/patterns.md rule 3b). The rule
marks the blotted box illegible and its neighbour legible; real Tesseract agrees; the truth
files expect abstention for the destroyed value and keep everything else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from packetbench.benchmark.audit.ocr import Tesseract, same_text
from packetbench.legibility import box_pixels
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


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int], grow: int) -> bool:
    return not (
        a[2] + grow <= b[0] or b[2] + grow <= a[0] or a[3] + grow <= b[1] or b[3] + grow <= a[1]
    )


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
    assert not any(ch.isalnum() for ch in read) or len(read) < len(target["rendered_as"]) / 2
    # Beside it, the page reads as drawn: the first of the nearest values Tesseract reads.
    readings = []
    for _, other, (left, top, right, bottom) in neighbours[:5]:
        got = _read(image[top:bottom, left:right])
        readings.append((fields[other]["rendered_as"], got))
        if same_text(got, fields[other]["rendered_as"]):
            break
    else:
        pytest.fail(f"no neighbour read: {readings}")


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
