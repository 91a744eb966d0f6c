"""The row outputs of scoring: documents, claims and the field view, streamed to disk, then
Parquet.

Packets' rows arrive in packet order and are appended to JSON-lines files in a scratch folder
beside scores/, so memory holds one packet's rows at a time however large the run. At the
end DuckDB turns each into a zstd Parquet file (`documents.parquet`, `claims.parquet`,
`fields.parquet`) that `results.duckdb`, `packetbench sql` and any Parquet reader read in
place. DuckDB writes
them with one thread and in insertion order, so the same rows give the same bytes. Files
are renamed into place only when complete; a scoring killed midway leaves its scratch
folder, removed by the next scoring of the run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import duckdb

from packetbench.benchmark.results import schema
from packetbench.benchmark.score.field_view import FieldCounts
from packetbench.benchmark.score.rates import CLASSES, rate
from packetbench.benchmark.score.totals import CONSISTENCY_TALLIES
from packetbench.benchmark.score.verdicts import VERDICTS
from packetbench.core import stopping
from packetbench.core.errors import BadInput
from packetbench.core.writing import machine_refused, refused_write, remove_left_behind, umask

DOCUMENTS = schema.DOCUMENTS.file or ""
CLAIMS = schema.CLAIMS.file or ""
FIELDS = schema.FIELDS.file or ""
CLAIMS_JSONL = "claims.jsonl"
# What DuckDB may hold while converting and loading (it spills to the scratch folder beyond
# it); its buffers stay allocated, so this bounds what scoring adds to a run of any size.
MEMORY_LIMIT = "128MB"
# JSON rows converted to a Parquet part at a time (DuckDB's JSON reader holds about this).
PART_BYTES = 16 << 20


def _spec(columns: dict[str, str]) -> str:
    return "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in columns.items()) + "}"


class _Stream:
    """One output: rows appended to a JSON-lines part; every PART_BYTES a part becomes a
    Parquet part, so DuckDB never reads more than one part's JSON at once."""

    def __init__(
        self, scratch: Path, table: schema.Table, optional: bool, keep: Path | None
    ) -> None:
        self.scratch, self.name = scratch, table.name
        self.columns = table.row_types(optional)  # what the rows hold
        self.select = table.file_select(optional)  # what the Parquet file holds
        self.parts: list[Path] = []
        self.rows = (scratch / f"{self.name}.part.jsonl").open("wb")
        self.keep = keep.open("wb") if keep is not None else None

    def add(self, con: duckdb.DuckDBPyConnection, data: bytes) -> None:
        self.rows.write(data)
        if self.keep is not None:
            self.keep.write(data)
        if self.rows.tell() >= PART_BYTES:
            self._part(con)

    def _part(self, con: duckdb.DuckDBPyConnection) -> None:
        self.rows.close()
        source = self.scratch / f"{self.name}.part.jsonl"
        part = self.scratch / f"{self.name}-{len(self.parts):06d}.parquet"
        # An empty file has no rows to infer from: read an empty table of the columns.
        read = (
            f"read_json('{source}', format='newline_delimited', columns={_spec(self.columns)})"
            if source.stat().st_size
            else "(SELECT "
            + ", ".join(f"NULL::{kind} AS {name}" for name, kind in self.columns.items())
            + " WHERE false)"
        )
        con.execute(
            f"COPY (SELECT {self.select} FROM {read}) TO '{part}' "
            "(FORMAT parquet, COMPRESSION zstd)"
        )
        self.parts.append(part)
        self.rows = source.open("wb")

    def finish(self, con: duckdb.DuckDBPyConnection, name: str) -> Path:
        """Write the whole output as scratch/`name` (moved into scores/ by `Streams`)."""
        if self.rows.tell() or not self.parts:
            self._part(con)
        self.close()
        building = self.scratch / name
        # Parts in order, row groups in order: one thread reads them as they were written.
        listed = ", ".join(f"'{part}'" for part in self.parts)
        con.execute(
            f"COPY (SELECT * FROM read_parquet([{listed}])) TO '{building}' "
            "(FORMAT parquet, COMPRESSION zstd)"
        )
        return building

    def close(self) -> None:
        self.rows.close()
        if self.keep is not None:
            self.keep.close()


@dataclass(frozen=True)
class Rows:
    """One packet's rows of each output, JSON lines in document order."""

    documents: bytes = b""
    claims: bytes = b""
    fields: bytes = b""


