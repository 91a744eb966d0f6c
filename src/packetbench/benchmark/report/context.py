"""Everything a report shows, gathered from the metric views of some runs.

Numbers come from the views of ``benchmark/metrics/*.sql`` (point estimates, counts) and from
`benchmark.report.estimates` (intervals resampled from the same views' per-document rows).
Nothing here reads a score file directly, so a report says what `packetbench sql` says.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench import __version__
from packetbench.benchmark.report.confidence import confidence_context
from packetbench.benchmark.report.estimates import (
    Estimate,
    headline_estimates,
    layouts,
    slice_estimates,
)
from packetbench.benchmark.report.grounding import grounding_context
from packetbench.benchmark.report.illegible import below_resolution_context, illegible_context
from packetbench.benchmark.report.judges import judges_context
from packetbench.benchmark.results.query import MIN_DOCUMENTS, MIN_VALUES, RunSet
from packetbench.benchmark.stats import bootstrap

DIMENSIONS = (
    ("tier", "Tier"),
    ("doc_type", "Document type"),
    ("format", "File format"),
    ("kind", "Field kind"),
    ("field_class", "Table vs form field"),
    ("pattern", "Presentation pattern"),
    ("pattern_tier", "Presentation pattern by tier"),
)
HALLUCINATION = ("halluc_numbers", "halluc_strings")
DOCUMENT_UNIVERSE = ("halluc_numbers_document", "halluc_strings_document")
FIRST_EXCLUDED = 20  # excluded documents listed per run (the database holds them all)
FIRST_FLAGS = 20  # consistency flags listed per run
FEW_PACKETS = 10  # below this, a cluster bootstrap over packets is only a rough interval


@dataclass
class Row:
    """One line of a rate table: a run (and slice), its counts and its estimate."""

    run: str
    series: int
    num: int
    den: int
    documents: int
    micro: float | None
    macro: float | None
    estimate: Estimate | None
    slice: str = ""
    small: bool = False


@dataclass(frozen=True)
class Listed:
    """The first rows of a long list, and how many there are (a report names the first and
    counts the rest; the database holds them all)."""

    rows: list[dict[str, Any]]
    total: int


def _first(runs: RunSet, view: str, name: str, first: int, order: str) -> Listed:
    rows = runs.rows(
        f"SELECT * FROM {view} WHERE run_id = ? ORDER BY {order} LIMIT ?", [name, first]
    )
    total = runs.rows(f"SELECT COUNT(*) AS n FROM {view} WHERE run_id = ?", [name])[0]["n"]
    return Listed(rows, int(total))


@dataclass
class RateTable:
    metric: str
    label: str
    definition: str
    better: str
    rows: list[Row] = field(default_factory=list)


def _row(
    view: dict[str, Any],
    run_index: dict[str, int],
    estimate: Estimate | None,
    documents_key: str = "documents_with_values",
) -> Row:
    return Row(
        run=view["run_id"],
        series=run_index[view["run_id"]],
        num=int(view["num"]),
        den=int(view["den"]),
        documents=int(view[documents_key]),
        micro=view["micro"],
        macro=view["macro"],
        estimate=estimate,
        slice=str(view.get("slice", "")),
        small=bool(view.get("small", False)),
    )


def _worst_first(rows: list[Row], better: str, order: list[str]) -> list[Row]:
    """Slices ordered by their worst value over the runs; runs in the order given."""
    worst: dict[str, float] = {}
    for row in rows:
        value = row.micro if row.micro is not None else 0.0
        score = value if better == "lower" else -value
        worst[row.slice] = max(worst.get(row.slice, score), score)
    return sorted(rows, key=lambda r: (-worst[r.slice], r.slice, order.index(r.run)))


def _relative(value: Any, run: Path) -> Any:
    """`value` with every absolute path in it made relative to the run folder: a report
    describes runs, not the machine, so the same runs in other folders give the same bytes."""
    if isinstance(value, dict):
        return {key: _relative(item, run) for key, item in value.items()}
    if isinstance(value, list):
        return [_relative(item, run) for item in value]
    if isinstance(value, str) and os.path.isabs(value):
        return os.path.relpath(value, run)
    return value


def _batch_priced(runs: RunSet) -> list[str]:
    """The runs extracted through a provider's batch API, whose costs are at batch prices."""
    rows = {r["run_id"]: r for r in runs.metric("runs")}
    return [
        name
        for name in runs.names
        if isinstance(json.loads(rows[name]["config"] or "{}").get("batch"), dict)
    ]


