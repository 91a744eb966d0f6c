"""The spread between the repeats of a repeated run (`--repeats K`): how far K independent
extractions of the same documents land apart.

Per headline metric: each repeat's rate (micro), their mean, sample standard deviation
(K - 1 in the denominator; none for one repeat), minimum and maximum. Per document scored in
every repeat: how many of its truth leaves got different outcomes in different repeats
(correct, wrong or omitted where the truth holds a value; abstained or answered where it is
null), and how many of the output paths some repeat emitted a value at did not hold the same
value, as emitted, in every repeat (a repeat that emitted nothing there differs). The counts
are integer SQL over the `fields` and `claims` views; the means and deviations are computed
here in a fixed order, so the same runs give the same bytes.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from packetbench.benchmark.records import records_digest
from packetbench.benchmark.results.query import RunSet, open_runs
from packetbench.core.writing import write_json

FIRST_DOCUMENTS = 20  # documents a report lists, most disagreement first (the JSON has all)

SPREAD = "repeats.json"  # RUN/scores/repeats.json


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None  # a share of nothing is no share


def _in(names: Sequence[str]) -> tuple[str, list[str]]:
    return "(" + ", ".join("?" for _ in names) + ")", list(names)


def _metrics(runs: RunSet, names: Sequence[str]) -> list[dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for row in runs.metric("headline"):
        if row["run_id"] not in names:
            continue
        entry = found.setdefault(
            row["metric"],
            {
                "metric": row["metric"],
                "label": row["label"],
                "better": row["better"],
                "position": row["position"],
                "values": {},
            },
        )
        entry["values"][row["run_id"]] = row["micro"]
    out = []
    for entry in sorted(found.values(), key=lambda e: e["position"]):
        values = [entry["values"].get(name) for name in names]
        known = [v for v in values if v is not None]
        out.append(
            {
                "metric": entry["metric"],
                "label": entry["label"],
                "better": entry["better"],
                "values": {name: entry["values"].get(name) for name in names},
                "mean": statistics.mean(known) if known else None,
                "sd": statistics.stdev(known) if len(known) > 1 else None,
                "min": min(known) if known else None,
                "max": max(known) if known else None,
            }
        )
    return out


def _documents(runs: RunSet, names: Sequence[str]) -> tuple[list[dict[str, Any]], int]:
    """Per document scored in every repeat, its disagreement; and how many documents were
    scored in some repeats only."""
    where, params = _in(names)
    k = len(names)
    counts = runs.rows(
        f"SELECT packet_id, doc_id, min(doc_type) AS doc_type, min(tier) AS tier, "
        f"count(*) AS scored FROM documents WHERE run_id IN {where} AND status = 'scored' "
        "GROUP BY packet_id, doc_id",
        params,
    )
    partly = sum(1 for row in counts if row["scored"] < k)
    both = [row for row in counts if row["scored"] == k]
    leaves = {
        (row["packet_id"], row["doc_id"]): row
        for row in runs.rows(
            f"SELECT packet_id, doc_id, count(*) AS leaves, "
            f"count(*) FILTER (WHERE outcomes > 1) AS differ FROM ("
            f"SELECT packet_id, doc_id, path, count(DISTINCT outcome) AS outcomes FROM fields "
            f"WHERE run_id IN {where} GROUP BY packet_id, doc_id, path) GROUP BY packet_id, doc_id",
            params,
        )
    }
    values = {
        (row["packet_id"], row["doc_id"]): row
        for row in runs.rows(
            f"SELECT packet_id, doc_id, count(*) AS paths, "
            f"count(*) FILTER (WHERE emitted < {k} OR distinct_values > 1) AS differ FROM ("
            f"SELECT packet_id, doc_id, path, count(*) AS emitted, "
            f"count(DISTINCT CAST(value AS VARCHAR)) AS distinct_values FROM claims "
            f"WHERE run_id IN {where} GROUP BY packet_id, doc_id, path) "
            "GROUP BY packet_id, doc_id",
            params,
        )
    }
    out = []
    for row in both:
        key = (row["packet_id"], row["doc_id"])
        leaf = leaves.get(key, {"leaves": 0, "differ": 0})
        value = values.get(key, {"paths": 0, "differ": 0})
        out.append(
            {
                "packet_id": row["packet_id"],
                "doc_id": row["doc_id"],
                "doc_type": row["doc_type"],
                "tier": row["tier"],
                "leaves": int(leaf["leaves"]),
                "leaves_differing": int(leaf["differ"]),
                "leaf_disagreement": _share(int(leaf["differ"]), int(leaf["leaves"])),
                "values": int(value["paths"]),
                "values_differing": int(value["differ"]),
                "value_disagreement": _share(int(value["differ"]), int(value["paths"])),
            }
        )
    out.sort(
        key=lambda d: (
            -(d["leaf_disagreement"] or 0.0),
            -(d["value_disagreement"] or 0.0),
            d["packet_id"],
            d["doc_id"],
        )
    )
    return out, partly


def spread(runs: RunSet, names: Sequence[str]) -> dict[str, Any]:
    """The spread between the runs `names` of `runs`, the repeats of one repeated run."""
    documents, partly = _documents(runs, names)
    leaves = sum(d["leaves"] for d in documents)
    differing = sum(d["leaves_differing"] for d in documents)
    values = sum(d["values"] for d in documents)
    values_differing = sum(d["values_differing"] for d in documents)
    shares = [d["leaf_disagreement"] for d in documents if d["leaf_disagreement"] is not None]
    return {
        "repeats": list(names),
        "metrics": _metrics(runs, names),
        "documents": {
            "compared": len(documents),
            "scored_in_some_repeats_only": partly,
            "agreeing": sum(
                1 for d in documents if d["leaves_differing"] == d["values_differing"] == 0
            ),
            "leaves": leaves,
            "leaves_differing": differing,
            "leaf_disagreement": _share(differing, leaves),
            "mean_leaf_disagreement": statistics.mean(shares) if shares else None,
            "values": values,
            "values_differing": values_differing,
            "value_disagreement": _share(values_differing, values),
        },
        "by_document": documents,
    }


def repeats_context(runs: RunSet, groups: Sequence[tuple[Any, Sequence[Any]]]) -> list[Any]:
    """The report's section on repeated runs: for each (repeated run, its repeat folders) of
    `groups`, the spread between the repeats, with the documents of most disagreement
    first (FIRST_DOCUMENTS of them)."""
    index = {str(path): name for path, name in zip(runs.paths, runs.names, strict=True)}
    out = []
    for run, folders in groups:
        names = [index[str(path)] for path in folders]
        found = spread(runs, names)
        out.append(
            {
                "run": str(run),
                "names": names,
                "metrics": found["metrics"],
                "documents": found["documents"],
                "worst": found["by_document"][:FIRST_DOCUMENTS],
            }
        )
    return out


def one_line(run: Path, spread: dict[str, Any]) -> str:
    """One line of a repeated run's spread: three headline rates across the repeats, and
    how much the repeats disagree document by document."""
    metrics = {m["metric"]: m for m in spread["metrics"]}

    def rate(metric: str, label: str) -> str:
        m = metrics.get(metric)
        if m is None or m["mean"] is None:
            return f"{label} –"
        sd = "–" if m["sd"] is None else f"{m['sd'] * 100:.2f}"
        return (
            f"{label} {m['mean'] * 100:.2f} % (sd {sd} pp, "
            f"{m['min'] * 100:.2f}-{m['max'] * 100:.2f} %)"
        )

    d = spread["documents"]
    share = "–" if d["leaf_disagreement"] is None else f"{d['leaf_disagreement'] * 100:.2f} %"
    return (
        f"{run / 'scores' / 'repeats.json'}: {len(spread['repeats'])} repeats: "
        + "; ".join(
            rate(metric, label)
            for metric, label in (
                ("halluc_numbers", "numbers"),
                ("halluc_strings", "strings"),
                ("faithfulness", "faithfulness"),
            )
        )
        + f"; {d['leaves_differing']:,} of {d['leaves']:,} truth leaves ({share}) and "
        f"{d['values_differing']:,} of {d['values']:,} emitted values differ between repeats; "
        f"{d['agreeing']:,} of {d['compared']:,} documents alike in every repeat"
    )


def write_spread(run: Path, repeats: list[Path]) -> dict[str, Any]:
    """Write RUN/scores/repeats.json, the spread between the scored `repeats` of `run`
    (`benchmark.report.spread`), and return it."""
    with open_runs(repeats) as opened:
        found = spread(opened, opened.names)
    data = {
        "run_id": run.resolve().name,
        **found,
        # what each repeat's scores were made from: a reader can tell a repeat changed since
        "records": {
            name: records_digest(path) for name, path in zip(found["repeats"], repeats, strict=True)
        },
    }
    write_json(run / "scores" / SPREAD, data)
    return data
