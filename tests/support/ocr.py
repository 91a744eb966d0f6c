"""Tests that read pixels with Tesseract."""

from __future__ import annotations

import os
import shutil

import pytest

# CI sets PACKETBENCH_REQUIRE_OCR so a missing tesseract fails these tests instead of
# skipping them.
needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None and not os.environ.get("PACKETBENCH_REQUIRE_OCR"),
    reason="tesseract is not installed (Debian/Ubuntu: apt-get install tesseract-ocr)",
)
