"""`packetbench compare`: paired statistics of two or more runs on the same documents.

For every pair of runs (in the order given): the documents both runs completed are paired
(the others are listed, with each run's status); a two-sided sign test on the per-document
hallucination rates, numbers and strings (rates, not counts: a run that emits more must not
look worse for that alone); Holm's correction over every sign test of the comparison (all
pairs, both rates); and a paired bootstrap interval of the difference, second run minus first,
in every headline rate. Across all runs: the documents on which one run hallucinates more
than every other run.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmark.errors import UsageError
from benchmark.results.query import RunSet, open_runs
from benchmark.runs import check_outputs, write_json
from benchmark.stats import bootstrap
from benchmark.stats.paired import holm, sign_test

SIGN_TESTED = ("halluc_numbers", "halluc_strings")
WORST_METRIC = "halluc_all"
ALPHA = 0.05


@dataclass
class RunUnits:
    """Per-document counts of every headline rate of one run, and each document's status."""

    name: str
    status: dict[tuple[str, str], str]
    counts: dict[str, dict[tuple[str, str], tuple[int, int]]]  # metric -> document -> (n, d)


def run_units(runs: RunSet) -> list[RunUnits]:
    status: dict[str, dict[tuple[str, str], str]] = {name: {} for name in runs.names}
    for run_id, packet_id, doc_id, state in runs.con.execute(
            "SELECT run_id, packet_id, doc_id, status FROM documents "
            "ORDER BY run_id, packet_id, doc_id").fetchall():
        status[run_id][(packet_id, doc_id)] = state
    counts: dict[str, dict[str, dict[tuple[str, str], tuple[int, int]]]] = {
        name: {} for name in runs.names}
    for run_id, metric, packet_id, doc_id, num, den in runs.con.execute(
            "SELECT run_id, metric, packet_id, doc_id, num, den FROM unit_rates").fetchall():
        counts[run_id].setdefault(metric, {})[(packet_id, doc_id)] = (int(num), int(den))
    return [RunUnits(name, status[name], counts[name]) for name in runs.names]


def document_rates(units: RunUnits, metric: str, documents: list[tuple[str, str]]) -> np.ndarray[
        Any, np.dtype[np.float64]]:
    out = np.full(len(documents), np.nan)
    for i, doc in enumerate(documents):
        num, den = units.counts[metric][doc]
        if den > 0:
            out[i] = num / den
    return out


def _matrices(units: RunUnits, metrics: Sequence[str], documents: list[tuple[str, str]]
              ) -> tuple[np.ndarray[Any, np.dtype[np.float64]],
                         np.ndarray[Any, np.dtype[np.float64]]]:
    num = np.array([[units.counts[m][d][0] for m in metrics] for d in documents], dtype=float)
    den = np.array([[units.counts[m][d][1] for m in metrics] for d in documents], dtype=float)
    return num.reshape(len(documents), len(metrics)), den.reshape(len(documents), len(metrics))


def _value(x: float) -> float | None:
    return None if not np.isfinite(x) else round(float(x), 6)


def _interval(interval: bootstrap.Interval) -> list[float | None]:
    return [None if interval.low is None else round(interval.low, 6),
            None if interval.high is None else round(interval.high, 6)]


def pair_statistics(a: RunUnits, b: RunUnits, metrics: list[str], better: dict[str, str],
                    sign_tested: Sequence[str] = SIGN_TESTED) -> dict[str, Any]:
    """Paired documents, excluded documents, rate differences with intervals, sign tests."""
    documents = sorted(d for d, s in a.status.items() if s == "scored"
                       and b.status.get(d) == "scored")
    every = sorted(set(a.status) | set(b.status))
    excluded = [{"document": f"{p}/{d}", a.name: a.status.get((p, d), "not in run"),
                 b.name: b.status.get((p, d), "not in run")}
                for p, d in every if (p, d) not in set(documents)]
    pair: dict[str, Any] = {"a": a.name, "b": b.name, "documents_paired": len(documents),
                            "excluded": excluded, "rates": {}, "sign_tests": {}}
    if not documents:
        return pair
    num_a, den_a = _matrices(a, metrics, documents)
    num_b, den_b = _matrices(b, metrics, documents)
    clusters = np.unique([p for p, _ in documents], return_inverse=True)[1].astype(np.int64)
    by_doc = bootstrap.paired_intervals(num_a, den_a, num_b, den_b)
    by_packet = bootstrap.paired_intervals(num_a, den_a, num_b, den_b, clusters)
    micro_a, macro_a = bootstrap.point(num_a, den_a)
    micro_b, macro_b = bootstrap.point(num_b, den_b)
    for i, metric in enumerate(metrics):
        pair["rates"][metric] = {
            "better": better[metric],
            "a": _value(micro_a[i]), "b": _value(micro_b[i]),
            "difference": _value(micro_b[i] - micro_a[i]),
            "ci_documents": _interval(by_doc.micro[i]),
            "ci_packets": _interval(by_packet.micro[i]),
            "macro_a": _value(macro_a[i]), "macro_b": _value(macro_b[i]),
            "macro_difference": _value(macro_b[i] - macro_a[i]),
            "macro_ci_documents": _interval(by_doc.macro[i]),
            "macro_ci_packets": _interval(by_packet.macro[i]),
        }
    for metric in sign_tested:
        test = sign_test(document_rates(a, metric, documents),
                         document_rates(b, metric, documents))
        pair["sign_tests"][metric] = {
            "documents": test.documents, "b_higher": test.b_higher, "a_higher": test.a_higher,
            "ties": test.ties, "p_value": test.p_value}
    return pair


