"""A located value as the document audit reads it: its field, box, piece and text layer."""

from __future__ import annotations

import math
from typing import Any

Located = tuple[int, list[float], tuple[int, int], bool]  # field, bbox, piece, text layer


def piece_of(location: dict[str, Any]) -> tuple[int, int] | None:
    """(i, n) of a location holding the i-th of n pieces of a value; (1, 1) for a whole one."""
    fragment = location.get("fragment")
    if fragment is None:
        return (1, 1)
    if (
        isinstance(fragment, list)
        and len(fragment) == 2
        and all(type(v) is int for v in fragment)
        and 1 <= fragment[0] <= fragment[1]
    ):
        return (fragment[0], fragment[1])
    return None


def page_turn(fields: list[Located]) -> float:
    """How far a scanned page is turned (degrees, counter-clockwise, -180 to 180): the median
    direction of its located boxes' lower edges, from their quads. A page fed sideways or
    upside down (`scan.rotated`) turns its lower edges up, left or down: every direction
    counts, so such a page is turned back a quarter or a half turn before it is read."""
    slopes = sorted(
        math.degrees(math.atan2(b[3] - b[1], b[2] - b[0]))
        for _, b, *_ in fields
        if len(b) == 8 and math.hypot(b[2] - b[0], b[3] - b[1]) > 8
    )
    if not slopes:
        return 0.0
    # Near a half turn the directions straddle +-180: measure them from the first one.
    first = slopes[0]
    unwrapped = sorted(first + (s - first + 180.0) % 360.0 - 180.0 for s in slopes)
    middle = unwrapped[len(unwrapped) // 2]
    return (middle + 180.0) % 360.0 - 180.0
