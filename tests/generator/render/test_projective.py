"""The plain-float projective maps a scan's geometry is made of (`render.projective`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from packetbench.generator.render import projective


def _system(rng: random.Random, n: int) -> tuple[list[list[float]], list[list[float]]]:
    a = [[rng.uniform(-50.0, 50.0) for _ in range(n)] for _ in range(n)]
    bs = [[rng.uniform(-1e3, 1e3) for _ in range(n)] for _ in range(3)]
    return a, bs


def test_solving_many_right_hand_sides_at_once_is_solving_each() -> None:
    """`solve_each` eliminates once for all its right-hand sides and gives each the very bits
    `solve` gives it alone, and the solutions solve the system."""
    rng = random.Random(46)
    for n in (3, 8):
        for _ in range(50):
            a, bs = _system(rng, n)
            together = projective.solve_each(a, bs)
            assert together == [projective.solve(a, b) for b in bs]
            np.testing.assert_allclose(np.array(a) @ np.array(together).T, np.array(bs).T)
    with pytest.raises(ValueError, match="length"):
        projective.solve_each([[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0, 3.0]])


def test_an_affine_fit_recovers_an_affine_map_and_fits_a_perspective_by_least_squares() -> None:
    """Points moved by an affine map give that map back; points moved by a homography give the
    least-squares affine map (as numpy's lstsq finds it)."""
    affine = projective.mat3([[0.9, -0.2, 31.0], [0.15, 1.1, -7.5], [0.0, 0.0, 1.0]])
    source = [(float(x), float(y)) for x in range(0, 200, 50) for y in range(0, 300, 75)]
    fitted = projective.affine_fit(source, [projective.apply(affine, x, y) for x, y in source])
    np.testing.assert_allclose(np.array(fitted), np.array(affine), atol=1e-9)
    homography = projective.mat3([[0.8, 0.05, 170.0], [0.15, 0.55, 116.0], [4e-4, -3e-5, 1.0]])
    target = [projective.apply(homography, x, y) for x, y in source]
    fitted = projective.affine_fit(source, target)
    design = np.array([[x, y, 1.0] for x, y in source])
    for row in range(2):
        expected, *_ = np.linalg.lstsq(design, np.array([t[row] for t in target]), rcond=None)
        np.testing.assert_allclose(fitted[row], expected, rtol=1e-9, atol=1e-9)
    assert fitted[2] == (0.0, 0.0, 1.0)
