"""Bootstrap intervals: weights, point estimates, determinism, and coverage on synthetic data
whose true rate is known."""

from __future__ import annotations

import numpy as np
import pytest

from packetbench.benchmark.stats.bootstrap import (
    RESAMPLES,
    intervals,
    paired_intervals,
    point,
    replicate_weights,
)


def test_document_weights_draw_every_document_n_times_in_all() -> None:
    chunks = list(replicate_weights(7, resamples=600))
    weights = np.vstack(chunks)
    assert weights.shape == (600, 7)
    assert np.all(weights.sum(axis=1) == 7)
    assert len(chunks) == 3  # drawn in chunks, to bound memory


def test_cluster_weights_move_a_packet_as_one() -> None:
    clusters = np.array([0, 0, 0, 1, 1, 2], dtype=np.int64)
    weights = np.vstack(list(replicate_weights(6, clusters, resamples=300)))
    assert np.all(weights[:, 0] == weights[:, 1]) and np.all(weights[:, 1] == weights[:, 2])
    assert np.all(weights[:, 3] == weights[:, 4])
    # three packets drawn per replicate: the packet counts sum to 3
    assert np.all(weights[:, 0] + weights[:, 3] + weights[:, 5] == 3)


def test_point_estimates_micro_and_macro() -> None:
    num = np.array([[1.0, 0.0], [3.0, 0.0], [0.0, 0.0]])
    den = np.array([[10.0, 0.0], [10.0, 0.0], [0.0, 0.0]])
    micro, macro = point(num, den)
    assert micro[0] == pytest.approx(0.2) and macro[0] == pytest.approx(0.2)
    assert np.isnan(micro[1]) and np.isnan(macro[1])  # a rate over nothing is not 0
    num[0, 0], den[0, 0] = 1.0, 2.0  # a small document weighs more in the macro rate
    micro, macro = point(num, den)
    assert micro[0] == pytest.approx(4 / 12) and macro[0] == pytest.approx((0.5 + 0.3) / 2)


def test_same_counts_same_intervals() -> None:
    rng = np.random.default_rng(3)
    den = rng.integers(20, 200, size=(40, 3)).astype(float)
    num = rng.binomial(den.astype(int), 0.05).astype(float)
    first, second = intervals(num, den), intervals(num, den)
    assert first == second
    other_seed = intervals(num, den, seed=7)
    assert other_seed != first
    micro, _ = point(num, den)
    for estimate, ci in zip(micro, first.micro, strict=True):
        assert ci.low is not None and ci.high is not None
        assert ci.low < estimate < ci.high


def _synthetic(
    rng: np.random.Generator, documents: int, true_rate: float, largest: int = 400
) -> tuple[np.ndarray, np.ndarray]:
    """Documents of very different sizes and own rates (beta around `true_rate`); the
    size-weighted mean of the document rates is `true_rate` in expectation."""
    den = rng.integers(5, largest, size=documents).astype(float)
    own = rng.beta(2, 2 * (1 - true_rate) / true_rate, size=documents)
    num = rng.binomial(den.astype(int), own).astype(float)
    return num.reshape(-1, 1), den.reshape(-1, 1)


def test_document_intervals_cover_a_known_rate() -> None:
    """Documents drawn from a population whose pooled rate is 0.05 and whose mean document
    rate is 0.05: the 95 % intervals (micro and macro) hold it in about 95 % of 200 draws."""
    rng = np.random.default_rng(11)
    micro_hits = macro_hits = 0
    repetitions = 200
    for _ in range(repetitions):
        num, den = _synthetic(rng, 60, 0.05)
        found = intervals(num, den, resamples=1000)
        micro_hits += found.micro[0].contains(0.05)
        macro_hits += found.macro[0].contains(0.05)
    assert 0.90 <= micro_hits / repetitions <= 0.99, micro_hits
    assert 0.90 <= macro_hits / repetitions <= 0.99, macro_hits


@pytest.mark.slow
def test_claim_level_resampling_would_not_cover() -> None:
    """The same populations resampled by value instead of by document (ignoring that values
    of a document share its rate) give intervals far too narrow: the test above can fail."""
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(60):
        num, den = _synthetic(rng, 40, 0.05, largest=120)
        values = np.concatenate(
            [
                np.r_[np.ones(int(n)), np.zeros(int(d - n))]
                for n, d in zip(num[:, 0], den[:, 0], strict=True)
            ]
        )
        ones = np.ones((values.size, 1))
        found = intervals(values.reshape(-1, 1), ones, resamples=300)
        hits += found.micro[0].contains(0.05)
    assert hits / 60 < 0.85, hits


def test_paired_interval_of_a_difference() -> None:
    rng = np.random.default_rng(5)
    den = rng.integers(50, 300, size=(50, 1)).astype(float)
    num_a = rng.binomial(den.astype(int), 0.02).astype(float)
    num_b = rng.binomial(den.astype(int), 0.06).astype(float)
    apart = paired_intervals(num_a, den, num_b, den)
    assert apart.micro[0].low is not None and apart.micro[0].low > 0
    same = paired_intervals(num_a, den, num_a, den)
    assert same.micro[0].low == same.micro[0].high == 0.0


def test_default_is_two_thousand_resamples() -> None:
    assert RESAMPLES == 2000
