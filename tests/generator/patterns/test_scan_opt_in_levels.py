"""The opt-in scan levels against careful readers (Difficulty III): `low_res`, a draft-mode scan
stored at 120 dpi, and `phone_photo`, a phone photo of the page on a table, its perspective far
beyond `photo`'s. Read back from real files with pdfium: the stored image's resolution, the
table around a photographed page, the tilt, the opt-in, the bytes."""

from __future__ import annotations

import hashlib
import math
from dataclasses import replace
from typing import Any

import numpy as np
import pypdfium2.raw as raw
import pytest

from packetbench.core.codes import TIERS
from packetbench.generator.packet import build_packet
from packetbench.generator.patterns.base import catalogue
from packetbench.generator.patterns.presets import preset
from packetbench.generator.render import scan_degrade, scan_draw, scan_levels
from packetbench.generator.render.scan_levels import LEVELS
from packetbench.generator.tiers import resolve
from tests.support import perspective
from tests.support.rendering import Render

DOC = "acord_125"
# The resolution each level stores its page image at, pixels per inch of the page.
STORED_DPI = {"low_res": 120, "phone_photo": 160, "far_photo": 260}
LEVEL_NAMES = tuple(STORED_DPI)
OPT_IN_NAMES = ("low_res", "phone_photo")
WIDTH, HEIGHT = 612.0, 792.0  # a letter page, points


def _stored(pdf: Any, index: int) -> tuple[np.ndarray[Any, Any], tuple[float, float]]:
    """Page `index`'s one image as stored (its own pixels, not as displayed) and the page's
    size in points."""
    page = pdf[index]
    try:
        (image,) = [obj for obj in page.get_objects() if obj.type == raw.FPDF_PAGEOBJ_IMAGE]
        pixels = np.asarray(image.get_bitmap().to_pil().convert("L"))
        width, height = (float(v) for v in page.get_size())
        return pixels, (width, height)
    finally:
        page.close()


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_the_stored_image_has_the_levels_resolution(render: Render, level: str) -> None:
    """Zooming cannot help: every scanned page's image holds the level's pixels per inch,
    no more (measured from the image's size and the page's)."""
    assert LEVELS[level].dpi == STORED_DPI[level]
    pdf = render("N3", 3, (DOC,), f"scan.{level}").pdf(DOC)
    try:
        assert len(pdf) >= 1
        for index in range(len(pdf)):
            pixels, (width, height) = _stored(pdf, index)
            rows, cols = pixels.shape
            assert cols / (width / 72) == pytest.approx(STORED_DPI[level], abs=1.0)
            assert rows / (height / 72) == pytest.approx(STORED_DPI[level], abs=1.0)
    finally:
        pdf.close()


