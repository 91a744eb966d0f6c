"""Box geometry of citations: normalised page boxes, PDF points, intersection over union.

A model cites a box in the page's 0-1 coordinates with the origin at the top left (as it sees
an image); the truth holds boxes in PDF points with the origin at the bottom left (as
pypdfium2's `get_text_bounded` takes them). Both conversions live here, once.
"""

from __future__ import annotations

import math

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 with x0 <= x1 and y0 <= y1

IOU_MATCH = 0.5  # a cited box supports a value when its IoU with a truth box reaches this


def ordered(box: Box) -> Box:
    x0, y0, x1, y1 = box
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def normalised_to_points(box: Box, width: float, height: float) -> Box:
    """A top-left-origin 0-1 box on a `width` x `height` point page, in bottom-left points."""
    x0, y0, x1, y1 = ordered(box)
    return (
        round(x0 * width, 2),
        round((1.0 - y1) * height, 2),
        round(x1 * width, 2),
        round((1.0 - y0) * height, 2),
    )


def points_to_normalised(box: Box, width: float, height: float) -> Box:
    """The inverse of `normalised_to_points` (unrounded)."""
    x0, y0, x1, y1 = ordered(box)
    return (x0 / width, 1.0 - y1 / height, x1 / width, 1.0 - y0 / height)


def area(box: Box) -> float:
    x0, y0, x1, y1 = ordered(box)
    return max(0.0, x1 - x0) * max(0.0, y1 - y0)


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes in one coordinate system (0.0 when both are
    empty: two points are not a match)."""
    ax0, ay0, ax1, ay1 = ordered(a)
    bx0, by0, bx1, by1 = ordered(b)
    inter = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
    union = area(a) + area(b) - inter
    return inter / union if union > 0 else 0.0


def valid_normalised(box: Box) -> bool:
    """Every coordinate finite and within [0, 1], and the box not empty."""
    return all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in box) and area(box) > 0


def box_matches(cited_page: int, cited: Box, truth_page: int, truth: Box) -> bool:
    """A cited box supports a truth location when it is on the same page and their IoU
    reaches `IOU_MATCH`."""
    return cited_page == truth_page and iou(cited, truth) >= IOU_MATCH
