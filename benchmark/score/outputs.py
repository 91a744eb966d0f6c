"""The row outputs of scoring: claims and the field view, streamed to disk, then Parquet.

Packets' rows arrive in packet order and are appended to JSON-lines files in a scratch folder
beside scores/, so memory holds one packet's rows at a time however large the run. At the
end DuckDB turns each into a zstd Parquet file (`claims.parquet`, `fields.parquet`) that
`results.duckdb`, `packetbench sql` and any Parquet reader read in place. DuckDB writes
them with one thread and in insertion order, so the same rows give the same bytes. Files
are renamed into place only when complete; a scoring killed midway leaves its scratch
folder, removed by the next scoring of the run.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import TracebackType

import duckdb

from benchmark.errors import BadInput
from benchmark.runs import remove_left_behind, umask
from benchmark.score import normalize

CLAIMS = "claims.parquet"
FIELDS = "fields.parquet"
CLAIMS_JSONL = "claims.jsonl"
_NUMERIC = ", ".join(f"'{k}'" for k in sorted(normalize.NUMERIC_KINDS))

# Column types of each output, in column order (the JSON rows' keys).
CLAIM_COLUMNS = {
    "packet_id": "VARCHAR", "doc_id": "VARCHAR", "doc_type": "VARCHAR", "tier": "VARCHAR",
    "path": "VARCHAR", "kind": "VARCHAR", "value": "JSON", "truth": "JSON",
    "field_class": "VARCHAR", "grounded_in": "VARCHAR", "hallucinated": "BOOLEAN",
    "hallucinated_document": "BOOLEAN", "verdict": "VARCHAR", "patterns": "VARCHAR[]",
}
FIELD_COLUMNS = {
    "packet_id": "VARCHAR", "doc_id": "VARCHAR", "path": "VARCHAR", "kind": "VARCHAR",
    "field_class": "VARCHAR", "populated": "BOOLEAN", "outcome": "VARCHAR",
    "patterns": "VARCHAR[]",
}
# What DuckDB may use while converting (it spills to the scratch folder beyond it).
MEMORY_LIMIT = "512MB"


def _spec(columns: dict[str, str]) -> str:
    return "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in columns.items()) + "}"


def _select(columns: dict[str, str]) -> str:
    """The Parquet file's columns; claims gain value_class (how hallucination rates split
    values: numbers or strings)."""
    names = list(columns)
    if "value" in columns:
        at = names.index("kind") + 1
        names.insert(at, f"CASE WHEN kind IN ({_NUMERIC}) THEN 'numbers' ELSE 'strings' END "
                         "AS value_class")
    return ", ".join(names)


class Streams:
    """Append packets' claims and field rows; `finish` writes the Parquet files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.scratch = folder.parent / f".results-{os.getpid()}-scoring"

    def __enter__(self) -> Streams:
        remove_left_behind(self.folder.parent)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BadInput(f"{self.folder}: cannot create the folder "
                           f"({error.strerror or type(error).__name__})") from None
        for name in (CLAIMS, FIELDS, CLAIMS_JSONL):
            if (self.folder / name).is_dir():
                raise BadInput(f"{self.folder / name}: is a folder, cannot write a file there")
        shutil.rmtree(self.scratch, ignore_errors=True)
        try:
            self.scratch.mkdir()
        except OSError as error:
            raise BadInput(f"{self.scratch}: cannot create the folder "
                           f"({error.strerror or type(error).__name__})") from None
        self._claims = (self.scratch / "claims.jsonl").open("wb")
        self._fields = (self.scratch / "fields.jsonl").open("wb")
        return self

    def add(self, claims: bytes, fields: bytes) -> None:
        self._claims.write(claims)
        self._fields.write(fields)

    def finish(self, claims_jsonl: bool) -> None:
        """Write claims.parquet and fields.parquet (and claims.jsonl when asked)."""
        self._claims.close()
        self._fields.close()
        con = duckdb.connect()
        try:
            con.execute(f"SET threads = 1; SET preserve_insertion_order = true; "
                        f"SET memory_limit = '{MEMORY_LIMIT}'; "
                        f"SET temp_directory = '{self.scratch / 'spill'}'")
            for source, target, columns in (("claims.jsonl", CLAIMS, CLAIM_COLUMNS),
                                            ("fields.jsonl", FIELDS, FIELD_COLUMNS)):
                building = self.scratch / target
                rows = self.scratch / source
                # An empty file has no rows to infer from: read an empty table of the columns.
                read = (f"read_json('{rows}', format='newline_delimited', "
                        f"columns={_spec(columns)})" if rows.stat().st_size else
                        "(SELECT " + ", ".join(f"NULL::{kind} AS {name}"
                                               for name, kind in columns.items())
                        + " WHERE false)")
                con.execute(f"COPY (SELECT {_select(columns)} FROM {read}) TO '{building}' "
                            "(FORMAT parquet, COMPRESSION zstd)")
                os.chmod(building, 0o666 & ~umask())  # as any file the run writes
                os.replace(building, self.folder / target)
        finally:
            con.close()
        kept = self.folder / CLAIMS_JSONL
        if claims_jsonl:
            os.replace(self.scratch / "claims.jsonl", kept)
        elif kept.is_file():
            kept.unlink()  # from an earlier scoring: it would disagree with the Parquet

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._claims.close()
        self._fields.close()
        shutil.rmtree(self.scratch, ignore_errors=True)
