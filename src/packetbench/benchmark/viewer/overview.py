"""A run's overview: its configuration, headline rates with their bootstrap intervals, and
the worst slices first, from the same metric views and estimates as the report."""

from __future__ import annotations

from typing import Any

from packetbench.benchmark.records import record_path
from packetbench.benchmark.report.context import DIMENSIONS
from packetbench.benchmark.report.estimates import headline_estimates, layouts
from packetbench.benchmark.results.query import open_runs
from packetbench.benchmark.stats.bootstrap import Interval
from packetbench.benchmark.viewer.source import RunSource

SLICE_METRICS = ("halluc_numbers", "halluc_strings", "faithfulness")
WORST_SLICES = 8  # slices shown per dimension and metric, worst first


def _interval(value: Interval | None) -> list[float | None] | None:
    if value is None or value.low is None or value.high is None:
        return None
    return [value.low, value.high]


def _config(source: RunSource) -> dict[str, Any]:
    info = source.info
    return {
        "name": source.name,
        "path": str(source.path),
        "provider": info.provider,
        "model": info.model,
        "simulator": info.simulator,
        "label": info.label,
        "status": info.status,
        "packets": len({p.packet_id for p, _ in source.documents}),
        "documents": len(source.documents),
        "scored": source.scored,
    }


def overview(source: RunSource) -> dict[str, Any]:
    """What the run's first page shows."""
    out: dict[str, Any] = {**_config(source), "headline": [], "slices": [], "recall": None}
    if not source.scored:
        out["extracted"] = sum(
            record_path(source.path, p.packet_id, d.doc_id).is_file() for p, d in source.documents
        )
        return out
    with open_runs([source.path], known=source.known) as runs:
        name = runs.names[0]
        estimates = headline_estimates(runs, layouts(runs))
        for view in runs.metric("headline"):
            estimate = estimates.get((name, view["metric"]))
            out["headline"].append(
                {
                    "metric": view["metric"],
                    "label": view["label"],
                    "better": view["better"],
                    "num": int(view["num"]),
                    "den": int(view["den"]),
                    "micro": view["micro"],
                    "macro": view["macro"],
                    "documents": int(view["documents_with_values"]),
                    "micro_doc": _interval(estimate.micro_doc) if estimate else None,
                    "micro_packet": _interval(estimate.micro_packet) if estimate else None,
                }
            )
        titles = dict(DIMENSIONS)
        for dimension, title in titles.items():
            for metric in SLICE_METRICS:
                rows = runs.rows(
                    "SELECT slice, label, better, num, den, micro, documents, small "
                    "FROM slices WHERE dimension = ? AND metric = ? "
                    "ORDER BY CASE WHEN better = 'lower' THEN -micro ELSE micro END, slice "
                    "LIMIT ?",
                    [dimension, metric, WORST_SLICES],
                )
                if rows:
                    out["slices"].append(
                        {
                            "dimension": dimension,
                            "title": title,
                            "metric": metric,
                            "label": rows[0]["label"],
                            "rows": [
                                {k: r[k] for k in ("slice", "num", "den", "micro", "documents")}
                                | {"small": bool(r["small"])}
                                for r in rows
                            ],
                        }
                    )
        recall = runs.metric("recall")
        out["recall"] = recall[0] if recall else None
        out["verdicts"] = [
            {"verdict": r["verdict"], "claims": int(r["claims"])} for r in runs.metric("verdicts")
        ]
        completion = runs.metric("completion")
        out["completion"] = completion[0] if completion else None
    return out
