"""The results database's file name and what every reader checks before it reads a run's
``results.duckdb``: its schema version (`results.schema.SCHEMA_VERSION`) and the records it
was scored from (kept apart from the loader, so a reader need not import the scorer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from packetbench.benchmark.results.schema import SCHEMA_VERSION
from packetbench.core.errors import BadInput
from packetbench.core.memo import HashMemo

DB_NAME = "results.duckdb"


def check_records(db: Path, run: Path, meta: dict[str, Any], memo: HashMemo | None = None) -> None:
    """BadInput naming `db` when the run's extraction records are not the ones it was
    scored from (an `extract --force` or a hand edit after `score`): its numbers would
    describe other answers than the run holds."""
    from packetbench.benchmark.records import records_digest

    if meta.get("records") != records_digest(run, memo):
        raise BadInput(
            f"{db}: the run's extraction records changed since it was scored; score the run again"
        )


def scored_digest(run: Path) -> str | None:
    """The digest of the extraction records `run`'s results database was scored from (its
    meta `records`), or None when there is no readable database of this schema."""
    db = run / DB_NAME
    if not db.is_file():
        return None
    import duckdb

    try:
        with duckdb.connect(str(db), read_only=True) as con:
            meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    except duckdb.Error:
        return None
    if meta.get("schema_version") != SCHEMA_VERSION:
        return None
    value = meta.get("records")
    return str(value) if value is not None else None
