"""The legibility rule at a delivered resolution (`packetbench.reading.resolution`): the size
and blur half, the pixel half on a page resized as delivered, the rungs, and what the truth
records."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from packetbench.generator.render import scan_levels
from packetbench.reading import resolution
from tests.support.paths import PACKETS


def test_the_rungs_stop_at_the_files_own_resolution() -> None:
    assert resolution.rungs(None) == resolution.LADDER
    assert resolution.rungs(260) == (72, 90, 96, 110, 150, 200, 260)
    assert resolution.rungs(150) == (72, 90, 96, 110, 150)
    assert resolution.rungs(120) == (72, 90, 96, 110, 120)


def test_type_must_stand_seven_pixels_tall() -> None:
    # 5.25 points at 96 dpi is exactly 7 pixels; a hair less is not legible there.
    assert resolution.size_readable(5.25, 96)
    assert not resolution.size_readable(5.2, 96)
    assert resolution.legible_from(5.25) == 96
    assert resolution.legible_from(5.2) == 110
    assert resolution.legible_from(8.0) == 72
    # The smallest type drawn (microtext, 2.2 points) is legible only on the top rung.
    assert resolution.legible_from(2.2) == 300
    # A mark is not type: a checkbox counts from the lowest rung.
    assert resolution.legible_from(None) == 72


def test_a_scans_blur_carried_to_the_rung_can_push_it_up() -> None:
    # Sharp type 8 points tall on a page scanned at 200 dpi is legible at 72 dpi...
    assert resolution.legible_from(8.0, file_dpi=200) == 72
    # ...unless the scan's blur, carried to the rung with the resampling's half pixel, covers
    # more than 0.3 of the type's height there.
    assert not resolution.size_readable(8.0, 72, 200, blur=6.0)
    assert resolution.legible_from(8.0, file_dpi=200, blur=6.0) > 72
    # A value too small for every rung below the file's resolution is legible from the file's.
    assert resolution.legible_from(2.5, file_dpi=260) == 260


def test_delivered_is_an_area_mean_to_the_rungs_size() -> None:
    image = np.zeros((300, 200), dtype=np.uint8)
    image[:, 100:] = 255
    sent = resolution.delivered(image, 300, 150)
    assert sent.shape == (150, 100)
    assert sent[0, 49] == 0 and sent[0, 50] == 255  # an edge on a pixel boundary stays sharp
    odd = resolution.delivered(image, 300, 100)
    assert odd.shape == (100, 67)
    # The pixel straddling the edge covers half black, half white: its mean.
    assert set(np.unique(odd[:, 33])) == {128}
    assert resolution.delivered(image, 300, 300) is image


def test_the_pixel_half_finds_a_box_painted_over_at_every_rung() -> None:
    """A box painted over on the scanned side is damaged at each rung, so the value has no rung
    below the file's; intact, it has the size half's."""
    pdf = pdfium.PdfDocument(str(PACKETS / "N1-000001" / "acord_125.pdf"))
    try:
        page = pdf[0]
        clean = page.render(scale=200 / 72, grayscale=True).to_numpy()
        clean = np.ascontiguousarray(clean.reshape(clean.shape[:2]))
        height = float(page.get_height())
        page.close()
    finally:
        pdf.close()
    truth = json.loads((PACKETS / "N1-000001" / "field_truth_acord_125.json").read_text())
    entry = next(
        e
        for e in truth["fields"]
        if e["locations"][0].get("page") == 1 and len(e["rendered_as"]) >= 8
    )
    x0, y0, x1, y1 = entry["locations"][0]["bbox"]
    quad = [x0, y0, x1, y0, x1, y1, x0, y1]
    glyph = entry["locations"][0]["glyph_pt"]
    intact = resolution.Ladder(clean, clean.copy(), 200)
    expected = resolution.legible_from(glyph, file_dpi=200)
    found = resolution.legible_from(
        glyph, file_dpi=200, ladder=intact, quad=quad, page_height=height
    )
    assert found == expected < 200
    painted = clean.copy()
    s = 200 / 72
    painted[round((height - y1) * s) : round((height - y0) * s), round(x0 * s) : round(x1 * s)] = (
        250
    )
    damaged = resolution.Ladder(clean, painted, 200)
    assert (
        resolution.legible_from(glyph, file_dpi=200, ladder=damaged, quad=quad, page_height=height)
        == 200
    )


@pytest.mark.parametrize(
    ("location", "dpi", "text", "legible"),
    [
        ({"page": 1, "legible": True, "legible_from_dpi": 110}, 96, False, False),
        ({"page": 1, "legible": True, "legible_from_dpi": 110}, 110, False, True),
        ({"page": 1, "legible": True, "legible_from_dpi": 110}, None, False, True),
        ({"page": 1, "legible": False, "legible_from_dpi": None}, 300, False, False),
        # The text layer is sent too: a value it carries is read from it at any resolution.
        ({"page": 1, "legible": True, "legible_from_dpi": 150, "text_layer": True}, 72, True, True),
        (
            {"page": 1, "legible": True, "legible_from_dpi": 150, "text_layer": False},
            72,
            True,
            False,
        ),
        # A packet made before rungs were recorded, and a workbook cell: the file's verdict.
        ({"page": 1, "legible": True}, 72, False, True),
        ({"sheet": "SOV", "cell": "C4"}, 72, False, True),
    ],
)
def test_legible_at_reads_what_the_truth_records(
    location: dict[str, object], dpi: int | None, text: bool, legible: bool
) -> None:
    assert resolution.legible_at(location, dpi, text) is legible


def _locations(packet: Path) -> list[tuple[str, dict[str, object]]]:
    out = []
    for path in sorted(packet.glob("field_truth_*.json")):
        for entry in json.loads(path.read_text())["fields"]:
            for location in entry["locations"]:
                if "page" in location:
                    out.append((entry["kind"], location))
    return out


def test_every_pdf_location_of_the_canonical_suite_records_its_rung() -> None:
    """Every located PDF value of the canonical packets carries a glyph height and a rung the
    rule gives: native pages' exactly the size half's, scanned pages' at least that, none
    for a value not legible in the file; the harder the tier, the more values need a higher
    resolution."""
    below_150: dict[str, float] = {}
    for packet in sorted(PACKETS.glob("N?-000001")):
        levels: dict[tuple[str, int], str] = {}
        for manifest in packet.glob("manifest_*.json"):
            data = json.loads(manifest.read_text())
            for pattern in data["patterns_applied"]:
                if pattern.get("phase") == "scan":
                    for page, how in pattern["details"]["pages"].items():
                        levels[(manifest.name[9:-5], int(page))] = how["level"]
        located = _locations(packet)
        assert located
        for kind, location in located:
            rung = location["legible_from_dpi"]
            if location["legible"] is False:
                assert rung is None
                continue
            assert isinstance(rung, int)
            glyph = location.get("glyph_pt")
            assert (glyph is None) == (kind == "checkbox") or glyph is not None
            if "quad" not in location:
                assert rung == resolution.legible_from(glyph)  # type: ignore[arg-type]
        legible = [loc for _, loc in located if loc["legible"] is not False]
        below_150[packet.name[:2]] = sum(
            not resolution.legible_at(loc, 150) for loc in legible
        ) / len(legible)
    assert below_150["N1"] <= below_150["N3"] <= below_150["N5"]
    assert below_150["N5"] > 0.05


def test_a_far_photos_values_need_more_than_the_same_type_drawn_natively() -> None:
    """The far photo shrinks its page to 55-65 % of the frame: the same type reaches a rung
    later there than on a native page."""
    level = scan_levels.LEVELS["far_photo"]
    native = resolution.legible_from(6.0)
    photographed = resolution.legible_from(6.0 * 0.6, file_dpi=level.dpi)
    assert native == 90 and photographed == 150
