"""The audit's second reader (`reading.ppocr`) on boxes drawn with reportlab, rendered by
pypdfium2 and blurred with PIL: it reads small type a blurred scan leaves to a person and that
every tesseract reading of the box misses, reads a value wrapped on two lines in order, and
reads nothing in a blank box."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageFilter

from packetbench.reading import ppocr
from packetbench.reading.boxes import read_crops
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text
from tests.support.ocr import needs_tesseract
from tests.support.rendering import gray_page

DPI = 300
PACKET = Path(__file__).resolve().parents[2] / "packets" / "N1-000001"
VIN_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


def _box(lines: list[str], size: float, blur: float) -> np.ndarray[Any, Any]:
    """`lines` in Helvetica at `size` points in a box of their own, rendered in gray at DPI
    and blurred by a Gaussian of `blur` pixels (a scan out of focus)."""
    from reportlab.pdfgen import canvas

    height = size * 1.3 * len(lines) + 8
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=(220, height))
    pdf.setFont("Helvetica", size)
    for row, text in enumerate(lines):
        pdf.drawString(4, height - 4 - size * (1.3 * row + 1), text)
    pdf.save()
    picture = Image.fromarray(gray_page(out.getvalue(), DPI))
    return np.asarray(picture.filter(ImageFilter.GaussianBlur(blur)))


@needs_tesseract
@pytest.mark.slow  # ~10 s: twelve boxes read by tesseract three ways, sharpened, and by PP-OCR
def test_the_second_engine_reads_blurred_small_type_tesseract_misses() -> None:
    """6-point VINs blurred by 2.2 pixels at 300 dpi (a person reads them, zoomed): every
    tesseract reading of the box alone, sharpened too, reads at most half; PP-OCR nearly all."""
    draw = random.Random(46)
    vins = ["".join(draw.choice(VIN_LETTERS) for _ in range(17)) for _ in range(12)]
    boxes = [_box([vin], 6.0, 2.2) for vin in vins]
    engine = Tesseract()
    plain = read_crops(engine, boxes, DPI, "vins")
    sharp = read_crops(engine, boxes, DPI, "vins", sharpen=True)
    by_tesseract = sum(
        any(same_text(read, vin) for read in (*a, *b))
        for a, b, vin in zip(plain, sharp, vins, strict=True)
    )
    second = ppocr.engine().read_boxes(boxes, DPI, "vins")
    by_ppocr = sum(
        any(same_text(read, vin) for read in readings)
        for readings, vin in zip(second, vins, strict=True)
    )
    assert by_tesseract <= 6 and by_ppocr >= 10, (by_tesseract, by_ppocr, second)


def test_a_value_on_two_lines_is_read_in_order_and_a_blank_box_reads_nothing() -> None:
    wrapped = _box(["Enterprise Fleet", "Management, Inc."], 9.0, 0.6)
    detected, _as_one_line = ppocr.engine().read_box(wrapped, DPI, "wrapped")
    assert same_text(detected, "Enterprise Fleet Management, Inc."), detected
    blank = np.full((60, 400), 252, dtype=np.uint8)
    assert ppocr.engine().read_box(blank, DPI, "blank") == ("", "")


def test_a_box_whose_line_reads_what_is_wanted_is_not_searched_for_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The line is read first; when it reads what the caller wants the detector (most of
    the engine's cost) does not run, and the detected reading is "". Otherwise both run and
    the readings are those without a test."""
    box = _box(["Harbor Freight Lines"], 9.0, 0.6)
    engine = ppocr.engine()
    plain = engine.read_box(box, DPI, "box")
    detected: list[int] = []
    real = ppocr.PpOcr._detected

    def counted(self: ppocr.PpOcr, crop: np.ndarray[Any, Any], source: str) -> str:
        detected.append(1)
        return real(self, crop, source)

    monkeypatch.setattr(ppocr.PpOcr, "_detected", counted)
    assert engine.read_box(box, DPI, "box", lambda line: same_text(line, plain[1])) == (
        "",
        plain[1],
    )
    assert not detected
    assert engine.read_box(box, DPI, "box", lambda line: False) == plain
    assert detected == [1]
    assert same_text(plain[0], "Harbor Freight Lines"), plain


@needs_tesseract  # else tesseract's own usage line comes first
def test_audit_ocr_without_the_second_engine_is_one_line_exit_2(tmp_path: Path) -> None:
    """An engine that does not import (its native libraries missing) stops `audit --ocr`
    before any work: one line naming what is missing, exit 2."""
    shadow = tmp_path / "rapidocr_onnxruntime"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text('raise ImportError("libGL.so.1: cannot open")\n')
    run = subprocess.run(
        [sys.executable, "-m", "packetbench", "audit", "--packets", str(PACKET), "--ocr"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().count("\n") == 0
    assert "--ocr needs PP-OCR (rapidocr-onnxruntime)" in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rapidocr_onnxruntime"]


def test_the_engine_sends_no_telemetry_and_leaves_no_file(tmp_path: Path) -> None:
    """onnxruntime 1.32 starts a telemetry client and writes a session file to the temporary
    folder unless told not to: an engine that has read a box has done neither."""
    code = (
        "import numpy as np; from packetbench.reading import ppocr; "
        "ppocr.engine().read_box(np.zeros((40, 200), np.uint8), 300, 'box'); "
        "import os; print(os.environ['ORT_DISABLE_TELEMETRY'])"
    )
    environ = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**environ, "TMPDIR": str(tmp_path)},
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "1"
    assert list(tmp_path.iterdir()) == []
