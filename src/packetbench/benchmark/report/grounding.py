"""The report's grounding section: citation recall and precision, grounding F1 nested value >=
page >= box, and the two counts kept apart (right but ungrounded; hallucinated but cited),
from the `grounding` views, with bootstrap intervals over documents and packets
(`estimates.estimate_view` over `grounding_units`), and the worst slices.

A run that asked for no citations has no grounding rows (imported reference cohorts have no
boxes): the section names it as absent, it never shows it as zero.
"""

from __future__ import annotations

from typing import Any

from packetbench.benchmark.report.estimates import Layout, estimate_view
from packetbench.benchmark.results.query import RunSet

# metric, label, definition, which way is better
GROUNDING: tuple[tuple[str, str, str, str], ...] = (
    ("citation_recall", "Citation recall", "values with a citation / values emitted", "higher"),
    (
        "citation_precision_page",
        "Citation precision, page",
        "right values cited to a page (cell) that shows them / cited values",
        "higher",
    ),
    (
        "citation_precision_box",
        "Citation precision, box",
        "right values cited to a box with IoU >= 0.5 with a truth box on that page (or the "
        "very cell) / cited values",
        "higher",
    ),
    ("grounding_f1_value", "Grounding F1, value", "F1 of right values", "higher"),
    ("grounding_f1_page", "Grounding F1, page", "F1 of right values on the right page", "higher"),
    ("grounding_f1_box", "Grounding F1, box", "F1 of right values in the right box", "higher"),
    (
        "right_ungrounded",
        "Right, ungrounded",
        "right values cited nowhere or to a place that does not show them / values emitted",
        "lower",
    ),
    (
        "hallucinated_cited",
        "Hallucinated but cited",
        "values shown nowhere in the packet that carry a citation / values emitted",
        "lower",
    ),
)
WORST_SLICES = 8  # per run and metric; the database holds them all
# The rates the report's worst slices show (tier, document type and pattern each).
SLICED = (
    "citation_precision_page",
    "citation_precision_box",
    "grounding_f1_page",
    "grounding_f1_box",
)


def grounding_context(runs: RunSet, layout: dict[str, Layout]) -> dict[str, Any]:
    """Rows per metric (each run that cited), the runs without citations, the worst slices."""
    found = runs.rows("SELECT * FROM grounding ORDER BY run_id, metric")
    cited = [name for name in runs.names if any(r["run_id"] == name for r in found)]
    estimates = {
        (name, *key): estimate
        for name in cited
        for key, estimate in estimate_view(
            runs, layout[name], "grounding_units", ("metric",)
        ).items()
    }
    by_key = {(r["run_id"], r["metric"]): r for r in found}
    tables = []
    for metric, label, definition, better in GROUNDING:
        rows = [
            {**by_key[(name, metric)], "estimate": estimates.get((name, metric))}
            for name in cited
            if (name, metric) in by_key
        ]
        if rows:
            tables.append(
                {
                    "metric": metric,
                    "label": label,
                    "definition": definition,
                    "better": better,
                    "rows": rows,
                }
            )
    slices = {
        name: runs.rows(
            "SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY dimension, metric "
            "ORDER BY CASE WHEN metric IN ('right_ungrounded', 'hallucinated_cited') "
            "THEN -rate ELSE rate END, slice) AS n FROM grounding_slices WHERE run_id = ? "
            f"AND metric IN ({', '.join(repr(m) for m in SLICED)})) "
            "WHERE n <= ? ORDER BY dimension, metric, n",
            [name, WORST_SLICES],
        )
        for name in cited
    }
    return {
        "tables": tables,
        "cited": cited,
        "absent": [name for name in runs.names if name not in cited],
        "slices": slices,
        "worst": WORST_SLICES,
    }
