"""A run's overview: its configuration, headline rates with their bootstrap intervals, and
the worst slices first, from the same metric views and estimates as the report.

A scored run's overview is kept under the viewer's cache, named by everything it is made of
(`key`: the results database as the run was opened, the records it was scored from, the
format and version), so that opening the run again costs nothing (for 1,000 hard packets
its intervals and slices take 40 s of CPU). Opening
the run checked that database and those records (`viewer.source.open_run`); a kept overview
that cannot be read or is of another layout is computed again."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import orjson

from packetbench.benchmark.records import record_path
from packetbench.benchmark.report.context import DIMENSIONS
from packetbench.benchmark.report.estimates import headline_estimates, layouts
from packetbench.benchmark.results.query import open_runs
from packetbench.benchmark.stats.bootstrap import Interval
from packetbench.benchmark.viewer import index
from packetbench.benchmark.viewer.source import RunSource
from packetbench.core import safe_read
from packetbench.core.errors import InputError, WriteFailed
from packetbench.core.writing import write_atomic

SLICE_METRICS = ("halluc_numbers", "halluc_strings", "faithfulness")
WORST_SLICES = 8  # slices shown per dimension and metric, worst first
FORMAT = "packetbench-view-overview 1"
# What a computed overview holds besides the run's configuration (`_config`, read live: a
# run's name and path depend on how it was given).
COMPUTED: dict[str, tuple[type, ...]] = {
    "headline": (list,),
    "slices": (list,),
    "recall": (dict, type(None)),
    "verdicts": (list,),
    "completion": (dict, type(None)),
}


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


def key(source: RunSource) -> str | None:
    """The name a scored run's overview is kept by (None for a run not scored yet: its
    overview counts record files, which costs nothing)."""
    if not source.scored:
        return None
    records = source.query("SELECT value FROM meta WHERE key = 'records'")
    return index.key(FORMAT, "overview", source.stamp, [r["value"] for r in records])


def kept_path(cache: Path, name: str) -> Path:
    return cache / "overview" / f"{name}.json"


def kept(source: RunSource, cache: Path) -> dict[str, Any] | None:
    """The run's overview as kept under `cache`, or None when there is none to trust."""
    name = key(source)
    if name is None:
        return None
    try:
        found = safe_read.load_json(kept_path(cache, name), "settings")
    except (OSError, ValueError, InputError):
        return None
    if not (isinstance(found, dict) and found.get("format") == FORMAT):
        return None
    computed = found.get("overview")
    if not (
        isinstance(computed, dict)
        and set(computed) == set(COMPUTED)
        and all(isinstance(computed[k], t) for k, t in COMPUTED.items())
    ):
        return None
    return {**_config(source), **computed}


def keep(source: RunSource, cache: Path, shown: dict[str, Any]) -> None:
    """Keep a scored run's overview under `cache`; one that cannot be written is computed
    again next time (a cache costs speed, never the view)."""
    name = key(source)
    if name is None:
        return
    stored = {"format": FORMAT, "overview": {k: shown[k] for k in COMPUTED}}
    with contextlib.suppress(InputError, WriteFailed):
        write_atomic(
            kept_path(cache, name),
            orjson.dumps(stored, default=str, option=orjson.OPT_NON_STR_KEYS),
        )


def kept_or_computed(source: RunSource, cache: Path) -> dict[str, Any]:
    """The run's overview as kept under `cache`, else computed and kept (`view --out`)."""
    found = kept(source, cache)
    if found is None:
        found = overview(source)
        keep(source, cache, found)
    return found


def overview(source: RunSource) -> dict[str, Any]:
    """What the run's first page shows."""
    out: dict[str, Any] = {**_config(source), "headline": [], "slices": [], "recall": None}
    if not source.scored:
        out["extracted"] = sum(
            record_path(source.path, p.packet_id, d.doc_id).is_file() for p, d in source.documents
        )
        return out
    with open_runs([source.path], memo=source.memo) as runs:
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
        # The worst slices of every dimension and metric in one pass over the slices view
        # (a view is computed again by every query: one per dimension and metric took 7 of
        # the 1,000-packet run's 11 minutes).
        worst: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for row in runs.rows(
            "SELECT * FROM (SELECT dimension, metric, slice, label, better, num, den, micro, "
            "documents, small, row_number() OVER (PARTITION BY dimension, metric "
            "ORDER BY CASE WHEN better = 'lower' THEN -micro ELSE micro END, slice) AS n "
            f"FROM slices WHERE metric IN ({', '.join(map(repr, SLICE_METRICS))})) "
            "WHERE n <= ? ORDER BY dimension, metric, n",
            [WORST_SLICES],
        ):
            worst.setdefault((row["dimension"], row["metric"]), []).append(row)
        for dimension, title in dict(DIMENSIONS).items():
            for metric in SLICE_METRICS:
                rows = worst.get((dimension, metric))
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
