"""The report's judge section: each judge that labelled a run, calibrated on its truth.

The labels are in the results database (`judge_labels`, and the `judge_accuracy` view holds
the point estimates per slice); the kappa, the intervals and a corrected rate are read from
the judge's own files, ``RUN/judge/<judge_id>/calibration.json`` and ``estimate.json``, which
`packetbench verify` wrote from the same labels.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from packetbench.benchmark.results.query import RunSet
from packetbench.core import ids
from packetbench.core.packet_files import read_json

WORST = 8  # slices shown per judge, lowest sensitivity first


def _file(run: Path, judge_id: str, name: str) -> dict[str, Any] | None:
    path = ids.inside(run, "judge", ids.check(judge_id, "judge_id", run / "results.duckdb"), name)
    if not path.is_file():
        return None
    found = read_json(path, "scores")
    return found if isinstance(found, dict) else None


def judges_context(runs: RunSet) -> list[dict[str, Any]]:
    """One entry per (run, judge): its calibration and, when made, its corrected rate."""
    paths = dict(zip(runs.names, runs.paths, strict=True))
    found = runs.rows(
        "SELECT DISTINCT run_id, judge_id, judge, model, simulator FROM judge_labels "
        "ORDER BY run_id, judge_id"
    )
    out: list[dict[str, Any]] = []
    for row in found:
        run = paths[row["run_id"]]
        calibration = _file(run, row["judge_id"], "calibration.json")
        if calibration is None:
            continue
        slices = [s for s in calibration.get("slices", []) if s.get("slice") != "overall"]
        slices.sort(
            key=lambda s: (
                s["sensitivity"]["estimate"] is None,
                s["sensitivity"]["estimate"] or 0.0,
                s["slice"],
                s["value"],
            )
        )
        out.append(
            {
                **row,
                "calibration": calibration,
                "worst": slices[:WORST],
                "slices": len(slices),
                "estimate": _file(run, row["judge_id"], "estimate.json"),
            }
        )
    return out
