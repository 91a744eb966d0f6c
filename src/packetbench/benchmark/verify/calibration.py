"""A judge's agreement with the truth, on a scored run: ``RUN/judge/<judge_id>/calibration.json``.

The rows are the view `judge_claims` of the run's results database: every label beside the
scorer's exact verdict of the same claim, claims whose truth is null (unanswerable fields)
included. From them: the confusion matrix, Cohen's kappa over the five verdicts, each
verdict's precision and recall, and the judge's sensitivity and specificity for
"hallucinated" (any verdict but supported), overall and per slice (tier, document type, field
kind, pattern family, and truth: populated, null, or illegible, a null whose value the page
shows only past reading). Intervals are percentile bootstraps over
documents (claims within a document are not independent), 2,000 resamples from a fixed seed
(`benchmark.stats.bootstrap`); the overall sensitivity and specificity of every replicate are
kept, for the correction to propagate (`correction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from packetbench.benchmark.score.verdicts import VERDICTS
from packetbench.benchmark.stats import bootstrap
from packetbench.core.errors import BadInput

CALIBRATION = "calibration.json"
SLICES = ("tier", "doc_type", "kind", "truth", "pattern_family")
Array = npt.NDArray[np.float64]


def kappa(confusion: Array) -> Array:
    """Cohen's kappa of each (..., 5, 5) confusion matrix (truth rows, judge columns); NaN
    where it is undefined (no claims, or chance agreement 1)."""
    total = confusion.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = np.trace(confusion, axis1=-2, axis2=-1) / total
        expected = (confusion.sum(axis=-1) * confusion.sum(axis=-2)).sum(axis=-1) / total**2
        return np.where(expected < 1, (observed - expected) / (1 - expected), np.nan)


def _interval(point: float, found: bootstrap.Interval) -> dict[str, float | None]:
    return {
        "estimate": None if not np.isfinite(point) else round(float(point), 6),
        "low": None if found.low is None else round(found.low, 6),
        "high": None if found.high is None else round(found.high, 6),
    }


def _percentile(values: Array) -> bootstrap.Interval:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return bootstrap.Interval(None, None)
    tail = (1 - bootstrap.COVERAGE) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return bootstrap.Interval(float(low), float(high))


def _slice_values(row: dict[str, Any]) -> list[tuple[str, str]]:
    families = sorted({str(p).split(".")[0] for p in row["patterns"] or []})
    return [
        ("overall", "all"),
        ("tier", str(row["tier"])),
        ("doc_type", str(row["doc_type"])),
        ("kind", str(row["kind"])),
        (
            "truth",
            "illegible" if row["illegible"] else "null" if row["truth_null"] else "populated",
        ),
        *(("pattern_family", family) for family in families),
    ]


def calibrate(rows: Sequence[dict[str, Any]], about: dict[str, Any]) -> dict[str, Any]:
    """The calibration of one judge from its `judge_claims` rows (in a fixed order)."""
    if not rows:
        raise BadInput(f"{about.get('run_id')}: the judge labelled no scored claim to calibrate on")
    documents = sorted({(r["packet_id"], r["doc_id"]) for r in rows})
    doc_index = {key: i for i, key in enumerate(documents)}
    verdict_index = {v: i for i, v in enumerate(VERDICTS)}
    size = len(VERDICTS)
    per_doc = np.zeros((len(documents), size * size))
    slice_keys: dict[tuple[str, str], int] = {}
    cells: dict[tuple[int, int, int], float] = {}
    for row in rows:
        d = doc_index[(row["packet_id"], row["doc_id"])]
        t, j = verdict_index[row["truth_verdict"]], verdict_index[row["judge_verdict"]]
        per_doc[d, t * size + j] += 1
        truth_h, judge_h = t != 0, j != 0
        cell = (0 if truth_h and judge_h else 1) if truth_h else (2 if not judge_h else 3)
        for key in _slice_values(row):
            s = slice_keys.setdefault(key, len(slice_keys))
            cells[(s, d, cell)] = cells.get((s, d, cell), 0.0) + 1
    n_slices = len(slice_keys)
    # tp: flagged hallucinated; fn: missed; tn: cleared supported; fp: false alarms
    tally = np.zeros((4, len(documents), n_slices))
    for (s, d, cell), n in cells.items():
        tally[cell, d, s] += n
    tp, fn, tn, fp = tally
    sens_num, sens_den = tp, tp + fn
    spec_num, spec_den = tn, tn + fp
    confusion = per_doc.sum(axis=0).reshape(size, size)
    kappa_reps: list[Array] = []
    sens_reps: list[Array] = []
    spec_reps: list[Array] = []
    for weights in bootstrap.replicate_weights(len(documents)):
        kappa_reps.append(kappa((weights @ per_doc).reshape(-1, size, size)))
        with np.errstate(invalid="ignore", divide="ignore"):
            sens_reps.append((weights @ sens_num) / (weights @ sens_den))
            spec_reps.append((weights @ spec_num) / (weights @ spec_den))
    kappas = np.concatenate(kappa_reps)
    sens_all, spec_all = np.vstack(sens_reps), np.vstack(spec_reps)
    with np.errstate(invalid="ignore", divide="ignore"):
        sens_point = sens_num.sum(axis=0) / sens_den.sum(axis=0)
        spec_point = spec_num.sum(axis=0) / spec_den.sum(axis=0)
    slices = []
    for (name, value), s in sorted(slice_keys.items()):
        slices.append(
            {
                "slice": name,
                "value": value,
                "claims": int(tally[:, :, s].sum()),
                "hallucinated": int(sens_den[:, s].sum()),
                "documents": int(((tally[:, :, s]).sum(axis=0) > 0).sum()),
                "sensitivity": _interval(sens_point[s], _percentile(sens_all[:, s])),
                "specificity": _interval(spec_point[s], _percentile(spec_all[:, s])),
            }
        )
    overall = slice_keys[("overall", "all")]
    verdicts = {}
    for v, i in verdict_index.items():
        said, true = confusion[:, i].sum(), confusion[i, :].sum()
        verdicts[v] = {
            "truth": int(true),
            "judged": int(said),
            "precision": round(float(confusion[i, i] / said), 6) if said else None,
            "recall": round(float(confusion[i, i] / true), 6) if true else None,
        }
    return {
        **about,
        "method": (
            "claims labelled by the judge against the scorer's exact verdicts; hallucinated "
            "= any verdict but supported; 95% percentile bootstrap over documents, "
            f"{bootstrap.RESAMPLES} resamples, seed {bootstrap.SEED}"
        ),
        "documents": len(documents),
        "claims": len(rows),
        "confusion": {
            "verdicts": list(VERDICTS),
            "rows": "truth (the scorer's verdict)",
            "columns": "judge",
            "counts": confusion.astype(int).tolist(),
        },
        "kappa": _interval(float(kappa(confusion)), _percentile(kappas)),
        "verdicts": verdicts,
        "sensitivity": _interval(sens_point[overall], _percentile(sens_all[:, overall])),
        "specificity": _interval(spec_point[overall], _percentile(spec_all[:, overall])),
        "slices": slices,
        "replicates": {
            "sensitivity": [round(float(x), 6) for x in sens_all[:, overall]],
            "specificity": [round(float(x), 6) for x in spec_all[:, overall]],
        },
    }


def rows_of(run: Path, judge_id: str) -> list[dict[str, Any]]:
    """The `judge_claims` rows of one judge of a scored run, in a fixed order."""
    from packetbench.benchmark.results.query import open_runs

    with open_runs([run]) as runs:
        return runs.rows(
            "SELECT packet_id, doc_id, path, tier, doc_type, kind, truth_verdict, "
            "judge_verdict, truth_null, illegible, patterns FROM judge_claims WHERE judge_id = ? "
            "ORDER BY packet_id, doc_id, path",
            [judge_id],
        )