def _configuration(runs: RunSet) -> list[dict[str, Any]]:
    rows = {r["run_id"]: r for r in runs.metric("runs")}
    out: list[dict[str, Any]] = []
    for name, path in zip(runs.names, runs.paths, strict=True):
        run = rows[name]
        config = _relative(json.loads(run["config"]), path.resolve())
        items = [
            (key, json.dumps(value, sort_keys=True, ensure_ascii=False))
            for key, value in sorted(config.items())
        ]
        out.append(
            {
                "name": name,
                "path": str(path),
                "provider": run["provider"],
                "model": run["model"],
                "simulator": bool(run["simulator"]),
                "label": run["label"] or "",
                "parameters": json.dumps(json.loads(run["parameters"]), sort_keys=True),
                "toolkit_version": run["toolkit_version"],
                "git_commit": run["git_commit"],
                "git_dirty": run["git_dirty"],
                "status": run["status"],
                "packets": run["packets"],
                "items": items,
            }
        )
    return out


def _common(runs: RunSet, order: list[str]) -> dict[str, Any] | None:
    """The hallucination rates of every run on the documents every run scored
    (headline_common): the rates that compare when runs completed different documents, each
    beside its own rate over all it scored. None for one run."""
    if len(order) < 2:
        return None
    documents = int(runs.rows("SELECT COUNT(*) AS n FROM common_documents")[0]["n"])
    own = {(r["run_id"], r["metric"]): r for r in runs.metric("headline")}
    scored = {
        r["run_id"]: int(r["n"])
        for r in runs.rows(
            "SELECT run_id, COUNT(*) AS n FROM documents WHERE status = 'scored' GROUP BY run_id"
        )
    }
    rows = [
        {
            **view,
            "run": view["run_id"],
            "scored": scored.get(view["run_id"], 0),
            "own_micro": own.get((view["run_id"], view["metric"]), {}).get("micro"),
        }
        for view in runs.metric("headline_common")
        if view["metric"] in (*HALLUCINATION, *DOCUMENT_UNIVERSE)
    ]
    position = {name: i for i, name in enumerate(order)}
    rows.sort(key=lambda r: (r["position"], position[r["run_id"]]))
    return {
        "documents": documents,
        "rows": rows,
        "differ": any(n != documents for n in scored.values()),
    }


STEPS = 8  # the times build_context calls `tick` (a progress bar's total)


