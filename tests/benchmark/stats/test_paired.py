"""Sign test on per-document rates and Holm's correction."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from packetbench.benchmark.stats.paired import holm, sign_test


def test_sign_test_counts_and_sets_ties_aside() -> None:
    a = np.array([0.1, 0.2, 0.3, 0.0, np.nan, 0.5])
    b = np.array([0.2, 0.3, 0.3, 0.1, 0.4, 0.4])
    test = sign_test(a, b)
    assert (test.documents, test.b_higher, test.a_higher, test.ties) == (5, 3, 1, 1)
    assert test.p_value == pytest.approx(binomtest(3, 4, 0.5).pvalue)


def test_sign_test_uses_rates_not_counts() -> None:
    """A run that emits twice as many values, at the same rate, is not worse."""
    checked_a = np.array([100.0, 80, 60, 120, 90, 110, 70, 95])
    rate = np.array([0.02, 0.05, 0.01, 0.03, 0.04, 0.02, 0.06, 0.03])
    hallucinated_a = checked_a * rate
    hallucinated_b = 2 * hallucinated_a  # every count doubled ...
    checked_b = 2 * checked_a  # ... over twice the values
    test = sign_test(hallucinated_a / checked_a, hallucinated_b / checked_b)
    assert test.ties == 8 and test.p_value is None


def test_all_ties_have_no_p_value() -> None:
    assert sign_test(np.zeros(4), np.zeros(4)).p_value is None


def test_holm_matches_the_textbook_example() -> None:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, None, 0.01]) == [pytest.approx(0.5), None, pytest.approx(0.02)]
    assert holm([0.9, 0.8]) == [1.0, 1.0] or holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])
