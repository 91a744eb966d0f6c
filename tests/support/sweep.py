"""How wide the many-seed sweeps are. CI (the README's test command) runs each at its full
width; the fast tier (`make test`, which sets ``PACKETBENCH_TESTS=fast``) runs the first few
seeds of each, so every property is still checked on real packets, just on fewer of them."""

from __future__ import annotations

import os

FAST = os.environ.get("PACKETBENCH_TESTS", "full") == "fast"
FAST_WIDTH = 2


def width(count: int) -> int:
    """How many of `count` seeds a sweep runs in this profile."""
    return min(count, FAST_WIDTH) if FAST else count


def seeds(count: int, start: int = 1) -> range:
    """Seeds `start` .. `start + count - 1`, or the first few of them in the fast tier."""
    return range(start, start + width(count))