def build_context(runs: RunSet, tick: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """The template context of report.md and report.html; `tick` is called after each of its
    STEPS steps (the bootstrap intervals are most of the time)."""
    order = runs.names
    run_index = {name: i for i, name in enumerate(order)}
    layout = layouts(runs)
    tick()
    headline = headline_estimates(runs, layout)
    tick()
    slices = slice_estimates(runs, layout)
    tick()
    catalog = {c["metric"]: c for c in runs.metric("catalog")}

    def by_run(view: str) -> dict[str, dict[str, Any]]:
        return {r["run_id"]: r for r in runs.metric(view)}

    tables: dict[str, RateTable] = {}
    for view in runs.metric("headline"):
        metric = view["metric"]
        entry = catalog[metric]
        table = tables.setdefault(
            metric, RateTable(metric, entry["label"], entry["definition"], entry["better"])
        )
        table.rows.append(_row(view, run_index, headline.get((view["run_id"], metric))))
    for table in tables.values():
        table.rows.sort(key=lambda r: r.series)

    slice_tables: dict[tuple[str, str], RateTable] = {}
    for view in runs.metric("slices"):
        key = (view["dimension"], view["metric"])
        entry = catalog[view["metric"]]
        table = slice_tables.setdefault(
            key, RateTable(view["metric"], entry["label"], entry["definition"], entry["better"])
        )
        table.rows.append(
            _row(
                view,
                run_index,
                slices.get((view["run_id"], view["dimension"], view["slice"], view["metric"])),
                "documents",
            )
        )
    for table in slice_tables.values():
        table.rows = _worst_first(table.rows, table.better, order)

    completion = by_run("completion")
    usage = by_run("usage")
    recall = by_run("recall")
    consistency = by_run("consistency")
    excluded = {
        name: _first(runs, "excluded", name, FIRST_EXCLUDED, "packet_id, doc_id") for name in order
    }
    verdicts: dict[str, list[dict[str, Any]]] = {name: [] for name in order}
    for row in runs.metric("verdicts"):
        verdicts[row["run_id"]].append(row)
    stale: dict[str, list[dict[str, Any]]] = {name: [] for name in order}
    for row in runs.metric("stale_by_tier"):
        stale[row["run_id"]].append(row)
    rules: dict[str, list[dict[str, Any]]] = {name: [] for name in order}
    for row in runs.metric("consistency_rules"):
        rules[row["run_id"]].append(row)
    flags = {
        name: _first(runs, "consistency_flags", name, FIRST_FLAGS, "packet_id, doc_id, rule, path")
        for name in order
    }

    dimensions = []
    for dimension, title in DIMENSIONS:
        present = {
            metric: slice_tables[(d, metric)] for d, metric in slice_tables if d == dimension
        }
        dimensions.append({"name": dimension, "title": title, "tables": present})
    warnings = [
        {
            "run": row.run,
            "dimension": title,
            "slice": row.slice,
            "metric": found.label,
            "documents": row.documents,
            "value_count": row.den,
        }
        for dimension, title in DIMENSIONS
        for metric in (*HALLUCINATION, "faithfulness")
        if (found := slice_tables.get((dimension, metric)))
        for row in found.rows
        if row.small
    ]
    tick()
    illegible = illegible_context(runs, layout)
    below = below_resolution_context(runs, layout)
    tick()
    grounding = grounding_context(runs, layout)
    tick()
    judges = judges_context(runs)
    tick()
    confidence = confidence_context(runs, layout)
    tick()
    return {
        "version": __version__,
        "runs": _configuration(runs),
        "order": order,
        "simulated": [r["name"] for r in _configuration(runs) if r["simulator"]],
        "method": {
            "resamples": bootstrap.RESAMPLES,
            "seed": bootstrap.SEED,
            "level": bootstrap.COVERAGE,
            "min_documents": MIN_DOCUMENTS,
            "min_values": MIN_VALUES,
        },
        "completion": [completion[name] for name in order],
        "excluded": excluded,
        "first_excluded": FIRST_EXCLUDED,
        "tables": tables,
        "hallucination": [tables[m] for m in HALLUCINATION if m in tables],
        "common": _common(runs, order),
        "document_universe": [tables[m] for m in DOCUMENT_UNIVERSE if m in tables],
        "dimensions": dimensions,
        "recall": [recall.get(name) for name in order],
        "illegible": illegible,
        "below": below,
        "verdicts": verdicts,
        "stale": stale,
        "consistency": [consistency.get(name) for name in order],
        "rules": rules,
        "flags": flags,
        "first_flags": FIRST_FLAGS,
        "usage": [usage[name] for name in order],
        "batch_priced": _batch_priced(runs),
        "warnings": warnings,
        "few_packets": [
            {"run": r["name"], "packets": r["packets"]}
            for r in _configuration(runs)
            if r["packets"] < FEW_PACKETS
        ],
        "min_packets": FEW_PACKETS,
        "grounding": grounding,
        "judges": judges,
        "confidence": confidence,
    }
