"""The audit proves both sides of docs/patterns.md rule 3b on a blotted scan: the legible values are
read, the illegible ones are not recoverable by OCR, and their truth is null. A generator that
lies (a readable box marked illegible, a value left in the truth) is caught."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from packetbench.audit import audit_packets
from packetbench.audit.result import ILLEGIBLE_READABLE, INTEGRITY
from packetbench.cli.audit import _report
from packetbench.generator.packet import build_packet
from packetbench.generator.tiers import resolve
from tests.support.audit import edit_json
from tests.support.ocr import needs_tesseract
from tests.support.rendering import Rendered, write

DOC = "acord_125"


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    overrides: dict[str, Any] = {
        "documents": (DOC,),
        "patterns.only": ("scan.clean", "overlay.blot"),
    }
    return build_packet("N5", 3, resolve("N5", overrides)).files


@pytest.fixture
def packet(files: dict[str, bytes], tmp_path: Path) -> Path:
    return write(Rendered(files), tmp_path / "N5-000003")


def _illegible(packet: Path) -> list[str]:
    import json

    fields = json.loads((packet / f"field_truth_{DOC}.json").read_text())["fields"]
    return [entry["path"] for entry in fields if entry.get("illegible")]


@needs_tesseract
@pytest.mark.slow
def test_the_audit_confirms_illegible_values_unreadable(
    packet: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    illegible = _illegible(packet)
    assert illegible
    result = audit_packets([packet], ocr=True)
    assert result.ok, [f.to_json() for f in result.findings()]
    totals = result.totals()
    assert totals["illegible_values_confirmed"] == len(illegible)
    assert totals["illegible_boxes_confirmed"] >= len(illegible)
    assert totals["fields_found"] == totals["fields_checked"] > 40
    _report(result, f"--packets {packet}")  # what `packetbench audit --ocr` prints
    (line,) = [s for s in capsys.readouterr().out.splitlines() if s.startswith("Illegible: ")]
    assert f"{totals['illegible_boxes_confirmed']:,} box(es)" in line
    assert f"the only locations of {len(illegible):,} value(s)" in line


@needs_tesseract
@pytest.mark.slow
def test_a_readable_box_marked_illegible_is_caught(packet: Path) -> None:
    """The generator lies: a value that reads fine is said to be legible nowhere."""
    chosen: list[str] = []

    def lie(data: dict[str, Any]) -> None:
        entry = next(
            e
            for e in data["fields"]
            if not e.get("illegible")
            and len(e["locations"]) == 1
            and re.fullmatch(r"[A-Za-z]{6,}", e["rendered_as"])
        )
        entry["locations"][0]["legible"] = False
        chosen.append(entry["path"])

    edit_json(packet / f"field_truth_{DOC}.json", lie)
    result = audit_packets([packet], ocr=True)
    found = [f for f in result.findings() if f.problem == ILLEGIBLE_READABLE]
    assert [f.path for f in found] == chosen


def test_an_illegible_value_left_in_the_truth_is_caught(packet: Path) -> None:
    (path, *_) = _illegible(packet)

    def put_back(data: dict[str, Any]) -> None:
        node: Any = data["truth"]
        keys = re.findall(r"([^.\[\]]+)|\[(\d+)\]", path)
        for key, index in keys[:-1]:
            node = node[int(index)] if index else node[key]
        key, index = keys[-1]
        node[int(index) if index else key] = "legible after all"

    edit_json(packet / f"document_truth_{DOC}.json", put_back)
    result = audit_packets([packet])
    found = [
        f
        for f in result.findings()
        if f.problem == INTEGRITY and f.path == path and "illegible" in f.detail
    ]
    assert len(found) == 1, [f.to_json() for f in result.findings()]
