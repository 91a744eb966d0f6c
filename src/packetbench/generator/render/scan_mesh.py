"""Paper that is not flat: a page curling up at an edge or a corner, folded and flattened again,
as a phone photographs it (`Mesh`).

The page's distortion is a displacement of its points (PDF points, origin bottom-left) before
the scan's homography: a point p of the native page lands at H(p + D(p)) on the scanned page
(`scan_draw.Transform`). D is smooth and small (its slope is a few hundredths), made of

- a curl: the paper beyond a line near one edge or corner rises toward that edge (height
  growing with the square of the distance past the line, reaching its full lift at the
  page's farthest point: no kink on the page, where a mesh cell would not follow it); the
  camera enlarges what is nearer it about the middle of the page, and the lifted paper's own
  slope shortens it toward the edge. Text lines over a lifted corner bend.
- folds: across a line (the middle of the page, or its thirds for a letter folded for an
  envelope) the two sides turn and stretch slightly apart, each by a share of its distance from
  the fold (a smoothed |d|: the ridge is a few points wide), so a text line crossing the fold
  kinks there and the columns across a horizontal fold step aside.

and a light: each fold's ridge a dark line with one side of it in a slight shadow, the curl
darker as it rises.

The scan draws the page once, unmoved, and warps it with one piecewise-bilinear mesh
(`scan_draw.draw`): the map is evaluated at the corners of cells `STEP` pixels square of the
scanned image (inverted by fixed-point iteration: D's slope is far below 1), and Pillow's MESH
transform fills each cell. The located values' boxes follow H(p + D(p)) exactly
(`scan_draw.Transform`); the drawing is within a few hundredths of a pixel of it.

The distortion's random choices are drawn from the scan's homography (its nine floats, as the
manifest records them): the same page scanned the same way is distorted the same way, and
the audit, which redraws the clean page from the recorded matrix (`scan.clean_page`),
redraws it distorted as the scan did. Only IEEE arithmetic and square roots (no
transcendental functions, whose last bits vary with a CPU's vector library), so a page's
pixels are the same bits on every machine.
"""

from __future__ import annotations

import hashlib
import math
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

from packetbench.generator.render.scan_levels import Level

Matrix = np.ndarray[Any, Any]

# Pixels between the mesh's vertices: the map is nearly affine over a cell this size (the
# homography's and the curl's curvature), so bilinear cells stay within a tenth of a pixel of
# it; across a fold's ridge, where D bends within a few points, they are FINE pixels apart.
STEP = 32
FINE = 16
# A fold's ridge is lit as flat paper beyond this many `Fold.soft` from it (its darkening is
# under 1 % of its depth there).
RIDGE_REACH = 10.0
# Fixed-point iterations inverting p + D(p) = q: each divides the error by at least ten.
ITERATIONS = 8


@dataclass(frozen=True)
class Fold:
    """A fold line: points p with p . normal = offset, `tangent` along it."""

    normal: tuple[float, float]
    offset: float
    turn: float  # displacement along the fold per point of distance from it
    stretch: float  # displacement across the fold per point of distance from it
    soft: float  # half-width of the ridge, points
    ridge: float  # darkening on the ridge (0-1)
    shade: float  # lightening of the fold's shoulder facing the light (sign: which side)


@dataclass(frozen=True)
class Mesh:
    """A page's distortion (see the module): the curl and the folds, in PDF points."""

    width: float
    height: float
    toward: tuple[float, float]  # unit vector from the page toward the lifted edge or corner
    start: float  # p . toward where the curl begins
    reach: float  # points past `start` the curl reaches its full `lift`
    lift: float  # the curl's height there, points
    distance: float  # the camera's distance from the page, points
    curl_shade: float  # darkening where the curl is highest (0-1)
    folds: tuple[Fold, ...]

    def details(self) -> dict[str, Any]:
        """What the manifest records of it (informative: the audit redraws it from the
        matrix)."""
        return {
            "curl": {
                "toward": [round(v, 3) for v in self.toward],
                "lift": round(self.lift, 2),
                "reach": round(self.reach, 1),
            },
            "folds": [
                {"normal": [round(v, 3) for v in f.normal], "at": round(f.offset, 1)}
                for f in self.folds
            ],
        }

    def displacement(self, x: float, y: float) -> tuple[float, float]:
        """D(x, y) in plain floats (the located values' boxes are moved through it): the same
        operations as `displacements` on float64 scalars, so a box moves exactly as its pixels."""
        dx, dy = self.displacements(np.array(x, dtype=np.float64), np.array(y, dtype=np.float64))
        return float(dx), float(dy)

    def displacements(self, x: Matrix, y: Matrix) -> tuple[Matrix, Matrix]:
        """The displacement of the points (x, y), elementwise over float64 arrays or scalars."""
        cx, cy = self.width / 2, self.height / 2
        ux, uy = self.toward
        s = np.maximum((x * ux + y * uy - self.start) / self.reach, 0.0)
        z = self.lift * s * s
        grow = z / (self.distance - z)
        inward = 2.0 * self.lift * self.lift * s * s * s / (3.0 * self.reach)
        dx = (x - cx) * grow - inward * ux
        dy = (y - cy) * grow - inward * uy
        for f in self.folds:
            nx, ny = f.normal
            d = x * nx + y * ny - f.offset
            rho = np.sqrt(d * d + f.soft * f.soft) - f.soft
            dx = dx + (-ny * f.turn + nx * f.stretch) * rho
            dy = dy + (nx * f.turn + ny * f.stretch) * rho
        return dx, dy

    def undo(self, x: Matrix, y: Matrix) -> tuple[Matrix, Matrix]:
        """The native points p with p + D(p) = (x, y) (fixed-point iteration)."""
        px, py = x, y
        for _ in range(ITERATIONS):
            dx, dy = self.displacements(px, py)
            px, py = x - dx, y - dy
        return px, py

    def light(self, x: Matrix, y: Matrix, folds: bool = True) -> Matrix:
        """The paper's light at native points (1: as lit as flat paper): the curl darker as
        it rises, and with `folds` each fold's (`fold_light`)."""
        ux, uy = self.toward
        s = np.maximum((x * ux + y * uy - self.start) / self.reach, 0.0)
        light = 1.0 - self.curl_shade * s * s
        if folds:
            for f in self.folds:
                light = light * fold_light(f, x * f.normal[0] + y * f.normal[1])
        return np.asarray(light, dtype=np.float32)


