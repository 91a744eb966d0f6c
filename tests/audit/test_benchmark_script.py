"""`benchmarks/audit.py --ocr-only`: the OCR audit's speed beside its two floors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.audit.test_ocr import rasterize
from tests.support.ocr import needs_tesseract
from tests.support.paths import ROOT


@pytest.mark.slow  # two OCR passes of a page and a subprocess: ~10 s idle, 40 s at load 20
@needs_tesseract
def test_the_ocr_audit_is_measured_beside_both_floors(packet: Path) -> None:
    rasterize(packet, "sov_pdf")  # one page that only OCR can read
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "audit.py"), "--ocr-only", str(packet)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("packet"))
    assert header.split() == [
        "packet",
        "OCR",
        "pages",
        "audit",
        "full",
        "audit",
        "pixel",
        "pixel/full",
        "whole-page",
        "OCR",
        "clean",
        "render",
        "same",
        "findings",
        "misses",
        "full/pixel/both",
    ]
    row = next(line for line in lines if line.startswith("N1-000001")).split()
    pages, full, pixel = int(row[1]), float(row[2]), float(row[3])
    whole, render = float(row[5]), float(row[6])
    # One page; a render is far cheaper than OCR, and the audit does at least one OCR (the
    # page was rasterized by the test, not scanned by the generator: no transform to judge
    # it by, so the pixel-first audit reads it by OCR too, with the same findings).
    assert pages == 1 and 0 < full <= whole * 1.2 and 0 < pixel <= whole * 1.2
    assert render > 5 * whole and row[7] == "yes"
    assert row[8].split("/")[1] == "0"  # no miss only the fast path has


def _script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "audit.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_packet_without_ocr_pages_is_named_not_measured(packet: Path) -> None:
    """The fast tier's check of the script (no OCR run): the canonical N1 packet has a text
    layer on every page, so its row says no page needs OCR (no rate divided by zero pages)
    under the table's header; --jobs below 1 is refused by the parser (exit 2, one line)."""
    result = _script("--ocr-only", str(packet))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("packet"))
    assert header.split()[:4] == ["packet", "OCR", "pages", "audit"]
    row = next(line for line in lines if line.startswith("N1-000001"))
    assert row.split() == ["N1-000001", "0", "(no", "page", "needs", "OCR)"]
    assert "0 page(s) of the calibration sample read whole" in result.stdout
    refused = _script("--ocr-only", "--jobs", "0", str(packet))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().splitlines()[-1].endswith("--jobs must be at least 1, not 0")
