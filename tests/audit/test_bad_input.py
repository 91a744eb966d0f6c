"""Unreadable input stops the audit with one line naming the file, and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.audit import audit_packets
from packetbench.core.errors import BadInput
from tests.support.audit import Run, edit_json


def _one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout[-2000:], result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("packetbench: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert result.stdout == ""


def _garble(name: str) -> Callable[[Path], object]:
    return lambda packet: (packet / name).write_bytes(b"\x00garbage, not what it claims to be")


BREAKAGES: dict[str, tuple[Callable[[Path], object], list[str]]] = {
    "missing truth file": (
        lambda p: (p / "field_truth_sov_pdf.json").unlink(),
        ["field_truth_sov_pdf.json: missing"],
    ),
    "corrupt PDF": (_garble("loss_run_pdf.pdf"), ["loss_run_pdf.pdf: unreadable PDF"]),
    "corrupt workbook": (_garble("sov_excel.xlsx"), ["sov_excel.xlsx: unreadable workbook"]),
    "bad JSON": (
        lambda p: (p / "manifest_acord_140.json").write_text('{"doc_id": '),
        ["manifest_acord_140.json: unreadable"],
    ),
    "empty document truth": (
        lambda p: (p / "document_truth_sov_pdf.json").write_bytes(b""),
        ["document_truth_sov_pdf.json: unreadable"],
    ),
    "truncated document truth": (
        lambda p: (p / "document_truth_loss_run_csv.json").write_bytes(
            (p / "document_truth_loss_run_csv.json").read_bytes()[:300]
        ),
        ["document_truth_loss_run_csv.json: unreadable"],
    ),
    "document truth without truth": (
        lambda p: edit_json(p / "document_truth_acord_125.json", lambda d: d.pop("truth")),
        ["document_truth_acord_125.json: not a document_truth file (truth: Field required)"],
    ),
    "malformed location": (
        lambda p: edit_json(
            p / "field_truth_sov_pdf.json", lambda d: d["fields"][0]["locations"][0].pop("bbox")
        ),
        ["field_truth_sov_pdf.json: insured_name: location", "is not {page, bbox"],
    ),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
@pytest.mark.slow
def test_unreadable_input_exits_2_naming_the_file(
    run_cli: Run, packet: Path, breakage: str
) -> None:
    damage, needles = BREAKAGES[breakage]
    damage(packet)
    _one_line_error(run_cli("audit", "--packets", str(packet)), str(packet), *needles)


@pytest.mark.slow
def test_a_folder_that_is_no_packet(run_cli: Run, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a packet")
    _one_line_error(
        run_cli("audit", "--packets", str(tmp_path), "--json"), str(tmp_path), "holds no packets"
    )


@pytest.mark.parametrize(
    ("damage", "needle"),
    [
        (lambda p: (p / "sov_pdf.pdf").unlink(), "sov_pdf.pdf: missing (named by its manifest)"),
        (
            lambda p: (p / "packet_truth.json").write_text("[]"),
            "packet_truth.json: not a packet_truth file",
        ),
        (
            lambda p: edit_json(p / "rendered_universe_sov_pdf.json", lambda d: d.pop("strings")),
            "rendered_universe_sov_pdf.json: not a rendered_universe file (strings: Field",
        ),
        (
            lambda p: edit_json(p / "manifest_sov_pdf.json", lambda d: d.update(format="docx")),
            "manifest_sov_pdf.json: unknown format 'docx'",
        ),
        (
            lambda p: edit_json(
                p / "manifest_sov_pdf.json",
                lambda d: d.update(
                    patterns_applied=[{"id": "scan.fax", "phase": "scan", "pages_affected": "all"}]
                ),
            ),
            "manifest_sov_pdf.json: not a manifest file (patterns_applied.0.pages_affected: ",
        ),
    ],
)
def test_more_unreadable_packets(
    packet: Path, damage: Callable[[Path], object], needle: str
) -> None:
    damage(packet)
    with pytest.raises(BadInput) as raised:
        audit_packets([packet])
    assert needle in str(raised.value)


def test_a_path_that_does_not_exist(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="not a folder"):
        audit_packets([tmp_path / "nowhere"])


@pytest.mark.slow
def test_ocr_without_tesseract_is_one_line(run_cli: Run, packet: Path, tmp_path: Path) -> None:
    # Only the interpreter's own folder on PATH: no tesseract there.
    bin_dir = Path(sys.executable).parent
    assert not (bin_dir / "tesseract").exists()
    env = {"PATH": str(bin_dir), "HOME": os.environ.get("HOME", str(tmp_path))}
    _one_line_error(
        run_cli("audit", "--packets", str(packet), "--ocr", env=env),
        "--ocr needs the tesseract binary",
        "apt-get install tesseract-ocr",
    )
