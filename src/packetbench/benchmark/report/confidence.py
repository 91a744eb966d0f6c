"""The report's confidence section: how well the confidences a run stated
(`extract --confidence`) rank right values above wrong ones (rank AUC) and how close they come
to the share that are right (the reliability curve and the expected calibration error), from
the `confidence` views, with percentile bootstrap intervals over documents.

The views give the point estimates; the intervals resample the scored documents of a run
(`bootstrap.replicate_weights`, the replicates every other rate of the run uses) over
`confidence_units`, one row per document and stated confidence: a replicate's AUC and bins
are those of the weighted counts, so ties and bins are read exactly as the views read them.
A run not asked for confidences is named as absent, never shown as zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from packetbench.benchmark.report.estimates import Layout
from packetbench.benchmark.results.query import RunSet
from packetbench.benchmark.stats.bootstrap import COVERAGE, Interval, replicate_weights

BINS = 10

Array = np.ndarray[Any, np.dtype[np.float64]]


def _interval(replicates: Array) -> Interval:
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return Interval(None, None)
    tail = (1 - COVERAGE) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return Interval(float(low), float(high))


def _auc(correct: Array, incorrect: Array) -> Array:
    """Rank AUC of each row of (replicates x confidences) counts, confidences in ascending order."""
    below = np.cumsum(incorrect, axis=1) - incorrect
    with np.errstate(invalid="ignore", divide="ignore"):
        wins = (correct * (below + 0.5 * incorrect)).sum(axis=1)
        pairs = correct.sum(axis=1) * incorrect.sum(axis=1)
        return np.where(pairs > 0, wins / np.where(pairs > 0, pairs, 1), np.nan)


def replicates(runs: RunSet, layout: Layout) -> tuple[Array, Array, Array] | None:
    """Replicate AUCs, ECEs and bin accuracies (replicates x bins) of one run, or None when
    it stated no confidence."""
    found = runs.con.execute(
        "SELECT d.doc, u.confidence, u.correct, u.incorrect "
        f"FROM (SELECT * FROM confidence_units WHERE run_id = ?) AS u "
        f"JOIN {layout.table} AS d USING (packet_id, doc_id) ORDER BY d.doc, u.confidence",
        [layout.run_id],
    ).fetchnumpy()
    n_docs = len(layout.clusters)
    if not n_docs or len(found["doc"]) == 0:
        return None
    confidences, column = np.unique(
        np.asarray(found["confidence"], dtype=np.float64), return_inverse=True
    )
    doc = np.asarray(found["doc"], dtype=np.int64)
    correct = np.zeros((n_docs, len(confidences)))
    incorrect = np.zeros_like(correct)
    correct[doc, column] = found["correct"]
    incorrect[doc, column] = found["incorrect"]
    bins = np.minimum(np.floor(confidences * BINS).astype(np.int64), BINS - 1)
    to_bin = np.zeros((len(confidences), BINS))
    to_bin[np.arange(len(confidences)), bins] = 1.0
    aucs, eces, accuracy = [], [], []
    for weights in replicate_weights(n_docs):
        right, wrong = weights @ correct, weights @ incorrect
        aucs.append(_auc(right, wrong))
        values = (right + wrong) @ to_bin
        stated = ((right + wrong) * confidences) @ to_bin
        hits = right @ to_bin
        with np.errstate(invalid="ignore", divide="ignore"):
            eces.append(np.abs(hits - stated).sum(axis=1) / values.sum(axis=1))
            accuracy.append(np.where(values > 0, hits / np.where(values > 0, values, 1), np.nan))
    return np.concatenate(aucs), np.concatenate(eces), np.vstack(accuracy)


def confidence_context(runs: RunSet, layout: dict[str, Layout]) -> dict[str, Any]:
    """Per run asked for confidences: its AUC and ECE with intervals and its reliability
    curve; the runs not asked for them."""
    rows = runs.rows("SELECT * FROM confidence ORDER BY run_id")
    curves = runs.rows("SELECT * FROM confidence_reliability ORDER BY run_id, bin")
    asked = [name for name in runs.names if any(r["run_id"] == name for r in rows)]
    out = []
    for name in asked:
        row = next(r for r in rows if r["run_id"] == name)
        drawn = replicates(runs, layout[name])
        bins = [c for c in curves if c["run_id"] == name]
        if drawn is not None:
            aucs, eces, accuracy = drawn
            row = row | {"auc_ci": _interval(aucs), "ece_ci": _interval(eces)}
            bins = [b | {"accuracy_ci": _interval(accuracy[:, b["bin"]])} for b in bins]
        out.append({**row, "bins": bins})
    return {
        "runs": out,
        "absent": [name for name in runs.names if name not in asked],
    }
