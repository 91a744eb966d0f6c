"""SQL over one or many runs: their results databases stacked, and every metric as a view.

Each run's ``results.duckdb`` is attached read-only to an in-memory connection; the views
``runs``, ``documents``, ``fields``, ``claims``, ``consistency_flags``, ``patterns`` and
``judge_labels`` stack
the tables of all runs (a run is named by its run_id; runs that share one are named by the
path they were given as), and each ``benchmark/metrics/<name>.sql`` becomes the view
``<name>``. A metric is defined once, there, and every report reads it from there.
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import duckdb

from packetbench.benchmark import provenance
from packetbench.benchmark.results import schema
from packetbench.benchmark.results.database import DB_NAME, check_records
from packetbench.benchmark.results.schema import SCHEMA_VERSION
from packetbench.benchmark.runs import is_run, read_run, refusal, repeat_runs
from packetbench.core import stopping
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.memo import HashMemo
from packetbench.core.worker_pool import alive

METRICS_DIR = Path(__file__).resolve().parent.parent / "metrics"
# What DuckDB may hold while a report or a query runs (it spills to disk beyond it).
MEMORY_LIMIT = "512MB"
# The tables of every run, stacked (each database's meta is its own).
TABLES = tuple(table.name for table in schema.TABLES if table.name != "meta")
# A slice with fewer documents or values than these is flagged as too small to compare.
MIN_DOCUMENTS = 5
MIN_VALUES = 30


@cache
def metric_sql() -> dict[str, str]:
    """name -> SQL of every metric file, in an order where each view's inputs come first."""
    sources = {
        path.stem: path.read_text(encoding="utf-8") for path in sorted(METRICS_DIR.glob("*.sql"))
    }
    ordered: dict[str, str] = {}

    def visit(name: str, trail: tuple[str, ...]) -> None:
        if name in ordered:
            return
        if name in trail:
            raise RuntimeError(f"metric views depend on each other in a cycle: {trail}")
        uses = set(re.findall(r"\b(?:FROM|JOIN)\s+([a-z_]+)", sources[name], re.I))
        for other in sorted(uses & set(sources)):
            visit(other, (*trail, name))
        ordered[name] = sources[name]

    for name in sources:
        visit(name, ())
    return ordered


