"""The harder scan levels: each does what it claims, measured in pixels on a real page
(an ACORD 125 drawn by the generator and rendered by pdfium), boxes carried to the turned
and reduced pages, every one in the N4-N5 draw (none before)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pypdfium2.raw as raw
import pytest

from packetbench.core.codes import TIERS
from packetbench.generator.patterns.presets import preset
from packetbench.generator.patterns.scan import OPT_IN
from packetbench.generator.render import damage
from packetbench.generator.render.scan import scan_page
from packetbench.generator.render.scan_levels import HARDER_LEVELS, LEVELS
from tests.support.rendering import Render

DOC = "acord_125"
Pixels = np.ndarray[Any, Any]


@pytest.fixture(scope="module")
def native(render: Render) -> Pixels:
    """Page 1 of the plain ACORD 125 at 200 dpi, gray."""
    pdf = render("N3", 3, (DOC,)).pdf(DOC)
    try:
        page = pdf[0]
        image = page.render(scale=200 / 72, grayscale=True).to_numpy()
        page.close()
    finally:
        pdf.close()
    return np.array(image.reshape(image.shape[:2]), dtype=np.uint8)


def _edges(pixels: Pixels, axis: int | None = None) -> float:
    """Edge energy: the mean absolute difference of neighbouring pixels (along `axis`, or
    both)."""
    image = pixels.astype(np.float64)
    across = float(np.abs(np.diff(image, axis=1)).mean())
    down = float(np.abs(np.diff(image, axis=0)).mean())
    return {None: across + down, 1: across, 0: down}[axis]


def test_new_levels_are_drawn_from_n4() -> None:
    """The harder levels from N4, but the phone photo from further back, at N5 only."""
    for tier in TIERS:
        knobs = preset(tier)
        drawn = {level for level in HARDER_LEVELS if knobs.get(f"patterns.scan.{level}", 0) > 0}
        expected = {
            "N4": set(HARDER_LEVELS) - OPT_IN - {"far_photo"},
            "N5": set(HARDER_LEVELS) - OPT_IN,
        }
        assert drawn == expected.get(tier, set()), tier
        assert not [name for name in knobs if name.removeprefix("patterns.scan.") in OPT_IN]


@pytest.mark.parametrize("level", sorted(HARDER_LEVELS))
def test_each_new_level_scans_the_whole_document(render: Render, level: str) -> None:
    rendered = render("N3", 3, (DOC,), f"scan.{level}")
    record = rendered.applied(DOC, f"scan.{level}")
    assert record is not None and record["details"]["level"] == level
    pdf = rendered.pdf(DOC)
    try:
        for number in range(1, len(pdf) + 1):
            page = pdf[number - 1]
            assert [obj.type for obj in page.get_objects()] == [raw.FPDF_PAGEOBJ_IMAGE]
            page.close()
    finally:
        pdf.close()
    for entry in rendered.fields(DOC).values():
        for location in entry["locations"]:
            assert location["text_layer"] is False and len(location["quad"]) == 8
    # The truth is the plain document's (a scan changes how values look, not what they are).
    plain = render("N3", 3, (DOC,))
    assert rendered.truth(DOC) == plain.truth(DOC)
    assert {p: (f["value"], f["rendered_as"]) for p, f in rendered.fields(DOC).items()} == {
        p: (f["value"], f["rendered_as"]) for p, f in plain.fields(DOC).items()
    }


def test_focus_blur_halves_the_edges(native: Pixels) -> None:
    blurred = native.copy()
    damage.optics(blurred, LEVELS["blurred"].blur, 0, 0)
    assert _edges(blurred) < 0.6 * _edges(native)


def test_motion_blur_smears_across_the_page_only(native: Pixels) -> None:
    moved = native.copy()
    damage.optics(moved, 0.0, LEVELS["motion_blur"].motion, 0)
    assert _edges(moved, axis=1) < 0.5 * _edges(native, axis=1)
    assert _edges(moved, axis=0) > 0.85 * _edges(native, axis=0)


@pytest.mark.parametrize("motion", [2, 3, 4, 5, 8, 9])
def test_motion_blur_rounds_as_the_float_mean_did(motion: int) -> None:
    """The integer motion blur makes the bytes of the float32 mean rounded half to even that
    it replaced (and that the suite's lock was recorded with), ties included."""
    rng = np.random.default_rng(motion)
    pixels = rng.integers(0, 256, (40, 257)).astype(np.uint8)
    pixels[:, 100:140] = rng.choice(np.array([0, 2, 253, 255], dtype=np.uint8), (40, 40))
    padded = np.pad(
        pixels.astype(np.float32), ((0, 0), (motion // 2, motion - 1 - motion // 2)), mode="edge"
    )
    mean = sum(padded[:, i : i + pixels.shape[1]] for i in range(motion)) / motion
    expected = np.asarray(mean, dtype=np.float32).round().astype(np.uint8)
    moved = pixels.copy()
    damage.optics(moved, 0.0, motion, 0)
    assert np.array_equal(moved, expected)


def test_toner_spread_grows_the_strokes(native: Pixels) -> None:
    """The `thicken` option (no preset level uses it since the photocopies were tuned for the
    audit's OCR) fills the counters."""
    copied = native.copy()
    damage.optics(copied, 0.0, 0, 1)
    assert (copied < 128).mean() > 1.5 * (native < 128).mean()


@pytest.mark.parametrize("level", ["photocopy_2nd", "photocopy_3rd"])
def test_a_copy_of_a_copy_grays_the_paper_and_speckles_it(render: Render, level: str) -> None:
    """Against the clean scan of the same page: paper grayer, and dark specks of toner on it."""
    pdf = render("N3", 3, (DOC,)).pdf(DOC)
    try:
        clean, copied = (scan_page(pdf, 0, LEVELS[name], 5) for name in ("clean", level))
    finally:
        pdf.close()
    import io

    from PIL import Image

    pixels = {
        name: np.asarray(Image.open(io.BytesIO(page.image)).convert("L"))
        for name, page in (("clean", clean), (level, copied))
    }
    paper = {name: float(np.median(image)) for name, image in pixels.items()}
    assert paper[level] < paper["clean"] - 10, paper

    def specks(pixels: Pixels) -> int:  # dark pixels with only light ones around them
        dark = pixels < 128
        around = sum(np.roll(np.roll(dark, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1))
        return int((dark & (around == 1)).sum())

    counted = {name: specks(image) for name, image in pixels.items()}
    assert counted[level] > 5 * max(counted["clean"], 20), counted


def _blockiness(image: Pixels) -> float:
    """Mean jump across 8x8 block borders over the mean jump inside blocks."""
    jumps = np.abs(np.diff(image.astype(np.float64), axis=1)).mean(axis=0)
    border = jumps[7::8].mean()
    inside = np.delete(jumps, np.s_[7::8]).mean()
    return float(border / inside)


def test_low_jpeg_quality_shows_its_blocks(render: Render) -> None:
    import io

    from PIL import Image

    def stored(level: str) -> Pixels:
        pdf = render("N3", 3, (DOC,)).pdf(DOC)
        try:
            scanned = scan_page(pdf, 0, LEVELS[level], 5)
        finally:
            pdf.close()
        return np.asarray(Image.open(io.BytesIO(scanned.image)).convert("L"))

    assert _blockiness(stored("jpeg_blocks")) > 1.3
    assert _blockiness(stored("clean")) < 1.1


def test_a_roller_bar_darkens_its_columns_only(native: Pixels) -> None:
    damaged = native.copy()
    damage.roller(damaged, 200, np.random.Generator(np.random.PCG64(1)))
    changed = np.flatnonzero((damaged != native).any(axis=0))
    assert 20 <= changed.size <= 33  # 0.1-0.16 inch at 200 dpi
    assert changed[-1] - changed[0] + 1 == changed.size  # one band
    band = native[:, changed].astype(np.float64)
    ratio = damaged[:, changed].astype(np.float64).sum() / band.sum()
    assert 0.6 < ratio < 0.8


def test_a_crease_darkens_a_line_across_the_page(native: Pixels) -> None:
    damaged = native.copy()
    damage.crease(damaged, 200, np.random.Generator(np.random.PCG64(2)))
    rows = np.flatnonzero((damaged != native).any(axis=1))
    assert rows.size and rows[-1] - rows[0] < 0.2 * 200  # a line and its shadow
    line = damaged[rows[0]].astype(np.float64).mean() / native[rows[0]].astype(np.float64).mean()
    assert ratio_between(line, 0.55, 0.65)
    assert rows[0] > native.shape[0] / 5 and rows[-1] < native.shape[0] * 4 / 5


def ratio_between(value: float, low: float, high: float) -> bool:
    return low <= value <= high


def test_a_coffee_ring_has_a_dark_rim(native: Pixels) -> None:
    blank = np.full_like(native, 255)
    damage.coffee(blank, 200, np.random.Generator(np.random.PCG64(3)))
    stained = np.argwhere(blank < 255)
    top, left = stained.min(axis=0)
    bottom, right = stained.max(axis=0)
    assert 1.3 * 200 < bottom - top < 2.1 * 200 and abs((bottom - top) - (right - left)) < 4
    middle = blank[(top + bottom) // 2, (left + right) // 2]
    rim = blank[(top + bottom) // 2, left : left + 12].min()
    assert 180 <= rim <= 190 and 234 <= middle <= 240  # 72 % and 93 % of white


class _Edge:
    """A generator whose draws are all at the top (or the bottom) of their range: a coffee
    ring touching the page's corner."""

    def __init__(self, high: bool) -> None:
        self.high = high

    def uniform(self, low: float, high: float) -> float:
        return high if self.high else low


@pytest.mark.parametrize("high", [True, False])
@pytest.mark.parametrize("size", [(2200, 1700), (2201, 1699)])
def test_a_coffee_ring_at_the_page_edge_is_cut_by_it(high: bool, size: tuple[int, int]) -> None:
    """A ring touching the page's edge stains up to it (its square reached 2 px past it and
    did not fit: generating N4 seed 1200066 stopped with "operands could not be broadcast
    together with shapes (399,400) (400,400)")."""
    blank = np.full(size, 255, dtype=np.uint8)
    damage.coffee(blank, 200, _Edge(high))  # type: ignore[arg-type]
    stained = np.argwhere(blank < 255)
    corner = size[0] - 1 if high else 0, size[1] - 1 if high else 0
    assert np.abs(stained - corner).min(axis=0).max() < 40  # the rim runs along both edges


def test_punch_holes_stay_in_the_left_margin(native: Pixels) -> None:
    damaged = native.copy()
    damage.punch(damaged, 200, np.random.Generator(np.random.PCG64(4)))
    changed = np.argwhere(damaged != native)
    assert changed[:, 1].max() < 0.5 * 200  # within half an inch of the edge
    holes = damaged[:, : int(0.5 * 200)] == 35
    rows = np.flatnonzero(holes.any(axis=1))
    assert len(np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)) == 3


def test_a_blurred_patch_blurs_one_region(native: Pixels) -> None:
    damaged = native.copy()
    damage.patch(damaged, 200, np.random.Generator(np.random.PCG64(5)))
    changed = np.argwhere(damaged != native)
    top, left = changed.min(axis=0)
    bottom, right = changed.max(axis=0) + 1
    assert (bottom - top) * (right - left) < 0.2 * native.size
    region = (slice(top, bottom), slice(left, right))
    # Out of focus, still legible (a smudge, not a blot): its blur's 0.6 points keep about
    # 0.3 of the edges, where the 0.9 points it had kept about 0.18 and left small type
    # at the edge of what a person reads.
    assert 0.24 * _edges(native[region]) < _edges(damaged[region]) < 0.75 * _edges(native[region])


@pytest.mark.parametrize("level", ["rotated", "reduced", "crooked"])
def test_boxes_land_on_their_values_on_a_turned_or_reduced_page(render: Render, level: str) -> None:
    """Every located value's box on the scanned page holds the value's ink: the native crop,
    turned and scaled as the manifest says, correlates with the scanned crop."""
    from PIL import Image

    plain, scanned = render("N3", 3, (DOC,)), render("N3", 3, (DOC,), f"scan.{level}")
    record = scanned.applied(DOC, f"scan.{level}")
    assert record is not None
    how = record["details"]["pages"]["1"]
    if level == "rotated":  # seed 3 feeds page 1 turned by a quarter or a half turn
        assert min(abs(how["angle"] - turn) for turn in (90, 180, 270)) < 1
    elif level == "crooked":  # fed crooked: never less than 4.5 degrees, shrunk to fit
        assert 4.5 <= abs(how["angle"]) <= 8.0 and how["scale"] < 0.95
    else:  # a reduced copy laid crooked on the glass, upright or upside down
        tilt = (how["angle"] + 90.0) % 180.0 - 90.0
        assert 0.6 <= how["scale"] <= 0.7 and 2.5 <= abs(tilt) <= 5.0
    dpi = LEVELS[level].dpi
    scale = dpi / 72

    def page_image(pdf: Any) -> Pixels:
        try:
            page = pdf[0]
            image = page.render(scale=scale, grayscale=True).to_numpy()
            page.close()
        finally:
            pdf.close()
        return np.asarray(image.reshape(image.shape[:2]), dtype=np.float64)

    before, after = page_image(plain.pdf(DOC)), page_image(scanned.pdf(DOC))
    height = before.shape[0] / scale
    checked, correlations = 0, []
    pairs = zip(plain.fields(DOC).items(), scanned.fields(DOC).items(), strict=True)
    for (path, entry), (_, moved) in pairs:
        for native_loc, moved_loc in zip(entry["locations"], moved["locations"], strict=True):
            x0, y0, x1, y1 = native_loc["bbox"]
            if native_loc["page"] != 1 or x1 - x0 < 40:
                continue
            crop = before[
                round((height - y1) * scale) : round((height - y0) * scale),
                round(x0 * scale) : round(x1 * scale),
            ]
            turned, inside = (
                Image.fromarray(image).rotate(
                    how["angle"], expand=True, fillcolor=fill, resample=Image.Resampling.BILINEAR
                )
                for image, fill in (
                    (crop.astype(np.uint8), 255),
                    (np.full_like(crop, 255, np.uint8), 0),
                )
            )
            bx0, by0, bx1, by1 = moved_loc["bbox"]
            target = after[
                round((height - by1) * scale) : round((height - by0) * scale),
                round(bx0 * scale) : round(bx1 * scale),
            ]
            shape = (target.shape[1], target.shape[0])
            expected = np.asarray(turned.resize(shape), float)
            # Only the turned box itself: the corners of the upright box around a long turned
            # box hold its neighbours' ink.
            mask = np.asarray(inside.resize(shape), float) > 200
            a, b = expected[mask] - expected[mask].mean(), target[mask] - target[mask].mean()
            correlation = float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))
            # A box off its value correlates about 0; a long box turned 7-8 degrees takes a
            # corner of its neighbour's line in.
            assert correlation > 0.35, (path, correlation)
            correlations.append(correlation)
            checked += 1
    assert checked >= 10 and float(np.median(correlations)) > 0.6, correlations


@pytest.mark.parametrize(
    ("level", "turns"), [("rotated", {90: 1, 180: 4, 270: 1}), ("reduced", {0: 1, 180: 1})]
)
def test_pages_are_fed_turned_in_the_stated_proportions(level: str, turns: dict[int, int]) -> None:
    """`rotated` feeds two pages in three upside down and the rest sideways, `reduced` half of
    its copies upside down (Tesseract reads none of an upside-down page): over 600 drawn
    pages each turn comes up within 5 points of its share."""
    from packetbench.generator.render.scan_draw import geometry

    counts: dict[int, int] = {}
    for seed in range(600):
        _, details = geometry(LEVELS[level], np.random.default_rng(seed), 612.0, 792.0)
        turn = round(details["angle"] / 90) * 90 % 360
        counts[turn] = counts.get(turn, 0) + 1
    assert set(counts) == set(turns), counts
    whole = sum(turns.values())
    for turn, share in turns.items():
        assert abs(counts[turn] / 600 - share / whole) < 0.05, (turn, counts)
