"""Scoring every imported run, exactly as `packetbench score` scores one."""

from __future__ import annotations

from pathlib import Path

from packetbench.benchmark.runs import is_run
from packetbench.benchmark.score.scorer import EXCLUDE, RunScores, score_run


def runs_of(out: Path) -> list[Path]:
    """The run folders of an import, by name."""
    folder = out / "runs"
    return sorted(p for p in folder.iterdir() if is_run(p)) if folder.is_dir() else []


def score_all(out: Path, invalid: str = EXCLUDE, progress: bool = False) -> dict[str, RunScores]:
    """Score each run of the import in `out` (`invalid`: what becomes of a schema-invalid
    output, as `packetbench score --invalid`) and load it into its results database
    (`progress`: a bar on a terminal)."""
    from packetbench.benchmark.results import load_run  # duckdb loads only here
    from packetbench.core import progress as bars

    scored = {}
    runs = runs_of(out)
    with bars.bar("scoring", "runs", len(runs), disable=not progress) as advance:
        for run in runs:
            scored[run.name] = score_run(run, out / "packets", invalid=invalid)
            load_run(run, out / "packets")
            advance(None)
    return scored
