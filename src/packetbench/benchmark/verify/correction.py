"""The judge's raw hallucination rate of a run, corrected for the judge's measured error.

A claim is hallucinated, for the judge, when it labels it anything but supported; the raw
rate is hallucinated claims over claims (pooled over documents). With a calibration of the
same judge (same judge, model, parameters, prompt and schema) on a scored run, the
Rogan-Gladen estimator gives the rate corrected for the judge's sensitivity (se) and
specificity (sp):

    corrected = (raw + sp - 1) / (se + sp - 1), clipped to [0, 1]

Its interval propagates both uncertainties: replicate b pairs a bootstrap replicate of this
run's raw rate (documents drawn with replacement) with the calibration's replicate b of
(se, sp) (its documents drawn independently), and the 2.5th and 97.5th percentiles of the
corrected replicates bound it. A calibration whose kappa is below the user's threshold (or
undefined), whose judge is no better than chance (se + sp <= 1), or that is too small to
bound its own error is refused: it needs MIN_DOCUMENTS documents (its intervals resample
documents: one document resampled is always itself, an interval of width 0) and, by the
scorer's verdicts, MIN_CLAIMS supported claims and MIN_CLAIMS hallucinated ones (the claims
its specificity and its sensitivity are measured on).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from packetbench.benchmark.stats import bootstrap
from packetbench.benchmark.verify.calibration import CALIBRATION
from packetbench.core import ids, safe_read
from packetbench.core.errors import BadInput, UsageError

ESTIMATE = "estimate.json"
SAME = ("judge", "model", "parameters", "prompt", "schema")
SEED = bootstrap.SEED + 1  # the target's documents are drawn apart from the calibration's
# The smallest calibration a rate is corrected with (the docs state them: docs/reliability.md).
MIN_DOCUMENTS = 20
MIN_CLAIMS = 30  # supported claims, and hallucinated claims, by the scorer's verdicts


def read_calibration(calibration_run: Path, judge_id: str) -> tuple[Path, dict[str, Any]]:
    path = ids.inside(calibration_run, "judge", judge_id, CALIBRATION)
    if not calibration_run.is_dir():
        raise BadInput(f"{calibration_run}: missing (the calibration run)")
    try:
        data = orjson.loads(safe_read.read_bytes(path, "scores"))
    except FileNotFoundError:
        raise BadInput(
            f"{path}: missing (verify the scored calibration run with the same judge first)"
        ) from None
    except (OSError, orjson.JSONDecodeError, safe_read.UnsafeFile) as error:
        raise BadInput(f"{path}: unreadable ({error})") from None
    if not isinstance(data, dict):
        raise BadInput(f"{path}: not a calibration (not a JSON object)")
    return path, data


def rogan_gladen(raw: Any, sensitivity: Any, specificity: Any) -> Any:
    """The corrected prevalence, clipped to [0, 1] (NaN where se + sp <= 1)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        youden = np.asarray(sensitivity) + np.asarray(specificity) - 1
        value = (np.asarray(raw) + np.asarray(specificity) - 1) / youden
        return np.where(youden > 0, np.clip(value, 0.0, 1.0), np.nan)


def usable_calibration(
    calibration_run: Path, judge_id: str, about: dict[str, Any], min_kappa: float
) -> tuple[Path, dict[str, Any]]:
    """The calibration of judge `judge_id` in `calibration_run`, after checking it is of the
    judge described by `about` and its kappa reaches `min_kappa` (BadInput, one line)."""
    if not math.isfinite(min_kappa) or not -1.0 <= min_kappa <= 1.0:
        raise UsageError(f"--min-kappa must be a number from -1 to 1 (got {min_kappa})")
    path, calibration = read_calibration(calibration_run, judge_id)
    for name in SAME:
        if calibration.get(name) != about.get(name):
            raise BadInput(
                f"{path}: calibrated with another {name} than this verify's "
                f"({calibration.get(name)!r}, not {about.get(name)!r})"
            )
    _check_size(path, calibration)
    found = (calibration.get("kappa") or {}).get("estimate")
    if not isinstance(found, int | float):
        raise BadInput(
            f"{path}: kappa is undefined (the judge's labels and the truth agree no more or "
            "less than chance allows to measure); this judge is not trusted to correct a rate"
        )
    if found < min_kappa:
        raise BadInput(
            f"{path}: kappa {found} is below --min-kappa {min_kappa:g}; this judge is not "
            "trusted to correct a rate"
        )
    try:
        se = float(calibration["sensitivity"]["estimate"])
        sp = float(calibration["specificity"]["estimate"])
        replicates = calibration["replicates"]
        if len(replicates["sensitivity"]) != len(replicates["specificity"]):
            raise ValueError("replicates of unequal length")
    except (KeyError, TypeError, ValueError) as error:
        raise BadInput(f"{path}: not a calibration ({error})") from None
    if se + sp <= 1:
        raise BadInput(
            f"{path}: sensitivity + specificity <= 1: the judge is no better than chance"
        )
    return path, calibration


