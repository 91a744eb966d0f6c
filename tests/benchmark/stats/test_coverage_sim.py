"""The reports' 95 % intervals on simulated runs whose true rate is known: a small bank of the
canonical N1 and N2 packets under 20 seeds. The wide check, a bank of 1,000 extracted packets
and 200 draws by packet and by document, is benchmarks/bootstrap_coverage.py (its figures in
docs/measurements.md)."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from packetbench.truth.packets import find_packets
from tests.support.benchmarks import load_benchmark
from tests.support.paths import PACKETS


def _coverage_module() -> ModuleType:
    return load_benchmark("bootstrap_coverage")


def test_cluster_intervals_cover_on_the_canonical_packets() -> None:
    """The fast tier's check, on a bank of the canonical N1 and N2 packets under 20 seeds
    (40 extracted packets, a second to build): 40 cluster-bootstrap draws of 40 packets
    each; the true rate (the bank's) inside the interval in at least 75 % of them (90 % and
    82.5 %; a seeded draw, the same figures every run). Too few draws to tell 95 % from 90 %,
    as the benchmark does; enough to catch intervals that miss or are far too narrow."""
    packets = [p for p in find_packets(PACKETS) if p.packet_id in ("N1-000001", "N2-000001")]
    bench = _coverage_module()
    small = bench.build_bank(packets, 20)
    rng = np.random.default_rng(3)
    extracted = np.unique(small.packet)
    members = {p: np.flatnonzero(small.packet == p) for p in extracted}
    hits = []
    for _ in range(40):
        drawn = rng.choice(extracted, len(extracted))
        rows = np.concatenate([members[p] for p in drawn])
        clusters = np.concatenate(
            [np.full(len(members[p]), slot) for slot, p in enumerate(drawn)]
        ).astype(np.int64)
        hits.append(bench.interval_hits(small, rows, clusters))
    coverage = bench.coverage_of(hits)
    for kind in bench.CLASSES:
        assert coverage[kind] >= 0.75, coverage
