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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from packetbench.benchmark.results.query import RunSet, open_runs
from packetbench.benchmark.stats import bootstrap
from packetbench.benchmark.stats.paired import holm, sign_test
from packetbench.core.errors import CheckFailed, UsageError
from packetbench.core.writing import check_outputs, write_json

SIGN_TESTED = ("halluc_numbers", "halluc_strings")
WORST_METRIC = "halluc_all"
ALPHA = 0.05


STATUSES = ("scored", "missing", "error", "invalid")  # codes 1, 2...; 0: not in the run
SCORED = 1
Array = np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True)
class Documents:
    """Every document any of the runs lists, numbered in (packet_id, doc_id) order, and the
    packet number of each."""

    names: list[str]  # "packet_id/doc_id"
    packets: np.ndarray[Any, np.dtype[np.int64]]


@dataclass(frozen=True)
class RunUnits:
    """Per-document counts of every headline rate of one run, and each document's status:
    arrays over `documents` (a document the run does not list has status 0 and no counts)."""

    name: str
    documents: Documents
    status: np.ndarray[Any, np.dtype[np.int8]]
    counts: dict[str, tuple[Array, Array]]  # metric -> (num, den) per document

    def label(self, index: int) -> str:
        code = int(self.status[index])
        return STATUSES[code - 1] if code else "not in run"


def run_units(
    runs: RunSet, view: str = "unit_rates", metrics: Sequence[str] | None = None
) -> list[RunUnits]:
    """The counts of every run, fetched from DuckDB as arrays (no row becomes an object):
    of the headline rates (`unit_rates`), or of `metrics` of another per-document view."""
    con = runs.con
    table = f"{runs.scratch_schema}.compare_documents"
    con.execute(
        f"CREATE OR REPLACE TABLE {table} AS SELECT packet_id, doc_id, "
        "CAST(row_number() OVER (ORDER BY packet_id, doc_id) - 1 AS BIGINT) AS doc, "
        "CAST(dense_rank() OVER (ORDER BY packet_id) - 1 AS BIGINT) AS packet "
        "FROM (SELECT DISTINCT packet_id, doc_id FROM documents)"
    )
    names = [
        f"{p}/{d}"
        for p, d in con.execute(f"SELECT packet_id, doc_id FROM {table} ORDER BY doc").fetchall()
    ]
    packets = con.execute(f"SELECT packet FROM {table} ORDER BY doc").fetchnumpy()
    documents = Documents(names, np.asarray(packets["packet"], dtype=np.int64))
    if metrics is None:
        metrics = [c["metric"] for c in runs.metric("catalog")]
    out: list[RunUnits] = []
    for name in runs.names:
        status = np.zeros(len(names), dtype=np.int8)
        found = con.execute(
            "SELECT c.doc, list_position(?, d.status) AS code FROM documents AS d "
            f"JOIN {table} AS c USING (packet_id, doc_id) WHERE d.run_id = ?",
            [list(STATUSES), name],
        ).fetchnumpy()
        status[np.asarray(found["doc"], dtype=np.int64)] = found["code"]
        counts: dict[str, tuple[Array, Array]] = {}
        for metric in metrics:
            found = con.execute(
                f"SELECT c.doc, u.num, u.den FROM {view} AS u "
                f"JOIN {table} AS c USING (packet_id, doc_id) "
                "WHERE u.run_id = ? AND u.metric = ?",
                [name, metric],
            ).fetchnumpy()
            num, den = np.zeros(len(names)), np.zeros(len(names))
            at = np.asarray(found["doc"], dtype=np.int64)
            num[at] = found["num"]
            den[at] = found["den"]
            counts[metric] = (num, den)
        out.append(RunUnits(name, documents, status, counts))
    return out


