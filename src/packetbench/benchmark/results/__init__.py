"""The results database: a run's scores as DuckDB tables, and SQL over one or many runs.

`packetbench score` calls `load_run`, which writes ``RUN/results.duckdb`` (tables runs,
documents, fields, claims, consistency_flags, patterns; see ``tables.sql``). `open_runs`
stacks the tables of several runs in one in-memory connection and defines every metric of
``benchmark/metrics/*.sql`` over them as a view.
"""

from packetbench.benchmark.results.load import DB_NAME, load_run
from packetbench.benchmark.results.query import RunSet, open_runs

__all__ = ["DB_NAME", "RunSet", "load_run", "open_runs"]