@dataclass
class RunSet:
    """An open connection over some runs, with their names in the order given."""

    con: duckdb.DuckDBPyConnection
    paths: list[Path]
    names: list[str]
    # packet_id -> run.json entry (with its sha256s) of every run: what each was scored on
    documents: list[dict[str, dict[str, Any]]]
    # A folder of this connection's own: a database for intermediate tables (named
    # `scratch_schema`), and where DuckDB spills beyond MEMORY_LIMIT. Removed on close.
    scratch: Path | None = None
    scratch_schema: str = "scratch"

    def check_paired(self) -> None:
        """BadInput unless every document two runs share was the same file in both (runs
        of different packets that share ids cannot be paired), and the runs were scored
        under the same invalid-output policy (salvaged and excluded documents differ)."""
        policies = dict(self.con.execute("SELECT run_id, invalid_policy FROM runs").fetchall())
        if len(set(policies.values())) > 1:
            shown = ", ".join(f"{name} --invalid {policies[name]}" for name in self.names)
            raise BadInput(
                f"{self.paths[-1]}: the runs were scored under different policies for invalid "
                f"outputs ({shown}); score them alike to pair them"
            )
        for (i, a), (j, b) in itertools.combinations(enumerate(self.documents), 2):
            found = provenance.first_difference(a, b)
            if found is not None:
                document, kind = found
                raise BadInput(
                    f"{self.paths[j]}: extracted from another {document} than "
                    f"{self.paths[i]} (its {kind.replace('_', ' ')} differs); only "
                    "runs of the same documents can be paired"
                )

    def table(
        self, query: str, parameters: Sequence[Any] | None = None
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """The column names and rows of `query`; UsageError for SQL DuckDB rejects."""
        try:
            cursor = self.con.execute(query, parameters or [])
            columns = [d[0] for d in cursor.description or []]
            return columns, cursor.fetchall()
        except (duckdb.Error, RuntimeError) as error:
            if stopping.interrupted_error(error):  # a signal stopped it: the command stops
                raise stopping.stop_signal() from None
            if not isinstance(error, duckdb.Error):
                raise
            raise UsageError(f"SQL: {str(error).splitlines()[0]}") from None

    def query(self, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """The column names and rows of one user SELECT statement (`packetbench sql`):
        UsageError for an empty query, several statements, or any statement that is not a
        query (ATTACH, DETACH, COPY, INSTALL, LOAD, SET, UPDATE, PRAGMA, CALL, EXPLAIN...)."""
        try:
            statements = duckdb.extract_statements(sql)
        except duckdb.Error as error:
            raise UsageError(f"SQL: {str(error).splitlines()[0]}") from None
        if not statements:
            raise UsageError("QUERY: empty; give one SELECT statement")
        if len(statements) > 1:
            raise UsageError(
                f"QUERY: {len(statements)} statements; give one SELECT statement per call"
            )
        kind = statements[0].type
        if kind != duckdb.StatementType.SELECT:
            raise UsageError(
                f"QUERY: {kind.name} statements are refused; packetbench sql runs one SELECT "
                "statement (the results are read-only)"
            )
        return self.table(sql)

    def rows(self, query: str, parameters: Sequence[Any] | None = None) -> list[dict[str, Any]]:
        """The result of `query` as dicts, keyed by column name."""
        columns, rows = self.table(query, parameters)
        return [dict(zip(columns, row, strict=True)) for row in rows]

    def metric(self, name: str, where: str = "") -> list[dict[str, Any]]:
        """The rows of one metric view (optionally filtered by a WHERE clause)."""
        return self.rows(f"SELECT * FROM {name} {where}")

    def close(self) -> None:
        self.con.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            _SCRATCHES.discard(self.scratch)

    def __enter__(self) -> RunSet:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _names(paths: Sequence[Path], ids: list[str]) -> list[str]:
    """Each run's run_id, or the path it was given as where two runs share a run_id."""
    if len(set(ids)) == len(ids):
        return ids
    shown = [str(p) for p in paths]
    if len(set(shown)) != len(shown):
        raise UsageError(f"the same run is given twice: {shown[0]}")
    return [shown[i] if ids.count(ids[i]) > 1 else ids[i] for i in range(len(ids))]


def _scored_against(run: Path, db: Path, meta: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What run.json says the run was extracted from, after checking the database was
    scored against exactly that (a run made again and not scored again is refused)."""
    listed = provenance.recorded(read_run(run), run)
    try:
        stored = json.loads(str(meta.get("provenance")))
    except json.JSONDecodeError:
        stored = None
    differs = (
        provenance.same_listing(listed, stored) if isinstance(stored, dict) else "(not recorded)"
    )
    if differs is not None:
        raise BadInput(
            f"{db}: scored against other documents than {run / 'run.json'} lists "
            f"(first {differs}); score the run again"
        )
    return listed


def readable_files(run: Path) -> list[str]:
    """The files of `run` a user's SQL may read: the regular files directly in its scores/
    folder, by absolute path, none reached through a link. A run folder is someone else's
    input: a scores/ that is a symlink (to `/`, say), or a Parquet file that is one, would
    otherwise open the machine to `read_text`."""
    folder = run.resolve() / "scores"
    try:
        if not stat.S_ISDIR(folder.lstat().st_mode):  # a link is not a folder of the run
            return []
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    found = []
    for entry in entries:
        try:
            if stat.S_ISREG(entry.lstat().st_mode):
                found.append(str(entry))
        except OSError:
            continue
    return found


def _sandbox(con: duckdb.DuckDBPyConnection, paths: Sequence[Path]) -> None:
    """Lock the connection for SQL a user writes: no file is reachable but the runs' own
    regular files in scores/ (`readable_files`: a list of files, not of folders, so no link
    leads out of a run), no extension can be installed or loaded, and no setting can be
    changed back. The run databases are attached read-only already."""
    allowed = sorted({name for run in paths for name in readable_files(run)})
    con.execute("SET allowed_directories = []")
    con.execute("SET allowed_paths = ?", [allowed])
    con.execute("SET enable_external_access = false")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET lock_configuration = true")


SCRATCH = "packetbench-results-"  # + the process id: a scratch folder in the system's temp
_SCRATCHES: set[Path] = set()  # this process's, not yet removed


@atexit.register
def _remove_scratches() -> None:
    """At the end of the process, the scratch folders of result sets never closed (a server
    stopped while its overview still read: the thread is left, its folder is not)."""
    for folder in list(_SCRATCHES):
        shutil.rmtree(folder, ignore_errors=True)


def remove_stale_scratch(folder: Path | None = None) -> None:
    """Delete the scratch folders of processes that are gone (killed, or ended before their
    cleanup ran: a server stopped while its overview's query was reading), which hold up to a
    few GB of DuckDB spill each. `folder` is the system's temporary folder unless given."""
    where = Path(folder or tempfile.gettempdir())
    try:
        entries = list(where.glob(f"{SCRATCH}*-*"))
    except OSError:
        return
    for entry in entries:
        owner = entry.name[len(SCRATCH) :].split("-", 1)[0]
        if not owner.isdigit() or int(owner) == os.getpid() or alive(int(owner)):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


def open_runs(
    paths: Sequence[Path], paired: bool = False, sandbox: bool = False, memo: HashMemo | None = None
) -> RunSet:
    """Attach the results database of every run in `paths` and define the metric views.

    Each database must have been scored against the documents its run.json lists; with
    `paired`, the runs must also share the documents they have in common. With `sandbox`
    (user SQL: `RunSet.query`), nothing outside the runs' scores/ folders is reachable and
    the settings are locked. With `memo`, a record hashed before and unchanged since is not
    read again (`core.memo`)."""
    if not paths:
        raise UsageError("give at least one run folder")
    remove_stale_scratch()
    con = stopping.watch(duckdb.connect())
    scratch = Path(tempfile.mkdtemp(prefix=f"{SCRATCH}{os.getpid()}-"))
    _SCRATCHES.add(scratch)
    try:
        # Bounded memory over runs of any size: DuckDB spills what exceeds MEMORY_LIMIT, and
        # intermediate tables (benchmark.report.estimates) live in a database on disk, whose
        # blocks it can evict (an in-memory temporary table cannot be).
        con.execute(
            f"SET memory_limit = '{MEMORY_LIMIT}'; "
            f"SET temp_directory = {_literal(str(scratch / 'spill'))}"
        )
        con.execute(f"ATTACH {_literal(str(scratch / 'scratch.duckdb'))} AS scratch")
        ids: list[str] = []
        documents: list[dict[str, dict[str, Any]]] = []
        for index, run in enumerate(paths):
            repeats = repeat_runs(run)
            if repeats is not None:  # its repeats are the runs; their callers expand it
                raise refusal(run, len(repeats), "score, report or sql")
            db = run / DB_NAME
            if not db.is_file():
                hint = (
                    "not a run folder"
                    if not is_run(run)
                    else "score the run first: packetbench score RUN --packets DIR"
                )
                raise BadInput(f"{db}: missing ({hint})")
            try:
                con.execute(f"ATTACH ? AS r{index} (READ_ONLY)", [str(db)])
                meta = dict(con.execute(f"SELECT key, value FROM r{index}.meta").fetchall())
            except duckdb.Error as error:
                raise BadInput(f"{db}: not a results database ({error})") from None
            if meta.get("schema_version") != SCHEMA_VERSION:
                raise BadInput(
                    f"{db}: written by another packetbench version (results schema "
                    f"{meta.get('schema_version')}, expected {SCHEMA_VERSION}); "
                    "score the run again"
                )
            documents.append(_scored_against(run, db, meta))
            check_records(db, run, meta, memo)
            ids.append(str(meta["run_id"]))
        names = _names(paths, ids)
        for table in TABLES:
            parts = [
                f"SELECT * REPLACE (CAST(? AS VARCHAR) AS run_id) FROM r{i}.{table}"
                for i in range(len(paths))
            ]
            view = " UNION ALL ".join(parts)
            # Views cannot hold parameters: inline each name as a quoted literal.
            for name in names:
                view = view.replace("CAST(? AS VARCHAR)", _literal(name), 1)
            con.execute(f"CREATE TEMP VIEW {table} AS {view}")
        con.execute(
            "CREATE TEMP TABLE settings AS SELECT ? AS min_documents, ? AS min_values",
            [MIN_DOCUMENTS, MIN_VALUES],
        )
        for name, sql in metric_sql().items():
            con.execute(f"CREATE TEMP VIEW {name} AS {sql}")
        runs = RunSet(con, list(paths), names, documents, scratch)
        if paired:
            runs.check_paired()
        if sandbox:
            _sandbox(con, paths)
    except BaseException:
        con.close()
        shutil.rmtree(scratch, ignore_errors=True)
        _SCRATCHES.discard(scratch)
        raise
    return runs


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
