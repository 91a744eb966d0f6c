"""Pixel boxes (x0, y0, x1, y1) on a rendered page."""

from __future__ import annotations


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int], grow: int = 0) -> bool:
    """Whether the boxes touch once each is grown by `grow` pixels."""
    return not (
        a[2] + grow <= b[0] or b[2] + grow <= a[0] or a[3] + grow <= b[1] or b[3] + grow <= a[1]
    )
