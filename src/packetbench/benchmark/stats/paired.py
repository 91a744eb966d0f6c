"""Paired tests of two runs on the same documents: the sign test and Holm's correction.

The sign test compares per-document *rates*, not counts: a run that emits more values has
more chances to invent one, and must not look worse for that alone. Documents where the two
rates are equal are set aside (they say nothing about which run is worse).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.stats import binomtest


@dataclass(frozen=True)
class SignTest:
    documents: int  # documents where both runs have a rate
    b_higher: int
    a_higher: int
    ties: int
    p_value: float | None  # two-sided; None when every document is a tie


def sign_test(rate_a: npt.NDArray[np.float64], rate_b: npt.NDArray[np.float64]) -> SignTest:
    """Two-sided exact sign test on paired per-document rates (NaN: no rate, left out)."""
    both = np.isfinite(rate_a) & np.isfinite(rate_b)
    a, b = rate_a[both], rate_b[both]
    b_higher = int(np.sum(b > a))
    a_higher = int(np.sum(a > b))
    ties = int(both.sum()) - b_higher - a_higher
    decided = b_higher + a_higher
    p_value = float(binomtest(b_higher, decided, 0.5).pvalue) if decided else None
    return SignTest(int(both.sum()), b_higher, a_higher, ties, p_value)


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm-Bonferroni adjusted p-values (step-down, monotone), in the order given. A test
    that could not be run (None) stays None and does not count in the family."""
    present = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    adjusted: list[float | None] = [None] * len(p_values)
    family = len(present)
    running = 0.0
    for rank, (p, index) in enumerate(present):
        running = max(running, min(1.0, (family - rank) * p))
        adjusted[index] = running
    return adjusted