def document_rates(
    units: RunUnits, metric: str, documents: np.ndarray[Any, np.dtype[np.int64]]
) -> Array:
    """The rate of each of `documents` (indices), NaN where it has nothing to rate."""
    num, den = (column[documents] for column in units.counts[metric])
    out = np.full(len(documents), np.nan)
    has = den > 0
    out[has] = num[has] / den[has]
    return out


def _matrices(
    units: RunUnits, metrics: Sequence[str], documents: np.ndarray[Any, np.dtype[np.int64]]
) -> tuple[Array, Array]:
    num = np.zeros((len(documents), len(metrics)))
    den = np.zeros_like(num)
    for i, metric in enumerate(metrics):
        num[:, i] = units.counts[metric][0][documents]
        den[:, i] = units.counts[metric][1][documents]
    return num, den


def _value(x: float) -> float | None:
    return None if not np.isfinite(x) else round(float(x), 6)


def _interval(interval: bootstrap.Interval) -> list[float | None]:
    return [
        None if interval.low is None else round(interval.low, 6),
        None if interval.high is None else round(interval.high, 6),
    ]


def pair_statistics(
    a: RunUnits,
    b: RunUnits,
    metrics: list[str],
    better: dict[str, str],
    sign_tested: Sequence[str] = SIGN_TESTED,
) -> dict[str, Any]:
    """Paired documents, excluded documents, rate differences with intervals, sign tests."""
    paired = (a.status == SCORED) & (b.status == SCORED)
    documents = np.flatnonzero(paired)
    excluded = [
        {"document": a.documents.names[i], a.name: a.label(i), b.name: b.label(i)}
        for i in np.flatnonzero(((a.status > 0) | (b.status > 0)) & ~paired).tolist()
    ]
    pair: dict[str, Any] = {
        "a": a.name,
        "b": b.name,
        "documents_paired": len(documents),
        "excluded": excluded,
        "rates": {},
        "sign_tests": {},
    }
    if not len(documents):
        return pair
    num_a, den_a = _matrices(a, metrics, documents)
    num_b, den_b = _matrices(b, metrics, documents)
    clusters = np.unique(a.documents.packets[documents], return_inverse=True)[1].astype(np.int64)
    by_doc = bootstrap.paired_intervals(num_a, den_a, num_b, den_b)
    by_packet = bootstrap.paired_intervals(num_a, den_a, num_b, den_b, clusters)
    micro_a, macro_a = bootstrap.point(num_a, den_a)
    micro_b, macro_b = bootstrap.point(num_b, den_b)
    for i, metric in enumerate(metrics):
        pair["rates"][metric] = {
            "better": better[metric],
            "a": _value(micro_a[i]),
            "b": _value(micro_b[i]),
            "difference": _value(micro_b[i] - micro_a[i]),
            "ci_documents": _interval(by_doc.micro[i]),
            "ci_packets": _interval(by_packet.micro[i]),
            "macro_a": _value(macro_a[i]),
            "macro_b": _value(macro_b[i]),
            "macro_difference": _value(macro_b[i] - macro_a[i]),
            "macro_ci_documents": _interval(by_doc.macro[i]),
            "macro_ci_packets": _interval(by_packet.macro[i]),
        }
    for metric in sign_tested:
        test = sign_test(document_rates(a, metric, documents), document_rates(b, metric, documents))
        pair["sign_tests"][metric] = {
            "documents": test.documents,
            "b_higher": test.b_higher,
            "a_higher": test.a_higher,
            "ties": test.ties,
            "p_value": test.p_value,
        }
    return pair


