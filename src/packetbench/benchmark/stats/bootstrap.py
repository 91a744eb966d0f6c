"""Percentile bootstrap intervals for rates that are ratios of per-document counts.

A rate has a numerator and a denominator per document (hallucinated / checked values). The
micro rate pools them, sum(num) / sum(den); the macro rate averages the documents' own rates
over the documents that have a denominator. A bootstrap replicate draws the documents (or,
clustered, the packets, each with all its documents) with replacement: replicate weights are
multinomial counts, so every rate of a run is computed from the same replicates by one matrix
product. The generator is seeded from `SEED` and the number of units, so a run's intervals do
not depend on which other runs share a report.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

RESAMPLES = 2000
SEED = 20_250_601
COVERAGE = 0.95
CHUNK = 250  # replicates drawn at a time, to bound memory on big runs
# At most this many cells (replicates x documents) in a chunk: a run of 10^6 documents draws
# 8 replicates at a time (64 MB a matrix) instead of 250 (2 GB). Runs under 32,000 documents
# keep chunks of 250, so their intervals are the ones they always had.
MAX_CELLS = 8_000_000

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Interval:
    low: float | None
    high: float | None

    def contains(self, value: float) -> bool:
        return self.low is not None and self.high is not None and self.low <= value <= self.high


def _units(
    clusters: npt.NDArray[np.int64] | None, n_docs: int
) -> tuple[int, npt.NDArray[np.int64] | None]:
    if clusters is None:
        return n_docs, None
    labels, index = np.unique(clusters, return_inverse=True)
    return len(labels), index.astype(np.int64)


def replicate_weights(
    n_docs: int,
    clusters: npt.NDArray[np.int64] | None = None,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> Iterator[Array]:
    """Chunks of replicate weights, each (replicates x documents): how often each document
    is drawn. With `clusters` (a packet number per document) packets are drawn instead, and
    each document weighs what its packet does."""
    n_units, index = _units(clusters, n_docs)
    rng = np.random.default_rng([seed, n_units, n_docs])
    done = 0
    chunk = max(1, min(CHUNK, MAX_CELLS // max(n_docs, n_units, 1)))
    while done < resamples:
        size = min(chunk, resamples - done)
        # n_units draws with replacement per replicate, counted per unit (a multinomial
        # draw, counted with one bincount: far faster than numpy's multinomial sampler)
        drawn = rng.integers(0, n_units, size=(size, n_units))
        drawn += np.arange(size)[:, None] * n_units
        counts = (
            np.bincount(drawn.ravel(), minlength=size * n_units)
            .reshape(size, n_units)
            .astype(np.float64)
        )
        yield counts if index is None else counts[:, index]
        done += size


def point(num: Array, den: Array) -> tuple[Array, Array]:
    """Micro and macro rate of every column of (documents x rates) count matrices; NaN
    where there is nothing to rate."""
    with np.errstate(invalid="ignore", divide="ignore"):
        total = den.sum(axis=0)
        micro = np.where(total > 0, num.sum(axis=0) / np.where(total > 0, total, 1), np.nan)
        has = den > 0
        own = np.where(has, num / np.where(has, den, 1), 0.0)
        count = has.sum(axis=0)
        macro = np.where(count > 0, own.sum(axis=0) / np.where(count > 0, count, 1), np.nan)
    return micro, macro


def replicate_rates(num: Array, den: Array, weights: Array) -> tuple[Array, Array]:
    """Micro and macro rates under each replicate's weights: (replicates x rates) each."""
    has = (den > 0).astype(np.float64)
    own = np.where(den > 0, num / np.where(den > 0, den, 1), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        micro = (weights @ num) / (weights @ den)
        macro = (weights @ own) / (weights @ has)
    return micro, macro


def _percentiles(replicates: Array, coverage: float) -> list[Interval]:
    tail = (1 - coverage) / 2 * 100
    out: list[Interval] = []
    for column in replicates.T:
        finite = column[np.isfinite(column)]
        if finite.size == 0:
            out.append(Interval(None, None))
            continue
        low, high = np.percentile(finite, [tail, 100 - tail])
        out.append(Interval(float(low), float(high)))
    return out


@dataclass(frozen=True)
class Intervals:
    micro: list[Interval]
    macro: list[Interval]


def intervals(
    num: Array,
    den: Array,
    clusters: npt.NDArray[np.int64] | None = None,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    coverage: float = COVERAGE,
) -> Intervals:
    """Percentile intervals of the micro and macro rate of every column."""
    micro_parts: list[Array] = []
    macro_parts: list[Array] = []
    for weights in replicate_weights(num.shape[0], clusters, resamples, seed):
        micro, macro = replicate_rates(num, den, weights)
        micro_parts.append(micro)
        macro_parts.append(macro)
    return Intervals(
        _percentiles(np.vstack(micro_parts), coverage),
        _percentiles(np.vstack(macro_parts), coverage),
    )


def paired_intervals(
    num_a: Array,
    den_a: Array,
    num_b: Array,
    den_b: Array,
    clusters: npt.NDArray[np.int64] | None = None,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    coverage: float = COVERAGE,
) -> Intervals:
    """Intervals of rate(b) - rate(a), micro and macro, for two runs on the same documents
    (row i of every matrix is the same document): each replicate draws the same documents
    for both runs."""
    micro_parts: list[Array] = []
    macro_parts: list[Array] = []
    for weights in replicate_weights(num_a.shape[0], clusters, resamples, seed):
        micro_a, macro_a = replicate_rates(num_a, den_a, weights)
        micro_b, macro_b = replicate_rates(num_b, den_b, weights)
        micro_parts.append(micro_b - micro_a)
        macro_parts.append(macro_b - macro_a)
    return Intervals(
        _percentiles(np.vstack(micro_parts), coverage),
        _percentiles(np.vstack(macro_parts), coverage),
    )
