"""`packetbench plan`: packets per tier needed to detect a difference, from a pilot run.

For each tier of the pilot and each rate asked for, the spread that one packet contributes to
the pooled rate is measured (`benchmark.stats.power.packet_sd`): between packets when the
pilot has at least two packets of the tier; otherwise between the documents of its one packet,
scaled to a packet of that many documents, which assumes documents of a packet independent
(and says so). From it, the packets per tier and per run a paired comparison of two runs needs
to detect `effect` (an absolute difference in the rate) with the given power.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from packetbench.benchmark.results.query import open_runs
from packetbench.benchmark.stats.power import packet_sd, packets_needed
from packetbench.core.errors import UsageError

DEFAULT_METRICS = ("halluc_numbers", "halluc_strings")
# The most packets per tier and per model a plan calls feasible: ten times the 10,000-packet
# corpora the scaling figures are measured for. Beyond it the answer is "not feasible", not a
# count nobody could generate, extract or pay for (a tiny effect asked for 10^20 packets).
FEASIBLE = 100_000


@dataclass(frozen=True)
class TierPlan:
    tier: str
    metric: str
    packets: int  # in the pilot
    documents: int
    rate: float | None
    sd: float | None  # per packet
    basis: str  # "packets", "documents of one packet", or why there is no estimate
    needed: int | None  # None when unknown, or when more than FEASIBLE would be needed
    feasible: bool | None = None  # None when unknown: needed <= FEASIBLE


def _check(effect: float, alpha: float, power: float, correlation: float) -> None:
    if not 0 < effect < 1:
        raise UsageError(f"--effect must be between 0 and 1, an absolute rate (got {effect})")
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1 (got {alpha})")
    if not 0 < power < 1:
        raise UsageError(f"--power must be between 0 and 1 (got {power})")
    if not -1 < correlation < 1:
        raise UsageError(f"--correlation must be between -1 and 1 (got {correlation})")


def plan(
    pilot: Path,
    effect: float,
    metrics: Sequence[str] = DEFAULT_METRICS,
    alpha: float = 0.05,
    power: float = 0.8,
    correlation: float = 0.0,
) -> list[TierPlan]:
    """Packets per tier for every tier of `pilot` and every rate in `metrics`."""
    _check(effect, alpha, power, correlation)
    with open_runs([pilot]) as runs:
        known = {c["metric"] for c in runs.metric("catalog")}
        for metric in metrics:
            if metric not in known:
                raise UsageError(f"unknown rate {metric!r}; known: {', '.join(sorted(known))}")
        rows = runs.con.execute(
            "SELECT tier, metric, packet_id, doc_id, num, den FROM unit_rates "
            "ORDER BY tier, metric, packet_id, doc_id"
        ).fetchall()
    grouped: dict[tuple[str, str], list[tuple[str, int, int]]] = {}
    for tier, metric, packet_id, _doc_id, num, den in rows:
        if metric in metrics:
            grouped.setdefault((tier, metric), []).append((packet_id, int(num), int(den)))
    out: list[TierPlan] = []
    for (tier, metric), units in sorted(
        grouped.items(), key=lambda item: (item[0][0], list(metrics).index(item[0][1]))
    ):
        packets = sorted({p for p, _, d in units if d > 0})
        docs = [(n, d) for _, n, d in units if d > 0]
        num = float(sum(n for n, _ in docs))
        den = float(sum(d for _, d in docs))
        rate = num / den if den else None
        sd: float | None = None
        if len(packets) >= 2:
            per_packet = {p: [0.0, 0.0] for p in packets}
            for p, n, d in units:
                if p in per_packet:
                    per_packet[p][0] += n
                    per_packet[p][1] += d
            sums = np.array(list(per_packet.values()))
            sd = packet_sd(sums[:, 0], sums[:, 1])
            basis = "packets"
        elif len(docs) >= 2:
            doc_sd = packet_sd(
                np.array([n for n, _ in docs], dtype=float),
                np.array([d for _, d in docs], dtype=float),
            )
            sd = None if doc_sd is None else doc_sd / math.sqrt(len(docs))
            # One packet: documents stand in for packets, assumed independent (a pilot with
            # two or more packets per tier measures the spread between packets instead).
            basis = "documents of one packet"
        else:
            basis = "too few documents with values in the pilot"
        needed: int | None = None
        feasible: bool | None = None
        if sd is not None and sd > 0:
            needed = packets_needed(sd, effect, alpha, power, correlation, limit=FEASIBLE)
            feasible = needed is not None
            if not feasible:
                basis = f"{basis}; not feasible: more than {FEASIBLE:,} packets per model"
        if sd == 0:
            basis = f"{basis}; no spread at all in the pilot (nothing to size from)"
        out.append(
            TierPlan(tier, metric, len(packets), len(docs), rate, sd, basis, needed, feasible)
        )
    return out
