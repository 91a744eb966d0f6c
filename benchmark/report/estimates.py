"""Point estimates from the metric views, with bootstrap intervals over documents and packets.

The views give, per scored document, the numerator and denominator of each rate (unit_rates,
slice_units) and the point estimates (headline, slices). This module lays the per-document
counts of one run out as matrices and asks `benchmark.stats.bootstrap` for intervals: by
documents, and clustered by packet. Every rate of a run is resampled with the same replicates.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmark.results.query import RunSet
from benchmark.stats.bootstrap import Interval, intervals, point


@dataclass(frozen=True)
class Estimate:
    """A rate of one run (or one slice of it) with its four intervals."""

    micro: float | None
    macro: float | None
    micro_doc: Interval
    macro_doc: Interval
    micro_packet: Interval
    macro_packet: Interval


@dataclass(frozen=True)
class Layout:
    """The scored documents of one run, in a fixed order, and the packet of each."""

    documents: list[tuple[str, str]]
    clusters: np.ndarray[Any, np.dtype[np.int64]]

    def index(self) -> dict[tuple[str, str], int]:
        return {doc: i for i, doc in enumerate(self.documents)}


def layouts(runs: RunSet) -> dict[str, Layout]:
    """Scored documents of every run, by (packet_id, doc_id), with a packet number each."""
    rows = runs.con.execute(
        "SELECT run_id, packet_id, doc_id FROM documents WHERE status = 'scored' "
        "ORDER BY run_id, packet_id, doc_id").fetchall()
    grouped: dict[str, list[tuple[str, str]]] = {name: [] for name in runs.names}
    for run_id, packet_id, doc_id in rows:
        grouped[run_id].append((packet_id, doc_id))
    out: dict[str, Layout] = {}
    for name, docs in grouped.items():
        packets = {p: i for i, p in enumerate(sorted({p for p, _ in docs}))}
        out[name] = Layout(docs, np.array([packets[p] for p, _ in docs], dtype=np.int64))
    return out


def _none(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def estimate_units(layout: Layout, units: Sequence[tuple[Hashable, str, str, int, int]]
                   ) -> dict[Hashable, Estimate]:
    """Estimates of every key from (key, packet_id, doc_id, num, den) rows of one run."""
    keys = sorted({row[0] for row in units}, key=repr)
    column = {key: i for i, key in enumerate(keys)}
    where = layout.index()
    num = np.zeros((len(layout.documents), len(keys)))
    den = np.zeros_like(num)
    for key, packet_id, doc_id, n, d in units:
        row = where[(packet_id, doc_id)]
        num[row, column[key]] += n
        den[row, column[key]] += d
    if not keys or not layout.documents:
        return {}
    by_doc = intervals(num, den)
    by_packet = intervals(num, den, layout.clusters)
    micro, macro = point(num, den)
    has = den > 0
    documents = has.sum(axis=0)
    packets = np.array([len(np.unique(layout.clusters[has[:, i]])) for i in range(len(keys))])
    # An interval needs at least two units to vary: a slice inside one packet has no packet
    # interval (the cluster bootstrap would only ever redraw that packet).
    blank = Interval(None, None)
    return {key: Estimate(_none(micro[i]), _none(macro[i]),
                          by_doc.micro[i] if documents[i] > 1 else blank,
                          by_doc.macro[i] if documents[i] > 1 else blank,
                          by_packet.micro[i] if packets[i] > 1 else blank,
                          by_packet.macro[i] if packets[i] > 1 else blank)
            for key, i in column.items()}


def headline_estimates(runs: RunSet, layout: dict[str, Layout]
                       ) -> dict[tuple[str, str], Estimate]:
    """(run, metric) -> estimate of every headline rate."""
    rows = runs.con.execute(
        "SELECT run_id, metric, packet_id, doc_id, num, den FROM unit_rates").fetchall()
    return _by_run(rows, layout, 1)


def slice_estimates(runs: RunSet, layout: dict[str, Layout]
                    ) -> dict[tuple[str, str, str, str], Estimate]:
    """(run, dimension, slice, metric) -> estimate of every rate of every slice."""
    rows = runs.con.execute(
        "SELECT run_id, dimension, slice, metric, packet_id, doc_id, num, den "
        "FROM slice_units").fetchall()
    return _by_run(rows, layout, 3)


def _by_run(rows: list[tuple[Any, ...]], layout: dict[str, Layout], key_width: int
            ) -> dict[Any, Estimate]:
    per_run: dict[str, list[tuple[Hashable, str, str, int, int]]] = {}
    for row in rows:
        key = row[1] if key_width == 1 else tuple(row[1:1 + key_width])
        packet_id, doc_id, num, den = row[1 + key_width:]
        per_run.setdefault(row[0], []).append((key, packet_id, doc_id, int(num), int(den)))
    out: dict[Any, Estimate] = {}
    for run_id, units in per_run.items():
        for key, estimate in estimate_units(layout[run_id], units).items():
            full = (run_id, key) if key_width == 1 else (run_id, *key)  # type: ignore[misc]
            out[full] = estimate
    return out
