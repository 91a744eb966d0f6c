"""3x3 projective maps in plain Python floats, so that a scan's geometry is the same bits on
every machine.

numpy hands matrix products and solves to OpenBLAS, which picks its kernels by the CPU it runs
on (Haswell, SkylakeX, Zen...): the same 8x8 solve came out different in its last bits on two
machines, and that difference reached the manifests that record a scan's matrix. CPython's
float arithmetic is plain IEEE double, one operation at a time, the same everywhere; the
matrices here are 3x3 and the one solve 8x8, so nothing is lost by doing it by hand.
"""

from __future__ import annotations

from collections.abc import Sequence

Mat3 = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
Point = tuple[float, float]


def mat3(rows: Sequence[Sequence[float]]) -> Mat3:
    (a, b, c), (d, e, f), (g, h, i) = rows
    return (
        (float(a), float(b), float(c)),
        (float(d), float(e), float(f)),
        (float(g), float(h), float(i)),
    )


def multiply(*factors: Mat3) -> Mat3:
    """The product of the factors, left to right."""
    out = factors[0]
    for m in factors[1:]:
        out = mat3(
            [
                [
                    (out[r][0] * m[0][c] + out[r][1] * m[1][c]) + out[r][2] * m[2][c]
                    for c in range(3)
                ]
                for r in range(3)
            ]
        )
    return out


def apply(m: Mat3, x: float, y: float) -> Point:
    """Where the map takes the point (x, y)."""
    u = m[0][0] * x + m[0][1] * y + m[0][2]
    v = m[1][0] * x + m[1][1] * y + m[1][2]
    w = m[2][0] * x + m[2][1] * y + m[2][2]
    return u / w, v / w


def inverse(m: Mat3) -> Mat3:
    """The inverse map (by cofactors; ValueError for a singular matrix)."""
    (a, b, c), (d, e, f), (g, h, i) = m
    co = (
        (e * i - f * h, c * h - b * i, b * f - c * e),
        (f * g - d * i, a * i - c * g, c * d - a * f),
        (d * h - e * g, b * g - a * h, a * e - b * d),
    )
    det = a * co[0][0] + b * co[1][0] + c * co[2][0]
    if det == 0.0:
        raise ValueError("singular 3x3 matrix")
    return mat3([[v / det for v in row] for row in co])


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting (a square, not singular)."""
    return solve_each(a, [b])[0]


def solve_each(a: list[list[float]], bs: list[list[float]]) -> list[list[float]]:
    """`solve(a, b)` for each b of `bs`, eliminating `a` once: every right-hand side is a
    column of the same augmented rows, so each gets the very operations `solve` gives it."""
    n = len(a)
    if any(len(b) != n for b in bs):
        raise ValueError("a right-hand side's length is not the system's")
    rows = [[*map(float, row), *(float(b[i]) for b in bs)] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if rows[pivot][col] == 0.0:
            raise ValueError("singular system")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / head[col]
            if factor:
                rows[r] = [v - factor * h for v, h in zip(rows[r], head, strict=True)]
    solutions = []
    for k in range(len(bs)):
        x = [0.0] * n
        for r in range(n - 1, -1, -1):
            acc = rows[r][n + k]
            for c in range(r + 1, n):
                acc -= rows[r][c] * x[c]
            x[r] = acc / rows[r][r]
        solutions.append(x)
    return solutions


def homography(source: Sequence[Point], target: Sequence[Point]) -> Mat3:
    """The projective map taking four points onto four others."""
    rows: list[list[float]] = []
    rhs: list[float] = []
    for (x, y), (u, v) in zip(source, target, strict=True):
        rows.append([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y])
        rows.append([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y])
        rhs.extend([u, v])
    h = solve(rows, rhs)
    return mat3([h[0:3], h[3:6], [h[6], h[7], 1.0]])


def affine_fit(source: Sequence[Point], target: Sequence[Point]) -> Mat3:
    """The affine map closest to taking `source` onto `target` (least squares, by the normal
    equations).

    Each sum of the normal equations is accumulated point by point in order, as the matrix
    products would (x * 1.0 is x and x * y is y * x, exactly, so the symmetric entries are
    summed once), and the system is eliminated once for both right-hand sides
    (`solve_each`)."""
    sxx = sxy = sx = syy = sy = n = 0.0
    sxu = syu = su = sxv = syv = sv = 0.0
    for (x, y), (u, v) in zip(source, target, strict=True):
        sxx += x * x
        sxy += x * y
        sx += x
        syy += y * y
        sy += y
        n += 1.0
        sxu += x * u
        syu += y * u
        su += u
        sxv += x * v
        syv += y * v
        sv += v
    ata = [[sxx, sxy, sx], [sxy, syy, sy], [sx, sy, n]]
    first, second = solve_each(ata, [[sxu, syu, su], [sxv, syv, sv]])
    return mat3([first, second, [0.0, 0.0, 1.0]])
