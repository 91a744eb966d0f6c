"""A page fed into the scanner sideways or upside down (`scan.rotated`) is turned back before
the audit's OCR reads it: its located values are read, not lost (the naive
whole-page baseline reads such a page at about an eighth; the audit must read it as it reads
any other scan)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from packetbench.audit import audit_packets
from packetbench.generator.packet import write_packet
from packetbench.generator.tiers import resolve
from packetbench.reading.located import page_turn
from tests.support.ocr import needs_tesseract


def _quad(angle: float, width: float = 60.0, height: float = 10.0) -> list[float]:
    """A box's corners (lower-left, lower-right, upper-right, upper-left) turned by `angle`
    degrees about the origin."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    corners = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    return [v for x, y in corners for v in (x * c - y * s, x * s + y * c)]


@pytest.mark.parametrize("angle", [0.0, 2.5, -3.0, 90.0, 91.2, 180.0, -179.4, 179.6, 270.0])
def test_the_turn_of_a_page_is_read_in_every_direction(angle: float) -> None:
    boxes = [(0, _quad(angle + wobble), (0, 0), False) for wobble in (-0.2, 0.0, 0.1, 0.3)]
    turned = page_turn(boxes)
    difference = (turned - angle + 180.0) % 360.0 - 180.0
    assert abs(difference) < 0.35, (angle, turned)
    assert -180.0 <= turned < 180.0


@needs_tesseract
@pytest.mark.slow
def test_the_audit_reads_pages_fed_turned(tmp_path: Path) -> None:
    """An ACORD 125 and an SOV scanned turned by 90, 180 or 270 degrees: OCR (the full mode,
    every page read by tesseract) reads at least 95 % of their located values."""
    knobs = resolve(
        "N3", {"documents": ("acord_125", "sov_pdf"), "patterns.only": ("scan.rotated",)}
    )
    write_packet(tmp_path, "N3", 3, knobs)
    result = audit_packets([tmp_path], ocr=True, ocr_mode="full")
    tally = result.totals()["scans"]["rotated"]["fields"]
    assert tally["checked"] > 300
    assert tally["found"] >= 0.95 * tally["checked"], tally


@needs_tesseract
@pytest.mark.slow
@pytest.mark.parametrize("level", ["rotated", "crooked", "reduced"])
def test_a_reader_without_restoration_cannot_read_what_the_audit_reads(
    tmp_path: Path, level: str
) -> None:
    """The difficulty these levels claim is real: on an SOV so scanned (N3, seed 2: its pages
    fed upside down, sideways or crooked), the difficulty card's naive baseline (tesseract on
    the whole page, nothing turned back or evened out) reads under half of the located values
    that the same pages read as the audit reads them (`restored`) give back at 95 % or more."""
    from packetbench.benchmark.difficulty import difficulty_card

    knobs = resolve("N3", {"documents": ("sov_pdf",), "patterns.only": (f"scan.{level}",)})
    write_packet(tmp_path, "N3", 2, knobs)
    # The naive and restored readers only: the careful ones (the card's default) are not
    # what this test measures, and would double its OCR.
    (row,) = difficulty_card([tmp_path], ocr_sample=100, readers=()).tiers
    assert row["image_page_share"] == 1.0 and row["ocr_located_values"] > 100
    assert row["restored_ocr_recovered_share"] >= 0.95, row
    assert row["ocr_recovered_share"] < 0.5, row
