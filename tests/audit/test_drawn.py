"""Where the pixel audit judges a visible string (`audit.drawn`): found in its native page's
text layer as whole words, in the box the value's own location records."""

from __future__ import annotations

import json
from typing import Any

import pypdfium2 as pdfium

from packetbench.audit.drawn import drawn_text
from tests.support.paths import PACKETS

PACKET = PACKETS / "N1-000001"


def _inside(inner: list[float], outer: list[float], slack: float = 1.0) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _page_one() -> Any:
    """The drawn text of page 1 of the canonical N1 ACORD 125."""
    pdf = pdfium.PdfDocument(PACKET / "acord_125.pdf")
    try:
        drawn = drawn_text(pdf, 0)
    finally:
        pdf.close()
    assert drawn is not None
    return drawn


def test_a_value_s_line_is_found_in_its_recorded_box() -> None:
    """Every value drawn whole on page 1 of the ACORD 125 (a native page: its text layer is
    the one the audit's rebuild reads on a scan's native side) is found where its location
    says, among the places `find` gives for its text."""
    fields = json.loads((PACKET / "field_truth_acord_125.json").read_text())["fields"]
    drawn = _page_one()
    checked = 0
    for entry in fields:
        for location in entry["locations"]:
            if location["page"] != 1 or "fragment" in location or not entry["rendered_as"]:
                continue
            if not any(c.isalnum() for c in entry["rendered_as"]):
                continue
            places = drawn.find(entry["rendered_as"], limit=64)
            assert any(_inside(p, location["bbox"]) for p in places), (entry["path"], places)
            checked += 1
    assert checked >= 30


def test_a_string_is_matched_as_whole_words_only() -> None:
    """Letters inside a longer word are no place of a string: "GEN" is in "AGENCY" five
    times on the page and drawn nowhere on its own; "AGENCY" itself is found each time."""
    drawn = _page_one()
    assert drawn.compact.count("GEN") >= 5 and drawn.find("GEN", limit=64) == []
    assert drawn.compact.count("AME") >= 4 and drawn.find("AME", limit=64) == []
    assert len(drawn.find("AGENCY", limit=64)) == drawn.compact.count("AGENCY")
    assert drawn.find("") == []
    assert drawn.find("no such string anywhere") == []
