"""Point estimates from the metric views, with bootstrap intervals over documents and packets.

The views give, per scored document, the numerator and denominator of each rate (unit_rates,
slice_unit_rows) and the point estimates (headline, slices). This module numbers the scored
documents of one run and the rates (keys) of a view in DuckDB, fetches the counts as numpy
arrays a batch of keys at a time, lays each batch out as (documents x keys) matrices and asks
`benchmark.stats.bootstrap` for intervals: by documents, and clustered by packet. No row
becomes a Python object, and a batch holds at most `bootstrap.MAX_CELLS` cells a matrix, so
a report's memory does not grow with the number of rows of the views. Every batch draws the
same replicates (the generator is seeded from the run's size alone), so every rate of a run
is resampled with the same replicates, whatever the batches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from packetbench.benchmark.results.query import RunSet
from packetbench.benchmark.stats.bootstrap import MAX_CELLS, Interval, intervals, point


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
    """The scored documents of one run, numbered in (packet_id, doc_id) order in the temporary
    table `table`, and the packet number of each."""

    run_id: str
    table: str
    clusters: np.ndarray[Any, np.dtype[np.int64]]


def layouts(runs: RunSet) -> dict[str, Layout]:
    """Scored documents of every run, numbered, with a packet number each."""
    out: dict[str, Layout] = {}
    for index, name in enumerate(runs.names):
        table = f"{runs.scratch_schema}.estimate_documents_{index}"
        runs.con.execute(
            f"CREATE OR REPLACE TABLE {table} AS SELECT packet_id, doc_id, "
            "CAST(row_number() OVER (ORDER BY packet_id, doc_id) - 1 AS BIGINT) AS doc, "
            "CAST(dense_rank() OVER (ORDER BY packet_id) - 1 AS BIGINT) AS packet "
            "FROM documents WHERE run_id = ? AND status = 'scored' ORDER BY doc",
            [name],
        )
        clusters = runs.con.execute(f"SELECT packet FROM {table} ORDER BY doc").fetchnumpy()
        out[name] = Layout(name, table, np.asarray(clusters["packet"], dtype=np.int64))
    return out


def _none(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def estimate_view(
    runs: RunSet, layout: Layout, view: str, keys: tuple[str, ...]
) -> dict[tuple[Any, ...], Estimate]:
    """Estimates of every key (the values of the `keys` columns) of `view`, a metric view
    with run_id, packet_id, doc_id, num and den per scored document and key, for one run."""
    con = runs.con
    columns = ", ".join(keys)
    keys_table, units_table = (
        f"{runs.scratch_schema}.estimate_{name}" for name in ("keys", "units")
    )
    con.execute(
        f"CREATE OR REPLACE TABLE {keys_table} AS SELECT {columns}, "
        f"CAST(row_number() OVER (ORDER BY {columns}) - 1 AS BIGINT) AS key "
        f"FROM (SELECT DISTINCT {columns} FROM {view} WHERE run_id = ?)",
        [layout.run_id],
    )
    con.execute(
        f"CREATE OR REPLACE TABLE {units_table} AS "
        "SELECT k.key, d.doc, CAST(u.num AS BIGINT) AS num, "
        "CAST(u.den AS BIGINT) AS den "
        f"FROM (SELECT * FROM {view} WHERE run_id = ?) AS u "
        f"JOIN {keys_table} AS k USING ({columns}) "
        f"JOIN {layout.table} AS d USING (packet_id, doc_id)",
        [layout.run_id],
    )
    named = con.execute(f"SELECT key, {columns} FROM {keys_table} ORDER BY key").fetchall()
    n_docs = len(layout.clusters)
    out: dict[tuple[Any, ...], Estimate] = {}
    if not named or not n_docs:
        return out
    batch = max(1, MAX_CELLS // n_docs)
    for first in range(0, len(named), batch):
        found = con.execute(
            f"SELECT key, doc, num, den FROM {units_table} "
            "WHERE key >= ? AND key < ? ORDER BY key, doc",
            [first, first + batch],
        ).fetchnumpy()
        width = min(batch, len(named) - first)
        num = np.zeros((n_docs, width))
        den = np.zeros_like(num)
        column = np.asarray(found["key"], dtype=np.int64) - first
        row = np.asarray(found["doc"], dtype=np.int64)
        # one row per document and key in the views (tests hold them to it)
        num[row, column] = found["num"]
        den[row, column] = found["den"]
        estimates = _estimates(num, den, layout.clusters)
        for i, estimate in enumerate(estimates):
            out[tuple(named[first + i][1:])] = estimate
    return out


def _estimates(
    num: np.ndarray[Any, np.dtype[np.float64]],
    den: np.ndarray[Any, np.dtype[np.float64]],
    clusters: np.ndarray[Any, np.dtype[np.int64]],
) -> list[Estimate]:
    """The estimate of every column of (documents x keys) count matrices."""
    by_doc = intervals(num, den)
    by_packet = intervals(num, den, clusters)
    micro, macro = point(num, den)
    has = den > 0
    documents = has.sum(axis=0)
    packets = [len(np.unique(clusters[has[:, i]])) for i in range(num.shape[1])]
    # An interval needs at least two units to vary: a slice inside one packet has no packet
    # interval (the cluster bootstrap would only ever redraw that packet).
    blank = Interval(None, None)
    return [
        Estimate(
            _none(micro[i]),
            _none(macro[i]),
            by_doc.micro[i] if documents[i] > 1 else blank,
            by_doc.macro[i] if documents[i] > 1 else blank,
            by_packet.micro[i] if packets[i] > 1 else blank,
            by_packet.macro[i] if packets[i] > 1 else blank,
        )
        for i in range(num.shape[1])
    ]


def headline_estimates(runs: RunSet, layout: dict[str, Layout]) -> dict[tuple[str, str], Estimate]:
    """(run, metric) -> estimate of every headline rate."""
    return {
        (name, *key): estimate
        for name in runs.names
        for key, estimate in estimate_view(runs, layout[name], "unit_rates", ("metric",)).items()
    }


def slice_estimates(
    runs: RunSet, layout: dict[str, Layout]
) -> dict[tuple[str, str, str, str], Estimate]:
    """(run, dimension, slice, metric) -> estimate of every rate of every slice."""
    return {
        (name, *key): estimate
        for name in runs.names
        for key, estimate in estimate_view(
            runs, layout[name], "slice_unit_rows", ("dimension", "slice", "metric")
        ).items()
    }