class Streams:
    """Append packets' rows; `finish` writes every score file into the scratch folder and
    only then moves them into scores/ together, so a scoring that fails (a full disk, a
    SIGINT) leaves the scores it found, never new files beside old ones. A write the machine
    refuses is `WriteFailed` naming the file."""

    def __init__(
        self,
        folder: Path,
        claims_jsonl: bool = False,
        stale: tuple[Path, ...] = (),
        keys: bool = False,
    ) -> None:
        self.folder = folder
        self.keys = keys  # documents carry their keys (--invalid salvage)
        self.claims_jsonl = claims_jsonl
        self.scratch = folder.parent / f".results-{os.getpid()}-scoring"
        self.stale = stale  # files that describe the scores being replaced (results.duckdb)

    def __enter__(self) -> Streams:
        remove_left_behind(self.folder.parent)
        self.created = not self.folder.exists()  # removed again when scoring fails
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BadInput(
                f"{self.folder}: cannot create the folder "
                f"({error.strerror or type(error).__name__})"
            ) from None
        for name in (DOCUMENTS, CLAIMS, FIELDS, CLAIMS_JSONL):
            if (self.folder / name).is_dir():
                raise BadInput(f"{self.folder / name}: is a folder, cannot write a file there")
        shutil.rmtree(self.scratch, ignore_errors=True)
        try:
            self.scratch.mkdir()
        except OSError as error:
            raise BadInput(
                f"{self.scratch}: cannot create the folder "
                f"({error.strerror or type(error).__name__})"
            ) from None
        try:
            self._open()
        except BaseException:  # a stop (SIGINT, SIGTERM) or a failure before the block
            shutil.rmtree(self.scratch, ignore_errors=True)
            if self.created:
                with contextlib.suppress(OSError):
                    self.folder.rmdir()
            raise
        return self

    def _open(self) -> None:
        self.con = stopping.watch(duckdb.connect())
        self.con.execute(
            f"SET threads = 1; SET preserve_insertion_order = true; "
            f"SET memory_limit = '{MEMORY_LIMIT}'; "
            f"SET temp_directory = '{self.scratch / 'spill'}'"
        )
        self.documents = _Stream(self.scratch, schema.DOCUMENTS, self.keys, None)
        self.claims = _Stream(
            self.scratch,
            schema.CLAIMS,
            False,
            self.scratch / CLAIMS_JSONL if self.claims_jsonl else None,
        )
        self.fields = _Stream(self.scratch, schema.FIELDS, False, None)

    @contextlib.contextmanager
    def _writing(self, name: str) -> Iterator[None]:
        """Turn the machine refusing a write of scores/`name` into WriteFailed."""
        try:
            yield
        except (OSError, duckdb.Error) as error:
            if machine_refused(error):
                raise refused_write(self.folder / name, error) from None
            raise

    def add(self, rows: Rows) -> None:
        for stream, data in (
            (self.documents, rows.documents),
            (self.claims, rows.claims),
            (self.fields, rows.fields),
        ):
            with self._writing(f"{stream.name}.parquet"):
                stream.add(self.con, data)

    def finish(self, files: dict[str, bytes]) -> None:
        """Write documents.parquet, claims.parquet and fields.parquet, the JSON `files` (name
        -> bytes) and claims.jsonl when asked, all in the scratch folder; then remove the
        stale files and move every one into scores/ (renames: no space needed)."""
        built: list[Path] = []
        for stream, name in (
            (self.documents, DOCUMENTS),
            (self.claims, CLAIMS),
            (self.fields, FIELDS),
        ):
            with self._writing(name):
                built.append(stream.finish(self.con, name))
        for name, data in files.items():
            with self._writing(name):
                (self.scratch / name).write_bytes(data)
            built.append(self.scratch / name)
        if self.claims_jsonl:
            built.append(self.scratch / CLAIMS_JSONL)
        for stale in (*self.stale, *([] if self.claims_jsonl else [self.folder / CLAIMS_JSONL])):
            # results.duckdb described the scores being replaced; an earlier claims.jsonl
            # would disagree with the new Parquet.
            stale.unlink(missing_ok=True)
        for path in built:
            os.chmod(path, 0o666 & ~umask())  # as any file the run writes
            os.replace(path, self.folder / path.name)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.documents.close()
        self.claims.close()
        self.fields.close()
        self.con.close()
        shutil.rmtree(self.scratch, ignore_errors=True)
        if error is not None and self.created:
            with contextlib.suppress(OSError):  # only while empty: it holds nothing of ours
                self.folder.rmdir()


def read_documents(folder: Path) -> dict[str, dict[str, Any]]:
    """Every scored document of a scores/ folder, "<packet_id>/<doc_id>" -> its counts in
    the shapes of the run-level files: `fields` (field_breakdown.json's counts), `grounding`
    (hallucination.json's, with each document's own rates), `verdicts` and `consistency`
    (with its flags). It reads documents.parquet whole: for a run's few documents (tests,
    the imported reference corpus); large runs are read through DuckDB in place."""
    path = folder / DOCUMENTS
    if not path.is_file():
        raise BadInput(f"{path}: missing (score the run again)")
    con = stopping.watch(duckdb.connect())
    try:
        cursor = con.execute("SELECT * FROM read_parquet(?)", [str(path)])
        names = [column[0] for column in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    except duckdb.Error as error:
        raise BadInput(f"{path}: unreadable ({' '.join(str(error).split())})") from None
    finally:
        con.close()
    return {f"{row['packet_id']}/{row['doc_id']}": _document(row) for row in rows}


def _document(row: dict[str, Any]) -> dict[str, Any]:
    grounding = {
        universe: {
            kind: {
                "checked": row[f"{kind}_checked"],
                "hallucinated": row[f"{kind}_hallucinated{suffix}"],
                "rate": rate(row[f"{kind}_hallucinated{suffix}"], row[f"{kind}_checked"]),
            }
            for kind in CLASSES
        }
        for universe, suffix in (("packet", ""), ("document", "_document"))
    }
    return {
        "fields": {name: row[name] for name in FieldCounts().as_dict()},
        "grounding": grounding,
        "verdicts": {name: row[name] for name in VERDICTS},
        "consistency": {
            **{name: row[f"consistency_{name}"] for name in CONSISTENCY_TALLIES},
            "flags": row["consistency_flags"],
        },
    }
