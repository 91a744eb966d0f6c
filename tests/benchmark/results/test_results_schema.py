"""Each results table is declared once (`benchmark.results.schema`): the database a
run is loaded into, the Parquet files of its scores and the rows the scorer writes are what
the declarations say, column for column and type for type."""

from __future__ import annotations

import json
import shutil
import typing
from pathlib import Path

import duckdb

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.results.schema import (
    CLAIMS,
    DERIVED,
    DOCUMENTS,
    FIELDS,
    LOADED,
    NUMERIC_KINDS,
    ROW,
    TABLES,
    ClaimRow,
    DocumentRow,
    FieldRow,
    ddl,
    row_columns,
)
from packetbench.benchmark.score.scorer import SALVAGE, score_run
from packetbench.truth import normalize
from tests.support.paths import PACKETS
from tests.support.runs import ScoredRun


def _types(con: duckdb.DuckDBPyConnection, query: str) -> list[tuple[str, str]]:
    """(name, type) of each column (DuckDB quotes a field named like a keyword: "rule")."""
    return [
        (row[0], str(row[1]).replace('"', ""))
        for row in con.execute(f"DESCRIBE {query}").fetchall()
    ]


def test_the_numeric_kinds_are_the_scorers() -> None:
    assert list(NUMERIC_KINDS) == sorted(normalize.NUMERIC_KINDS)


def test_every_row_key_is_a_column_of_its_table() -> None:
    """A row's keys are its table's row columns, in the row's order, each with its type."""
    for table, row in ((CLAIMS, ClaimRow), (FIELDS, FieldRow), (DOCUMENTS, DocumentRow)):
        keys = list(typing.get_type_hints(row))
        assert list(table.row_types(optional=True)) == keys
        own = [c.name for c in table.columns if c.source == ROW]
        assert set(own) <= set(keys)
        assert [c.name for c in row_columns(row)] == keys
    # the documents table takes the document's names from the run's listing, its flags go to
    # consistency_flags; every count of the row is a column
    assert set(DocumentRow.__annotations__) - set(DOCUMENTS.names) == {"consistency_flags"}


def test_the_loaded_database_is_the_declaration(scored_run: ScoredRun) -> None:
    run = scored_run("typical", 1)
    with duckdb.connect(str(run / "results.duckdb"), read_only=True) as con:
        for table in TABLES:
            assert _types(con, table.name) == [(c.name, c.type) for c in table.columns], table.name
        assert con.execute("SELECT count(*) FROM claims").fetchone() != (0,)


def test_the_parquet_files_are_the_rows_with_their_derived_columns(
    scored_run: ScoredRun,
) -> None:
    """Each file holds its row's keys with their declared types, in the row's order; claims
    gain value_class, computed as the file is written, right after kind (as the table)."""
    scores = scored_run("typical", 1) / "scores"
    con = duckdb.connect()
    for table in (CLAIMS, FIELDS, DOCUMENTS):
        found = _types(con, f"SELECT * FROM read_parquet('{scores / str(table.file)}')")
        expected = list(table.row_types().items())
        if table is CLAIMS:
            at = [name for name, _ in expected].index("kind") + 1
            expected.insert(at, ("value_class", table.column("value_class").type))
        assert found == expected, table.name
    assert CLAIMS.names.index("value_class") == CLAIMS.names.index("kind") + 1
    assert CLAIMS.column("value_class").source == DERIVED


def test_a_salvaged_run_writes_the_optional_keys(tmp_path: Path) -> None:
    """`--invalid salvage` adds the documents' keys to documents.parquet, and claims.jsonl
    holds the scorer's rows as `ClaimRow` declares them."""
    packets = tmp_path / "packets"
    shutil.copytree(PACKETS / "N1-000001", packets / "N1-000001")
    extract(SimProvider("sloppy", 3), packets, tmp_path / "run")
    score_run(tmp_path / "run", packets, invalid=SALVAGE, claims_jsonl=True)
    load_run(tmp_path / "run", packets)
    con = duckdb.connect()
    names = [
        n for n, _ in _types(con, f"SELECT * FROM '{tmp_path / 'run/scores/documents.parquet'}'")
    ]
    assert names == list(DOCUMENTS.row_types(optional=True))
    first = json.loads((tmp_path / "run" / "scores" / "claims.jsonl").read_text().splitlines()[0])
    assert list(first) == list(typing.get_type_hints(ClaimRow))


def test_the_ddl_carries_every_note() -> None:
    text = ddl()
    for table in TABLES:
        assert f"CREATE TABLE {table.name} (" in text
        for column in table.columns:
            if column.sql.note:
                assert f"-- {column.sql.note}" in text
    assert {c.source for t in TABLES for c in t.columns} == {ROW, LOADED, DERIVED}
    assert all(t.names[0] in ("run_id", "key") for t in TABLES)
