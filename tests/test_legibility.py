"""The one legibility rule (packetbench.legibility) on real pages: a canonical page scanned by the
generator's own scanner is judged box by box against the same page drawn clean under the
scan's recorded transform."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageFilter

from packetbench.generator.render import scan
from packetbench.legibility import (
    DAMAGED_VERDICT,
    INTACT_VERDICT,
    UNDECIDED_VERDICT,
    box_pixels,
    judge,
)
from tests.support.paths import PACKETS

DOC = "acord_125"  # a form: labels, ruled boxes, short and long values


def _scanned(level: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], list[list[float]]]:
    """Page 1 of the canonical N1 acord_125 scanned at `level`: the scanned pixels, the clean
    pixels, and every located value's quad on the scanned page."""
    folder = PACKETS / "N1-000001"
    pdf = scan.open_pdf((folder / f"{DOC}.pdf").read_bytes())
    try:
        page = scan.scan_page(pdf, 0, scan.LEVELS[level], 20261123)
        clean = scan.clean_page(pdf, 0, scan.LEVELS[level], page.details["matrix"])
    finally:
        pdf.close()
    scanned = np.asarray(Image.open(io.BytesIO(page.image)).convert("L"))
    fields = json.loads(Path(folder / f"field_truth_{DOC}.json").read_text())["fields"]
    quads = [
        page.transform.quad(location["bbox"])
        for entry in fields
        if entry.get("kind") != "checkbox"
        for location in entry["locations"]
        if location.get("page") == 1
    ]
    return scanned, clean, quads


def _boxes(
    shape: tuple[int, ...], level: str, quads: list[list[float]]
) -> list[tuple[int, int, int, int]]:
    height = 792.0  # the canonical forms are US Letter, portrait
    found = [box_pixels(q, scan.LEVELS[level].dpi, height, shape) for q in quads]
    return [b for b in found if b is not None]


def _optics(level: str) -> bool:
    """A level whose optics change every glyph (blur, motion blur, toner spread): its clean
    side has none of them, so the rule may leave some of its boxes to OCR."""
    found = scan.LEVELS[level]
    return bool(found.blur or found.motion or found.thicken)


@pytest.mark.parametrize("level", sorted(scan.LEVELS))
def test_every_value_of_an_undamaged_scan_is_intact(level: str) -> None:
    scanned, clean, quads = _scanned(level)
    assert scanned.shape == clean.shape
    boxes = _boxes(clean.shape, level, quads)
    assert len(boxes) > 40
    verdicts = [judge(clean[t:b, left:r], scanned[t:b, left:r]).verdict for left, t, r, b in boxes]
    # A box with no ink to compare (none on this page) would be undecided, never damaged.
    assert verdicts.count(DAMAGED_VERDICT) == 0
    if _optics(level):
        # Blurred or thickened glyphs correlate less with their sharp selves: undecided
        # (OCR reads them), never damaged; most still pass as intact (measured: 29-44 of 46).
        assert verdicts.count(INTACT_VERDICT) >= len(verdicts) // 2, verdicts
    else:
        assert verdicts.count(INTACT_VERDICT) == len(verdicts), verdicts


def test_a_painted_over_or_blurred_value_is_not_intact() -> None:
    scanned, clean, quads = _scanned("moderate")
    boxes = _boxes(clean.shape, "moderate", quads)
    left, top, right, bottom = max(boxes, key=lambda b: b[2] - b[0])  # the widest value
    crop = (slice(top, bottom), slice(left, right))
    painted = scanned.copy()
    painted[crop] = 244  # white-out: the level's paper
    assert judge(clean[crop], painted[crop]).verdict == DAMAGED_VERDICT
    half = scanned.copy()
    half[top:bottom, left : (left + right) // 2] = 20  # a bar over the first half
    assert judge(clean[crop], half[crop]).verdict == DAMAGED_VERDICT
    mush = np.asarray(
        Image.fromarray(np.ascontiguousarray(scanned[crop])).filter(ImageFilter.GaussianBlur(6))
    )
    assert judge(clean[crop], mush).verdict in (DAMAGED_VERDICT, UNDECIDED_VERDICT)
    assert judge(clean[crop], scanned[crop]).verdict == INTACT_VERDICT


def test_a_box_without_ink_is_left_to_ocr() -> None:
    blank = np.full((30, 120), 244, dtype=np.uint8)
    assert judge(blank, blank).verdict == UNDECIDED_VERDICT
    with pytest.raises(ValueError, match="differ in shape"):
        judge(blank, blank[:, :10])