def fold_light(fold: Fold, at: Matrix) -> Matrix:
    """A fold's light at points whose p . normal is `at`: a dark ridge along the fold, its
    darkening falling off as 1 / (1 + (d / soft)^2), and beside it a lighter line on the side
    the fold faces the light (`Fold.shade`: its sign the side, its size the lightening)."""
    d = (at - fold.offset) / fold.soft
    ridge = fold.ridge / (1.0 + d * d)
    e = d - (2.0 if fold.shade > 0 else -2.0)
    glint = abs(fold.shade) / (1.0 + e * e)
    return np.asarray(np.clip((1.0 - ridge) * (1.0 + glint), 0.0, 1.0), dtype=np.float32)


def _seed(matrix: list[float]) -> int:
    """A seed from the scan's homography as recorded (its nine floats' bits)."""
    digest = hashlib.blake2b(struct.pack("<9d", *matrix), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def mesh(level: Level, matrix: list[float], width: float, height: float) -> Mesh | None:
    """The distortion of a page of `width` x `height` points scanned at `level` under
    `matrix` (its homography, row by row, as the manifest records it); None for a level whose
    paper is flat (no `Level.curl`, no `Level.folds`)."""
    if not level.curl and not level.folds:
        return None
    rng = np.random.Generator(np.random.PCG64(_seed(matrix)))
    # The curl: toward an edge (a page's far edge lifting) or a corner.
    corner = bool(rng.random() < 0.5)
    sx, sy = (1.0 if rng.random() < 0.5 else -1.0), (1.0 if rng.random() < 0.5 else -1.0)
    if corner:
        ax, ay = sx * float(rng.uniform(0.6, 1.0)), sy * float(rng.uniform(0.6, 1.0))
    elif rng.random() < 0.5:
        ax, ay = float(rng.uniform(-0.15, 0.15)), sy
    else:
        ax, ay = sx, float(rng.uniform(-0.15, 0.15))
    norm = math.sqrt(ax * ax + ay * ay)
    ux, uy = ax / norm, ay / norm
    # How far the page reaches toward it: its farthest corner along `toward`.
    far = max(x * ux + y * uy for x in (0.0, width) for y in (0.0, height))
    reach = min(width, height) * float(rng.uniform(0.25, 0.45))
    lift = level.curl * float(rng.uniform(0.6, 1.0))
    folds: list[Fold] = []
    if level.folds:
        across = level.folds == 2 or rng.random() < 0.5  # a fold across the page's height
        normal = (0.0, 1.0) if across else (1.0, 0.0)
        side = height if across else width
        for k in range(level.folds):
            at = side * (k + 1) / (level.folds + 1) + float(rng.uniform(-0.03, 0.03)) * side
            sign = 1.0 if rng.random() < 0.5 else -1.0
            folds.append(
                Fold(
                    normal=normal,
                    offset=at,
                    turn=sign * level.fold * float(rng.uniform(0.6, 1.0)),
                    stretch=level.fold * float(rng.uniform(-0.4, 0.4)),
                    soft=float(rng.uniform(3.0, 6.0)),
                    ridge=float(rng.uniform(0.12, 0.22)),
                    shade=(1.0 if rng.random() < 0.5 else -1.0) * float(rng.uniform(0.04, 0.1)),
                )
            )
    return Mesh(
        width=width,
        height=height,
        toward=(ux, uy),
        start=far - reach,
        reach=reach,
        lift=lift,
        distance=float(rng.uniform(900.0, 1300.0)),
        curl_shade=float(rng.uniform(0.05, 0.15)) if lift else 0.0,
        folds=tuple(folds),
    )