def _worst_documents(units: list[RunUnits]) -> list[dict[str, Any]]:
    """Documents all runs scored where one run's hallucination rate is above every other's."""
    if len(units) < 2:
        return []
    common = np.logical_and.reduce([u.status == SCORED for u in units])
    rates = np.full((len(units), len(common)), np.nan)
    for row, u in zip(rates, units, strict=True):
        num, den = u.counts[WORST_METRIC]
        has = common & (den > 0)
        row[has] = num[has] / den[has]
    rated = np.flatnonzero(np.isfinite(rates).all(axis=0))
    out: list[dict[str, Any]] = []
    if not len(rated):
        return out
    ranked = np.sort(rates[:, rated], axis=0)
    top, second = ranked[-1], ranked[-2]
    for i in rated[top > second].tolist():
        column = rates[:, i]
        worst = int(np.argmax(column))
        margin = float(column[worst] - np.sort(column)[-2])
        out.append(
            {
                "document": units[0].documents.names[i],
                "worst": units[worst].name,
                "margin": round(margin, 6),
                "rates": {u.name: round(float(r), 6) for u, r in zip(units, column, strict=True)},
            }
        )
    return sorted(out, key=lambda row: (-row["margin"], row["document"]))


def compare_runs(paths: Sequence[Path], alpha: float = ALPHA) -> dict[str, Any]:
    """Paired statistics of every pair of `paths` (runs), as written to paired_stats.json;
    CheckFailed when two of the runs have no completed document in common."""
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
        grounded = _grounding_pairs(runs, alpha)
        illegible = _illegible_pairs(runs, alpha)
        below = _illegible_pairs(runs, alpha, "below_resolution")
        described = runs.metric("runs")
        names = runs.names
    pairs = [pair_statistics(a, b, metrics, better) for a, b in itertools.combinations(units, 2)]
    unpaired = [pair for pair in pairs if not pair["documents_paired"]]
    if unpaired:
        first = unpaired[0]
        raise CheckFailed(
            f"{first['a']} and {first['b']} have no document both completed "
            f"({len(first['excluded'])} documents between them, none in common): there is "
            "nothing to pair, so nothing to compare"
        )
    tests = [
        (pair, metric) for pair in pairs for metric in SIGN_TESTED if metric in pair["sign_tests"]
    ]
    adjusted = holm([pair["sign_tests"][metric]["p_value"] for pair, metric in tests])
    for (pair, metric), p_holm in zip(tests, adjusted, strict=True):
        test = pair["sign_tests"][metric]
        test["p_holm"] = p_holm
        test["significant"] = p_holm is not None and p_holm < alpha
        test["worse"] = (
            None
            if not test["significant"]
            else pair["b"]
            if test["b_higher"] > test["a_higher"]
            else pair["a"]
        )
    by_name = {r["run_id"]: r for r in described}
    result: dict[str, Any] = {
        "method": {
            "alpha": alpha,
            "sign_test": "two-sided exact sign test on per-document rates; ties set aside",
            "sign_tested": list(SIGN_TESTED),
            "correction": f"Holm over all {len(tests)} sign tests (every pair, both rates)",
            "difference": "second run minus first (b - a)",
            "bootstrap": {
                "resamples": bootstrap.RESAMPLES,
                "seed": bootstrap.SEED,
                "level": bootstrap.COVERAGE,
                "units": "documents paired in both runs; packets for ci_packets",
            },
            "worst_documents": f"{labels[WORST_METRIC]} of one run above every other run's",
        },
        "runs": [
            {
                "name": name,
                "path": str(path),
                "provider": by_name[name]["provider"],
                "model": by_name[name]["model"],
                "simulator": by_name[name]["simulator"],
            }
            for name, path in zip(names, paths, strict=True)
        ],
        "metrics": {c["metric"]: {"label": c["label"], "better": c["better"]} for c in catalog},
        "pairs": pairs,
        "worst_documents": _worst_documents(units),
    }
    if grounded is not None:  # only when a run cited: other comparisons stay as they were
        result["grounding"] = grounded
    if illegible is not None:  # only when a run's packets have illegible values
        result["illegible"] = illegible
    if below is not None:  # only when a run has values below its delivered resolution
        result["below_resolution"] = below
    return result


GROUNDING_SIGN_TESTED = ("citation_precision_page", "grounding_f1_page")


