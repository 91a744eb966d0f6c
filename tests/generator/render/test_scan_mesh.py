"""Paper that is not flat (`render.scan_mesh`): the warp is drawn where the transform puts the
page, a value's box holds its ink, and the audit's redraw from the recorded matrix is the
scan's own clean side."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from reportlab.pdfgen import canvas

from packetbench.generator.render import scan, scan_draw, scan_levels

WIDTH, HEIGHT = 612.0, 792.0
LEVELS = scan_levels.LEVELS


def _geometry(level: str, seed: int) -> tuple[scan_draw.Transform, dict[str, object]]:
    generator = np.random.Generator(np.random.PCG64(seed))
    return scan_draw.geometry(LEVELS[level], generator, WIDTH, HEIGHT)


@pytest.mark.parametrize("level", ["phone_photo", "photo", "crease"])
def test_the_warp_is_drawn_where_the_transform_puts_the_page(level: str) -> None:
    """Inside every cell of the mesh, the bilinear warp's source stays within 0.15 px of the
    transform's exact inverse (the homography's, then the distortion undone), and the
    transform takes that native point back onto the scanned pixel."""
    found = LEVELS[level]
    scale = found.dpi / 72
    size = (math.ceil(WIDTH * scale), math.ceil(HEIGHT * scale))
    inverse = None
    for seed in range(3):
        transform, details = _geometry(level, seed)
        mesh = transform.mesh
        assert mesh is not None and "mesh" in details
        xs, ys, sx, sy = scan_draw.mesh_sources(transform, mesh, found.dpi, HEIGHT, size)
        ax, ay = np.array(sx), np.array(sy)
        inverse = np.linalg.inv(transform.matrix)
        for fx, fy in ((0.5, 0.5), (0.2, 0.8), (0.8, 0.3)):
            ox = xs[:-1] + (xs[1:] - xs[:-1]) * fx
            oy = ys[:-1] + (ys[1:] - ys[:-1]) * fy
            weights = ((1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy)
            bx = sum(w * c for w, c in zip(weights, _corners(ax), strict=True))
            by = sum(w * c for w, c in zip(weights, _corners(ay), strict=True))
            gx, gy = np.meshgrid(ox / scale, HEIGHT - oy / scale)
            w = inverse[2, 0] * gx + inverse[2, 1] * gy + inverse[2, 2]
            qx = (inverse[0, 0] * gx + inverse[0, 1] * gy + inverse[0, 2]) / w
            qy = (inverse[1, 0] * gx + inverse[1, 1] * gy + inverse[1, 2]) / w
            px, py = mesh.undo(qx, qy)
            on = (px >= 0) & (px <= WIDTH) & (py >= 0) & (py <= HEIGHT)
            error = np.hypot(bx - px * scale, by - (HEIGHT - py) * scale)
            assert on.sum() > 100 and float(error[on].max()) < 0.15
            picked = list(zip(px[on][::97].tolist(), py[on][::97].tolist(), strict=True))
            back = np.array(transform.points(picked))
            expected = np.stack([gx[on][::97], gy[on][::97]], axis=1)
            assert float(np.abs(back - expected).max()) < 1e-6


def _corners(grid: np.ndarray) -> tuple[np.ndarray, ...]:
    return grid[:-1, :-1], grid[:-1, 1:], grid[1:, :-1], grid[1:, 1:]


def _native() -> bytes:
    """A letter page with one line of 8-point text across it (where folds and curl bend it)."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=(WIDTH, HEIGHT), pageCompression=0)
    page.setFont("Helvetica", 8)
    page.drawString(
        60, 530, "POLICY 8842-1177 EFFECTIVE 06/14/2025 TOTAL INSURED VALUE $21,452,000"
    )
    page.save()
    return out.getvalue()


BOX = [60.0, 527.0, 400.0, 537.0]  # the line's box (points), a little beyond its ink
INSIDE = [40.0, 40.0, WIDTH - 40.0, HEIGHT - 40.0]


@pytest.mark.parametrize("level", ["crease", "phone_photo"])
def test_a_bent_page_keeps_its_ink_in_its_box_and_the_audit_redraws_it(level: str) -> None:
    """On the scan's clean side every ink pixel lies inside the line's moved box (upright, a
    pixel of margin); the audit's redraw from the recorded matrix (`scan.clean_page`) is the
    same pixels; the same seed scans the same bytes."""
    found = LEVELS[level]
    pdf = scan.open_pdf(_native())
    try:
        for seed in (3,):
            page = scan.scan_page(pdf, 0, found, seed, judged=True)
            assert page.clean is not None and "mesh" in page.details
            assert page.image == scan.scan_page(pdf, 0, found, seed).image
            again = scan.clean_page(pdf, 0, found, page.details["matrix"])
            assert np.array_equal(again, page.clean)
            quad = page.transform.quad(BOX)
            scale = found.dpi / 72
            xs = [x * scale for x in quad[0::2]]
            ys = [(HEIGHT - y) * scale for y in quad[1::2]]
            inside = np.zeros(page.clean.shape, dtype=bool)
            inside[
                math.floor(min(ys)) - 1 : math.ceil(max(ys)) + 1,
                math.floor(min(xs)) - 1 : math.ceil(max(xs)) + 1,
            ] = True
            # The page well inside its edges (a photo's table top is as dark as ink), on a
            # page turned any way round.
            edge = scan_draw.pixel_corners(page.transform, INSIDE, found.dpi, HEIGHT)
            xs_in, ys_in = sorted(x for x, _ in edge), sorted(y for _, y in edge)
            page_area = np.zeros(page.clean.shape, dtype=bool)
            page_area[int(ys_in[1]) : int(ys_in[2]), int(xs_in[1]) : int(xs_in[2])] = True
            ink = (page.clean < 110) & page_area
            assert ink.sum() > 500
            assert not (ink & ~inside).any()
    finally:
        pdf.close()


def test_flat_levels_have_no_mesh() -> None:
    """A far photo and an office scan stay flat: no distortion, none recorded."""
    for level in ("far_photo", "clean", "fax"):
        transform, details = _geometry(level, 1)
        assert transform.mesh is None and "mesh" not in details


def test_a_phones_focus_falls_off_toward_one_side() -> None:
    """`damage.soft_side` blurs a band along one edge (30-45 % of the page), more toward the
    edge: the pixels it changes are in the band, and those nearer the edge change more."""
    from packetbench.generator.render import damage

    stripes = np.zeros((400, 300), dtype=np.uint8)
    stripes[:, ::4] = 255
    stripes[::4, :] = 255
    for seed in range(4):
        soft = stripes.copy()
        damage.soft_side(soft, 200, np.random.Generator(np.random.PCG64(seed)))
        change = np.abs(soft.astype(np.int16) - stripes)
        by_column, by_row = change.sum(axis=0), change.sum(axis=1)
        along = by_column if by_column.max() * 300 > by_row.max() * 400 else by_row
        if along[0] < along[-1]:
            along = along[::-1]
        changed = np.flatnonzero(along)
        assert 0.25 * along.size <= changed.size <= 0.46 * along.size
        assert changed[0] == 0 and along[0] > along[changed.size // 2] > 0