def _worst_documents(units: list[RunUnits]) -> list[dict[str, Any]]:
    """Documents all runs scored where one run's hallucination rate is above every other's."""
    if len(units) < 2:
        return []
    common = sorted(set.intersection(*({d for d, s in u.status.items() if s == "scored"}
                                       for u in units)))
    out: list[dict[str, Any]] = []
    for doc in common:
        rates = {}
        for u in units:
            num, den = u.counts[WORST_METRIC][doc]
            if den > 0:
                rates[u.name] = num / den
        if len(rates) != len(units):
            continue
        ranked = sorted(rates.items(), key=lambda item: -item[1])
        if ranked[0][1] > ranked[1][1]:
            out.append({"document": f"{doc[0]}/{doc[1]}", "worst": ranked[0][0],
                        "margin": round(ranked[0][1] - ranked[1][1], 6),
                        "rates": {name: round(rate, 6) for name, rate in rates.items()}})
    return sorted(out, key=lambda row: (-row["margin"], row["document"]))


def compare_runs(paths: Sequence[Path], alpha: float = ALPHA) -> dict[str, Any]:
    """Paired statistics of every pair of `paths` (runs), as written to paired_stats.json."""
    if len(paths) < 2:
        raise UsageError("compare needs at least two runs")
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1 (got {alpha})")
    with open_runs(paths, paired=True) as runs:
        catalog = runs.metric("catalog")
        metrics = [c["metric"] for c in catalog]
        better = {c["metric"]: c["better"] for c in catalog}
        labels = {c["metric"]: c["label"] for c in catalog}
        units = run_units(runs)
        described = runs.metric("runs")
        names = runs.names
    pairs = [pair_statistics(a, b, metrics, better) for a, b in itertools.combinations(units, 2)]
    tests = [(pair, metric) for pair in pairs for metric in SIGN_TESTED
             if metric in pair["sign_tests"]]
    adjusted = holm([pair["sign_tests"][metric]["p_value"] for pair, metric in tests])
    for (pair, metric), p_holm in zip(tests, adjusted, strict=True):
        test = pair["sign_tests"][metric]
        test["p_holm"] = p_holm
        test["significant"] = p_holm is not None and p_holm < alpha
        test["worse"] = (None if not test["significant"] else
                         pair["b"] if test["b_higher"] > test["a_higher"] else pair["a"])
    by_name = {r["run_id"]: r for r in described}
    return {
        "method": {
            "alpha": alpha,
            "sign_test": "two-sided exact sign test on per-document rates; ties set aside",
            "sign_tested": list(SIGN_TESTED),
            "correction": f"Holm over all {len(tests)} sign tests (every pair, both rates)",
            "difference": "second run minus first (b - a)",
            "bootstrap": {"resamples": bootstrap.RESAMPLES, "seed": bootstrap.SEED,
                          "level": bootstrap.LEVEL,
                          "units": "documents paired in both runs; packets for ci_packets"},
            "worst_documents": f"{labels[WORST_METRIC]} of one run above every other run's",
        },
        "runs": [{"name": name, "path": str(path), "provider": by_name[name]["provider"],
                  "model": by_name[name]["model"], "simulator": by_name[name]["simulator"]}
                 for name, path in zip(names, paths, strict=True)],
        "metrics": {c["metric"]: {"label": c["label"], "better": c["better"]} for c in catalog},
        "pairs": pairs,
        "worst_documents": _worst_documents(units),
    }


def write_comparison(paths: Sequence[Path], out: Path | None, alpha: float = ALPHA,
                     force: bool = False) -> dict[str, Any]:
    """Compare `paths`; with `out`, also write out/paired_stats.json (an existing one is
    replaced only with `force`)."""
    if out is not None:
        check_outputs(out, ("paired_stats.json",), force, "comparison")
    result = compare_runs(paths, alpha)
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"{out}: cannot create the folder ({error.strerror})") from None
        write_json(out / "paired_stats.json", result)
    return result