def _grounding_pairs(runs: RunSet, alpha: float) -> dict[str, Any] | None:
    """Paired grounding rates of every pair of runs that both cited (extract --cite), with
    sign tests Holm-corrected among themselves; None when no run cited. A run without
    citations is listed as absent, never compared as zero."""
    from packetbench.benchmark.report.grounding import GROUNDING

    cited = {r["run_id"] for r in runs.rows("SELECT DISTINCT run_id FROM grounding_units")}
    if not cited:
        return None
    boxed = {
        r["run_id"]
        for r in runs.rows(
            "SELECT DISTINCT run_id FROM grounding_units WHERE metric = 'citation_precision_box'"
        )
    }
    everything = [metric for metric, *_ in GROUNDING]
    return _family_pairs(
        run_units(runs, "grounding_units", everything),
        cited,
        lambda a, b: [m for m in everything if not m.endswith("_box") or {a, b} <= boxed],
        {metric: way for metric, _, _, way in GROUNDING},
        GROUNDING_SIGN_TESTED,
        alpha,
        "grounding",
    )


ILLEGIBLE_SIGN_TESTED = ("abstained", "guess_wrong")


def _illegible_pairs(runs: RunSet, alpha: float, view: str = "illegible") -> dict[str, Any] | None:
    """Paired illegible-field rates (docs/patterns.md rule 3b: abstention, and guesses by outcome)
    of every pair of runs whose packets have illegible values, over the documents that have
    them, with sign tests on abstention and wrong guesses Holm-corrected among themselves;
    None when no run has an illegible field. A run without them is listed as absent. `view`
    below_resolution: the same of the fields below each run's delivered resolution
    (docs/resolution.md)."""
    from packetbench.benchmark.report.illegible import OUTCOMES

    present = {r["run_id"] for r in runs.rows(f"SELECT DISTINCT run_id FROM {view}_units")}
    if not present:
        return None
    everything = [metric for metric, *_ in OUTCOMES]
    return _family_pairs(
        run_units(runs, f"{view}_units", everything),
        present,
        lambda a, b: everything,
        {metric: "higher" if metric == "abstained" else "lower" for metric in everything},
        ILLEGIBLE_SIGN_TESTED,
        alpha,
        "illegible-field" if view == "illegible" else "below-resolution",
    )


def _family_pairs(
    counted: list[RunUnits],
    present: set[str],
    metrics: Callable[[str, str], list[str]],
    better: dict[str, str],
    sign_tested: Sequence[str],
    alpha: float,
    what: str,
) -> dict[str, Any]:
    """Every pair of the runs in `present` compared on a family of rates outside the catalog
    (per-document counts in `counted`), its sign tests Holm-corrected within the family; the
    worse run of a significant test is the lower one where higher is better, and the other
    way."""
    pairs = [
        pair_statistics(a, b, metrics(a.name, b.name), better, sign_tested)
        for a, b in itertools.combinations([u for u in counted if u.name in present], 2)
    ]
    tests = [(pair, m) for pair in pairs for m in sign_tested if m in pair["sign_tests"]]
    adjusted = holm([pair["sign_tests"][m]["p_value"] for pair, m in tests])
    for (pair, metric), p_holm in zip(tests, adjusted, strict=True):
        test = pair["sign_tests"][metric]
        test["p_holm"] = p_holm
        test["significant"] = p_holm is not None and p_holm < alpha
        lower, higher = (
            (pair["b"], pair["a"])
            if test["a_higher"] > test["b_higher"]
            else (pair["a"], pair["b"])
        )
        test["worse"] = (
            None if not test["significant"] else lower if better[metric] == "higher" else higher
        )
    return {
        "sign_tested": list(sign_tested),
        "correction": f"Holm over the {len(tests)} {what} sign tests",
        "absent": [u.name for u in counted if u.name not in present],
        "pairs": pairs,
    }


def write_comparison(
    paths: Sequence[Path], out: Path | None, alpha: float = ALPHA, force: bool = False
) -> dict[str, Any]:
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