def _check_size(path: Path, calibration: dict[str, Any]) -> None:
    """BadInput unless the calibration has MIN_DOCUMENTS documents and MIN_CLAIMS supported
    and MIN_CLAIMS hallucinated claims (by the scorer's verdicts)."""
    try:
        documents = int(calibration["documents"])
        truth = {name: int(v["truth"]) for name, v in calibration["verdicts"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BadInput(f"{path}: not a calibration ({error})") from None
    supported = truth.get("supported", 0)
    hallucinated = sum(truth.values()) - supported
    if documents < MIN_DOCUMENTS or min(supported, hallucinated) < MIN_CLAIMS:
        raise BadInput(
            f"{path}: too small to correct a rate ({documents:,} documents, {supported:,} "
            f"supported and {hallucinated:,} hallucinated claims); a calibration needs at "
            f"least {MIN_DOCUMENTS} documents and {MIN_CLAIMS} claims of each"
        )


def correct(
    labels: list[dict[str, Any]],
    about: dict[str, Any],
    calibration_run: Path,
    judge_id: str,
    min_kappa: float,
) -> dict[str, Any]:
    """The raw and corrected rate of a run's labels (`labels.jsonl` rows, in run order)."""
    path, calibration = usable_calibration(calibration_run, judge_id, about, min_kappa)
    se = float(calibration["sensitivity"]["estimate"])
    sp = float(calibration["specificity"]["estimate"])
    if not labels:
        raise BadInput(f"{about.get('run_id')}: the judge labelled no claim")
    documents = sorted({(r["packet_id"], r["doc_id"]) for r in labels})
    index = {key: i for i, key in enumerate(documents)}
    flagged = np.zeros((len(documents), 1))
    claims = np.zeros((len(documents), 1))
    for row in labels:
        d = index[(row["packet_id"], row["doc_id"])]
        claims[d, 0] += 1
        flagged[d, 0] += row["verdict"] != "supported"
    raw = float(flagged.sum() / claims.sum())
    se_reps = np.array(calibration["replicates"]["sensitivity"], dtype=np.float64)
    sp_reps = np.array(calibration["replicates"]["specificity"], dtype=np.float64)
    raw_reps = np.concatenate(
        [
            ((weights @ flagged) / (weights @ claims))[:, 0]
            for weights in bootstrap.replicate_weights(
                len(documents), resamples=len(se_reps), seed=SEED
            )
        ]
    )
    corrected = rogan_gladen(raw_reps, se_reps, sp_reps)
    raw_interval = _percentile(raw_reps)
    corrected_interval = _percentile(corrected)
    return {
        "run_id": about.get("run_id"),
        "judge_id": judge_id,
        "calibration": {
            "run": str(calibration_run),
            "run_id": calibration.get("run_id"),
            "file": str(path.resolve()),
            "kappa": calibration["kappa"],
            "sensitivity": calibration["sensitivity"],
            "specificity": calibration["specificity"],
            "min_kappa": min_kappa,
        },
        "documents": len(documents),
        "claims": int(claims.sum()),
        "judged_hallucinated": int(flagged.sum()),
        "raw": {"estimate": round(raw, 6), **raw_interval},
        "corrected": {
            "estimate": round(float(rogan_gladen(raw, se, sp)), 6),
            **corrected_interval,
        },
        "method": (
            "Rogan-Gladen: (raw + sp - 1) / (se + sp - 1), clipped to [0, 1]; 95% percentile "
            "interval of replicates pairing a bootstrap of this run's documents with the "
            f"calibration's bootstrap replicates of (se, sp), {len(se_reps)} resamples"
        ),
    }


def _percentile(values: Any) -> dict[str, float | None]:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return {"low": None, "high": None}
    tail = (1 - bootstrap.COVERAGE) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return {"low": round(float(low), 6), "high": round(float(high), 6)}
