"""`audit --ocr --ocr-sample`: every packet's text layer read, OCR on a seeded sample of them.

The corpus is four small N3 packets, each one statement of values on a scanned page (the
scan's located values are what only OCR, or the pixel rule it calibrates, can check)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packetbench.audit.sample import OCR_SAMPLE, SampleSize, ocr_default
from packetbench.generator.packet import build_packet, packet_id
from packetbench.generator.tiers import resolve
from tests.support.audit import Run
from tests.support.ocr import needs_tesseract

SEEDS = range(1, 5)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scanned")
    knobs = resolve("N3", {"documents": ("sov_pdf",), "patterns.only": ("scan.clean",)})
    for seed in SEEDS:
        folder = root / packet_id("N3", seed)
        folder.mkdir()
        for name, data in build_packet("N3", seed, knobs).files.items():
            (folder / name).write_bytes(data)
    return root


@needs_tesseract
@pytest.mark.slow  # ~30 s: one packet's scanned pages judged and calibrated by OCR
def test_ocr_reads_its_sample_and_the_others_are_covered_by_its_bound(
    run_cli: Run, corpus: Path
) -> None:
    result = run_cli("audit", "--packets", str(corpus), "--ocr", "--ocr-sample", "1", "--json")
    assert result.returncode == 0, result.stderr  # passed: nothing is wrong
    report = json.loads(result.stdout)
    assert report["status"] == "passed"
    sample = report["ocr_sample"]
    assert sample["population"] == len(SEEDS) and sample["drawn"] == 1
    (read,) = sample["packets"]
    by_id = {p["packet_id"]: p for p in report["packets"]}
    # The packet OCR read has its scan checked; every other has it not checked, by design.
    assert not [f for f in by_id[read]["findings"] if f["problem"] == "not_checked"]
    assert by_id[read]["calibration"]["boxes"] > 0
    for other in set(by_id) - {read}:
        assert by_id[other]["calibration"] is None
    assert report["totals"]["fields_not_checked"] > 0
    bounds = {b["problem"]: b for b in report["ocr_bounds"]}
    assert "not_checked" not in bounds
    assert bounds["missing"]["packets_sampled"] == 1
    assert bounds["missing"]["rate_upper_95"] == 1.0  # 3/1: one packet bounds nothing

    human = run_cli("audit", "--packets", str(corpus), "--ocr", "--ocr-sample", "1").stdout
    flat = " ".join(human.split())
    drawn = "(--ocr-sample 1, seed 0; by tier: N3 1 of 4)"
    assert f"ocr-sample: 1 of 4 packets drawn at random {drawn}" in flat, human
    assert "Upper 95 % bound on the share of the audited packets, read by OCR," in flat
    verdict = flat[flat.index("audit passed: ") :]
    assert "OCR read 1 of them, the others' " in verdict, verdict
    assert "are covered by the bound above" in verdict


def test_ocr_sample_without_ocr_is_one_line_and_exit_2(run_cli: Run) -> None:
    canonical = Path(__file__).resolve().parents[2] / "packets"
    result = run_cli("audit", "--packets", str(canonical), "--ocr-sample", "1")
    assert result.returncode == 2
    assert result.stderr == (
        "packetbench: error: --ocr-sample reads a sample with OCR: give --ocr too\n"
    )
    assert result.stdout == ""


def test_auto_reads_all_up_to_the_rule_and_a_sample_above() -> None:
    assert ocr_default(OCR_SAMPLE) == SampleSize()
    assert ocr_default(OCR_SAMPLE + 1) == SampleSize(count=OCR_SAMPLE)
