"""The audit holds every recorded rung (`legible_from_dpi`) to the rule that decides it
(`audit.rungs`): a rung changed on a native page, a rung missing, a rung on a value not
legible in the file, and, on a scanned page the pixel rule judges, a rung the page's pixels do
not give."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from packetbench.audit import audit_packets
from packetbench.audit.result import RESOLUTION, Finding
from packetbench.core.jsonfile import dump_json
from packetbench.reading import resolution
from tests.audit.test_pixels import generate_scanned
from tests.support.audit import Run, audit_json, edit_json, findings
from tests.support.ocr import needs_tesseract


def _resolution(packet: Path) -> list[Finding]:
    return [f for f in audit_packets([packet]).findings() if f.problem == RESOLUTION]


def _located(data: dict[str, Any], long: bool = True) -> dict[str, Any]:
    """The first field on page 1 (with at least eight characters when `long`)."""
    return next(
        e
        for e in data["fields"]
        if e["locations"][0].get("page") == 1
        and e["kind"] != "checkbox"
        and (not long or len(e["rendered_as"]) >= 8)
    )


def test_the_canonical_packets_rungs_are_the_rules(packet: Path) -> None:
    assert _resolution(packet) == []


def test_a_native_rung_lowered_or_dropped_is_caught(packet: Path) -> None:
    truth = packet / "field_truth_acord_125.json"
    chosen: dict[str, Any] = {}

    def lower(data: dict[str, Any]) -> None:
        entry = _located(data)
        location = entry["locations"][0]
        assert location["legible_from_dpi"] == resolution.legible_from(location["glyph_pt"])
        chosen.update(path=entry["path"], rung=location["legible_from_dpi"])
        location["legible_from_dpi"] = 300 if location["legible_from_dpi"] != 300 else 72

    edit_json(truth, lower)
    (found,) = _resolution(packet)
    assert (found.file, found.path, found.reader) == (truth.name, chosen["path"], "rule")
    assert f"legible from {chosen['rung']} dpi" in found.detail

    def drop(data: dict[str, Any]) -> None:
        entry = next(e for e in data["fields"] if e["path"] == chosen["path"])
        del entry["locations"][0]["legible_from_dpi"]

    edit_json(truth, drop)
    (found,) = _resolution(packet)
    assert found.path == chosen["path"] and "no rung" in found.detail


def test_a_packet_made_before_rungs_is_not_held_to_them(packet: Path) -> None:
    for path in packet.glob("field_truth_*.json"):

        def strip(data: dict[str, Any]) -> None:
            for entry in data["fields"]:
                for location in entry["locations"]:
                    location.pop("legible_from_dpi", None)

        edit_json(path, strip)
    assert _resolution(packet) == []


def test_the_text_report_names_a_wrong_rung(run_cli: Run, packet: Path) -> None:
    edit_json(
        packet / "field_truth_acord_125.json",
        lambda d: _located(d)["locations"][0].update(legible_from_dpi=None),
    )
    result = run_cli("audit", "--packets", str(packet))
    assert result.returncode == 1, result.stderr
    assert any(
        line.strip().startswith("resolution") and "field_truth_acord_125.json" in line
        for line in result.stdout.splitlines()
    ), result.stdout[-3000:]


@needs_tesseract
@pytest.mark.slow
def test_a_scanned_rung_the_pixels_do_not_give_is_caught(run_cli: Run, tmp_path: Path) -> None:
    """A scanned value's rung raised to another rung its type allows passes the size half and
    is caught only by the pixel rule deciding it again on the page (reader `pixel`)."""
    packet = generate_scanned(run_cli, tmp_path, "acord_125", "moderate")
    truth = packet / "field_truth_acord_125.json"
    data = json.loads(truth.read_text())
    entry = _located(data)
    location = entry["locations"][0]
    rung = location["legible_from_dpi"]
    higher = next(r for r in resolution.rungs(170) if r > rung)
    location["legible_from_dpi"] = higher
    # Written as the generator writes it: the pixel rule stands in for OCR only where the truth
    # files are the ones the packet's seed makes (with the packet's own verdicts).
    truth.write_bytes(dump_json(data))
    code, report = audit_json(run_cli, packet, ocr=True)
    wrong = [f for f in findings(report) if f["problem"] == RESOLUTION]
    assert code == 1
    assert [(f["path"], f["reader"], f["expected"], f["got"]) for f in wrong] == [
        (entry["path"], "pixel", str(rung), str(higher))
    ]
    pixels = report["totals"]["pixels"]
    assert pixels["rungs_checked"] > 0
    assert set(pixels["agreement_resolutions"]) <= {"90", "110", "150"}