def test_a_phone_photo_shows_the_table_around_the_page(render: Render) -> None:
    """The page's corners are pulled in: the image's corners are table top, far darker than
    the paper in the page's middle."""
    pdf = render("N3", 3, (DOC,), "scan.phone_photo").pdf(DOC)
    try:
        pixels, _ = _stored(pdf, 0)
    finally:
        pdf.close()
    rows, cols = pixels.shape
    corner = 12
    corners = [
        pixels[:corner, :corner],
        pixels[:corner, -corner:],
        pixels[-corner:, :corner],
        pixels[-corner:, -corner:],
    ]
    middle = pixels[rows // 2 - 40 : rows // 2 + 40, cols // 2 - 40 : cols // 2 + 40]
    paper = float(np.percentile(middle, 90))
    assert paper > 170
    for patch in corners:
        assert float(patch.mean()) < paper - 60


def _tilt(level: scan_levels.Level, seed: int) -> float:
    """How far the level's page is from a parallelogram: the most either pair of opposite
    sides differs in length, as a share of the longer (the page photographed upright)."""
    transform, _ = scan_draw.geometry(
        replace(level, turns=()), np.random.Generator(np.random.PCG64(seed)), WIDTH, HEIGHT
    )
    # The camera's tilt: the homography alone (a curl lifts a corner further).
    flat = scan_draw.Transform(transform.matrix)
    c = flat.points([(0.0, 0.0), (WIDTH, 0.0), (WIDTH, HEIGHT), (0.0, HEIGHT)])
    sides = [math.dist(c[i], c[(i + 1) % 4]) for i in range(4)]
    return max(
        1 - min(sides[0], sides[2]) / max(sides[0], sides[2]),
        1 - min(sides[1], sides[3]) / max(sides[1], sides[3]),
    )


def test_a_phone_photos_perspective_is_far_beyond_a_photos() -> None:
    """Over 200 pages each, the least tilted phone photo is more tilted than the most tilted
    photo (one side at least 5 % shorter than the one across; a photo's stay within 4 %)."""
    photo = [_tilt(LEVELS["photo"], seed) for seed in range(200)]
    phone = [_tilt(LEVELS["phone_photo"], seed) for seed in range(200)]
    assert max(photo) < 0.04
    assert min(phone) > 0.05
    assert min(phone) > max(photo)


def test_a_phone_photo_is_drawn_on_bent_paper_not_in_tiles() -> None:
    """Its page curls and folds (`scan_mesh`): drawn as one warp, with no tiles of its own
    (the warp's accuracy: tests/generator/render/test_scan_mesh.py)."""
    level = LEVELS["phone_photo"]
    assert level.tiles is None and level.curl > 0 and level.folds == 1


def test_a_far_photo_is_smaller_and_more_tilted_than_a_phone_photo() -> None:
    """Over 200 pages each: the page 55-65 % of the frame (a phone photo's 90-95 %), one side
    at least 8 % shorter than the one across and in half the pages more than 15 % (the
    corners' own jitter works with or against the tilt; a phone photo's median is 11 %),
    turned 2-6 degrees off its quarter turn."""
    far = LEVELS["far_photo"]
    tilts = sorted(_tilt(far, seed) for seed in range(200))
    phone = sorted(_tilt(LEVELS["phone_photo"], seed) for seed in range(200))
    assert tilts[0] > 0.08 and tilts[100] > 0.15
    assert tilts[100] > phone[100] + 0.05
    for seed in range(200):
        _, details = scan_draw.geometry(
            far, np.random.Generator(np.random.PCG64(seed)), WIDTH, HEIGHT
        )
        assert 0.55 <= details["scale"] <= 0.65
        off = abs(details["angle"]) % 180
        assert 2.0 <= min(off, 180 - off) <= 6.0


def test_a_far_photo_drawn_tile_by_tile_follows_its_perspective() -> None:
    """Its stronger tilt is drawn in 32 x 16 tiles (a photo's: 12 x 6), each within
    0.8 px (0.22 point at 260 dpi; a box's margin in the audit is a point) of the page's
    homography."""
    level = LEVELS["far_photo"]
    assert level.tiles == (32, 16)
    assert perspective.worst_tile_error(level, range(6), WIDTH, HEIGHT) < 0.8


def test_a_far_photo_is_most_of_n5s_draw_and_in_no_other_tier() -> None:
    knob = "patterns.scan.far_photo"
    (pattern,) = [p for p in catalogue() if p.id == "scan.far_photo"]
    assert not pattern.opt_in
    assert preset("N5")[knob] > 0.9
    for tier in TIERS[:-1]:
        assert preset(tier)[knob] == 0.0, tier


@pytest.mark.parametrize("level", OPT_IN_NAMES)
def test_the_level_is_opt_in(level: str) -> None:
    """In no tier's draw (canonical packets keep their bytes): off in every preset, on only
    when a --set names it."""
    (pattern,) = [p for p in catalogue() if p.id == f"scan.{level}"]
    assert pattern.opt_in
    knob = f"patterns.scan.{level}"
    for tier in TIERS:
        assert knob not in preset(tier), tier
        assert resolve(tier, {}).get(knob, 0.0) == 0.0, tier
        assert resolve(tier, {knob: 1.0})[knob] == 1.0, tier


def _digest(level: str, seed: int) -> str:
    knobs = resolve("N3", {"documents": (DOC,), "patterns.only": (f"scan.{level}",)})
    return hashlib.sha256(build_packet("N3", seed, knobs).files[f"{DOC}.pdf"]).hexdigest()


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_the_same_seed_makes_the_same_bytes(level: str) -> None:
    """Built twice from one seed, the scanned PDF is byte-identical; another seed moves and
    damages the page otherwise."""
    first = _digest(level, 5)
    assert _digest(level, 5) == first
    assert _digest(level, 6) != first


@pytest.mark.parametrize("seed", range(4))
def test_a_cameras_light_is_smooth_and_the_shadow_darkens_one_corner(seed: int) -> None:
    """The light on a phone's photo (`scan_degrade._camera_light`: the gradient times the phone's
    shadow, drawn coarse and enlarged bilinearly) steps by at most 2 gray levels between
    neighbouring pixels anywhere (enlarged by repeating pixels it steps by 3-4 in the
    shadow's edge); the shadow (`damage.phone_shadow`) leaves 58-68 % of the light at
    one corner and all of it at the corner across."""
    from packetbench.generator.render import damage

    level = LEVELS["far_photo"]
    size = (1105, 1430)
    light = np.asarray(
        scan_degrade._camera_light(level, np.random.Generator(np.random.PCG64(seed)), size),
        dtype=np.int16,
    )
    assert light.shape == (size[1], size[0])
    assert int(np.abs(np.diff(light, axis=0)).max()) <= 2
    assert int(np.abs(np.diff(light, axis=1)).max()) <= 2
    shadow = damage.phone_shadow(size, level.dpi, np.random.Generator(np.random.PCG64(seed)), 4)
    corners = [shadow[0, 0], shadow[0, -1], shadow[-1, -1], shadow[-1, 0]]
    dark = int(np.argmin(corners))
    assert 0.58 <= corners[dark] <= 0.68
    assert corners[(dark + 2) % 4] == 1.0
