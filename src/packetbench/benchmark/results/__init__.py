"""The results database: a run's scores as DuckDB tables, and SQL over one or many runs.

`packetbench score` calls `load_run`, which writes ``RUN/results.duckdb`` (tables runs,
documents, fields, claims, consistency_flags, patterns, judge_labels; each declared once in
`schema`). `open_runs` stacks the tables of several runs in one in-memory connection and
defines every metric of ``benchmark/metrics/*.sql`` over them as a view.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from packetbench.benchmark.results.database import DB_NAME

if TYPE_CHECKING:
    from packetbench.benchmark.results.load import load_run
    from packetbench.benchmark.results.query import RunSet, open_runs

__all__ = ["DB_NAME", "RunSet", "load_run", "open_runs"]
# The loader imports the scorer: a reader of a results database (the viewer) loads neither
# until it asks for them.
_LAZY = {"load_run": "load", "RunSet": "query", "open_runs": "query"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
