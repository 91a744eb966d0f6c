"""Load a scored run into ``RUN/results.duckdb``.

Everything comes from files: run.json, the extraction records (status, usage), the files of
``RUN/scores/`` (the documents left out from field_breakdown.json; each scored document's
counts and flags, the claims and the field view from its Parquet files, read in place), and
the packets' manifests (patterns). Nothing per document is held in memory: rows stream
through newline-delimited JSON files and Parquet into DuckDB. The database is built under a
temporary name and renamed into place, so a reader never opens half a database. Rows are
inserted in a fixed order; every metric query orders its result, so the same run always
answers the same.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import orjson

from packetbench.benchmark import provenance
from packetbench.benchmark.records import read_record, record_path, records_digest
from packetbench.benchmark.results.database import DB_NAME
from packetbench.benchmark.results.schema import (
    CLAIMS,
    DERIVED,
    DOCUMENTS,
    FIELDS,
    LOADED,
    ROW,
    SCHEMA_VERSION,
    ddl,
)
from packetbench.benchmark.run_folder import listed_documents
from packetbench.benchmark.runs import RunInfo, read_run
from packetbench.benchmark.score.outputs import MEMORY_LIMIT
from packetbench.core import stopping
from packetbench.core.errors import BadInput
from packetbench.core.packet_files import read_json, read_manifest
from packetbench.core.writing import machine_refused, refused_write, remove_left_behind
from packetbench.truth.packets import DocInfo, Packet, find_packets

# The documents columns documents.parquet gives (its other columns name the document, and
# its flags fill consistency_flags), and those derived from them as the table is loaded.
_COUNTED = DOCUMENTS.of(ROW)
_DERIVED = {c.name: c.expression for c in DOCUMENTS.columns if c.source == DERIVED}


def _excluded(run: Path) -> dict[str, Any]:
    """The documents the scoring left out and those it salvaged (field_breakdown.json's
    `excluded`, its `salvaged` under that key), and its invalid-output `policy`."""
    path = run / "scores" / "field_breakdown.json"
    if not path.is_file():
        raise BadInput(f"{path.parent}: no scores (run `packetbench score` first)")
    found = read_json(path, "scores")
    breakdown: dict[str, Any] = found if isinstance(found, dict) else {}
    excluded = breakdown.get("excluded")
    out = dict(excluded) if isinstance(excluded, dict) else {}
    out["salvaged"] = breakdown.get("salvaged") or []
    out["policy"] = breakdown.get("invalid_policy", "exclude")
    return out


def _run_row(run_id: str, info: RunInfo, documents: int, policy: str) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "provider": info.provider,
        "model": info.model,
        "simulator": info.simulator,
        "label": info.label,
        "parameters": info.parameters or {},
        "config": info.configuration(),
        "toolkit_version": info.toolkit_version,
        "git_commit": info.git.commit if info.git is not None else None,
        "git_dirty": info.git.dirty if info.git is not None else None,
        "packets_dir": info.packets_dir,
        "status": info.status,
        "packets": len(info.packets or []),
        "documents_expected": documents,
        "invalid_policy": policy,
    }


def _document_rows(
    run_id: str, run: Path, selected: list[tuple[Packet, DocInfo]], excluded: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """Each document's row as the extraction record and the exclusions say; the counts of
    a scored one are joined from documents.parquet (`_load_documents`)."""
    missing = set(excluded.get("missing", []))
    errors = {e["document"]: e for e in excluded.get("error", [])}
    invalid = {e["document"]: e for e in excluded.get("invalid", [])}
    salvaged = {e["document"]: e for e in excluded.get("salvaged", [])}
    for position, (packet, doc) in enumerate(selected):
        key = f"{packet.packet_id}/{doc.doc_id}"
        row: dict[str, Any] = {
            "position": position,
            "run_id": run_id,
            "packet_id": packet.packet_id,
            "doc_id": doc.doc_id,
            "doc_type": doc.doc_type,
            "schema_name": doc.schema,
            "tier": packet.tier,
            "format": doc.format,
            "superseded_by": doc.superseded_by,
        }
        path = record_path(run, packet.packet_id, doc.doc_id)
        if key in missing or not path.exists():
            yield {**row, "status": "missing", "reason": "no extraction record"}
            continue
        record = read_record(path)
        row.update(
            record_status=record.status,
            attempts=record.attempts,
            latency_s=record.latency_s,
            finish_reason=record.finish_reason,
            **record.usage.model_dump(),
        )
        if key in errors:
            error = errors[key]
            yield {**row, "status": "error", "reason": f"{error['status']}: {error['error']}"}
            continue
        if key in invalid:
            yield {**row, "status": "invalid", "reason": invalid[key]["reason"]}
            continue
        if key in salvaged:
            yield {**row, "status": "scored", "reason": f"salvaged: {salvaged[key]['reason']}"}
            continue
        yield {**row, "status": "scored"}


def _load_documents(
    con: duckdb.DuckDBPyConnection,
    run: Path,
    rows: Iterable[dict[str, Any]],
    scratch: Path,
    keys: bool = False,
) -> None:
    """The documents table: each document's row (`_document_rows`) joined, when scored, with
    its counts in documents.parquet, in the run's document order. The key columns come from
    documents.parquet of a run scored with --invalid salvage (`keys`); they are NULL (not
    counted) in a run scored with --invalid exclude."""
    counted = _parquet(run, DOCUMENTS.file)
    table = _columns(con, "documents")
    own = {name: kind for name, kind in table.items() if name in DOCUMENTS.of(LOADED)}
    _write_rows(rows, scratch / "documents.jsonl")
    spec = _spec({"position": "BIGINT", **own})

    def pick(name: str) -> str:
        if name in own:
            return f"r.{name}"
        if name in _DERIVED:  # over the row's columns (the verdicts' sum)
            return re.sub(r"\b([a-z_]+)\b", r"c.\1", _DERIVED[name] or "NULL")
        if DOCUMENTS.column(name).optional and not keys:
            return f"NULL::{_COUNTED[name]}"
        return f"c.{name}"

    picked = ", ".join(pick(name) for name in table)
    try:
        con.execute(
            f"INSERT INTO documents ({', '.join(table)}) SELECT {picked} "
            f"FROM read_json(?, format='newline_delimited', columns={spec}) AS r "
            "LEFT JOIN read_parquet(?) AS c ON r.status = 'scored' "
            "AND c.packet_id = r.packet_id AND c.doc_id = r.doc_id ORDER BY r.position",
            [str(scratch / "documents.jsonl"), str(counted)],
        )
        unscored = con.execute(
            "SELECT packet_id || '/' || doc_id FROM documents "
            "WHERE status = 'scored' AND gt_fields IS NULL "
            "ORDER BY packet_id, doc_id LIMIT 1"
        ).fetchone()
    except duckdb.Error as error:
        raise BadInput(f"{counted}: unreadable ({' '.join(str(error).split())})") from None
    if unscored is not None:
        raise BadInput(
            f"{counted}: {unscored[0]} is neither scored nor excluded (score the run again)"
        )


def _load_flags(con: duckdb.DuckDBPyConnection, run_id: str, run: Path) -> None:
    """The consistency flags of every scored document (documents.parquet), in order."""
    path = _parquet(run, DOCUMENTS.file)
    try:
        con.execute(
            "INSERT INTO consistency_flags SELECT ? AS run_id, packet_id, doc_id, "
            "flag.rule, flag.path, flag.kind, flag.stated, flag.expected FROM ("
            "SELECT packet_id, doc_id, UNNEST(consistency_flags) AS flag "
            "FROM read_parquet(?))",
            [run_id, str(path)],
        )
    except duckdb.Error as error:
        raise BadInput(f"{path}: unreadable ({' '.join(str(error).split())})") from None


def _pattern_rows(run_id: str, selected: list[tuple[Packet, DocInfo]]) -> Iterator[dict[str, Any]]:
    for packet, doc in selected:
        manifest = read_manifest(packet.path, doc.doc_id)
        for applied in manifest.get("patterns_applied") or []:
            yield {
                "run_id": run_id,
                "packet_id": packet.packet_id,
                "doc_id": doc.doc_id,
                "pattern_id": str(applied.get("id")),
                "name": applied.get("name"),
                "phase": applied.get("phase"),
            }


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    return {name: kind for name, kind, *_ in con.execute(f"DESCRIBE {table}").fetchall()}


def _spec(types: dict[str, str]) -> str:
    return "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in types.items()) + "}"


def _write_rows(rows: Iterable[dict[str, Any]], path: Path) -> int:
    count = 0
    with path.open("wb") as out:
        for row in rows:
            out.write(orjson.dumps(row, option=orjson.OPT_SORT_KEYS) + b"\n")
            count += 1
    return count


def _insert(
    con: duckdb.DuckDBPyConnection,
    table: str,
    rows: Iterable[dict[str, Any]],
    scratch: Path,
    columns: dict[str, str] | None = None,
) -> int:
    """Insert `rows` (dicts keyed by column name; absent keys are null) through a
    newline-delimited JSON file, which DuckDB reads far faster than row-by-row inserts."""
    types = columns or _columns(con, table)
    path = scratch / f"{table}.jsonl"
    count = _write_rows(rows, path)
    if count:
        target = ", ".join(types)
        con.execute(
            f"INSERT INTO {table} ({target}) SELECT {target} FROM read_json(?, "
            f"format='newline_delimited', columns={_spec(types)})",
            [str(path)],
        )
    return count


def _parquet(run: Path, name: str | None) -> Path:
    path = run / "scores" / (name or "")
    if not path.is_file():
        raise BadInput(f"{path}: missing (score the run again)")
    return path


def _load_rows(con: duckdb.DuckDBPyConnection, run_id: str, table: str, path: Path) -> None:
    """Insert the rows of a scores/ Parquet file, read in place, in the file's order."""
    names = [name for name in _columns(con, table) if name != "run_id"]
    try:
        con.execute(
            f"INSERT INTO {table} SELECT ? AS run_id, {', '.join(names)} FROM read_parquet(?)",
            [run_id, str(path)],
        )
    except duckdb.Error as error:
        if machine_refused(error):
            raise
        raise BadInput(f"{path}: unreadable ({' '.join(str(error).split())})") from None


def _load_judges(con: duckdb.DuckDBPyConnection, run_id: str, run: Path) -> None:
    """judge_labels: the labels of every judge that finished labelling the run
    (RUN/judge/<judge_id>/labels.jsonl), judges in name order, claims in run order."""
    folder = run / "judge"
    if not folder.is_dir():
        return
    table = _columns(con, "judge_labels")
    own = {"run_id", "judge_id", "judge", "model", "simulator"}
    read = {name: kind for name, kind in table.items() if name not in own}
    for place in sorted(folder.iterdir()):
        labels = place / "labels.jsonl"
        if not (place.is_dir() and labels.is_file()):
            continue
        about = read_json(place / "judge.json", "run")
        if not isinstance(about, dict) or about.get("status") != "complete":
            continue  # a verify still under way (or killed): its labels are not whole
        try:
            con.execute(
                "INSERT INTO judge_labels SELECT ?, ?, ?, ?, ?, "
                f"{', '.join(read)} FROM read_json(?, format='newline_delimited', "
                f"columns={_spec(read)})",
                [
                    run_id,
                    place.name,
                    about.get("judge"),
                    about.get("model"),
                    bool(about.get("simulator")),
                    str(labels),
                ],
            )
        except duckdb.Error as error:
            raise BadInput(f"{labels}: unreadable ({' '.join(str(error).split())})") from None


def load_run(run: Path, packets_dir: Path) -> Path:
    """Write ``RUN/results.duckdb`` from the run's files and its packets; return its path."""
    info = read_run(run)
    run_id = info.run_id or run.resolve().name
    packets = find_packets(packets_dir)
    selected = listed_documents(info, run, packets)
    provenance.verify(info, run, selected)
    scored_against = orjson.dumps(
        provenance.recorded(info, run), option=orjson.OPT_SORT_KEYS
    ).decode()
    excluded = _excluded(run)
    target = run / DB_NAME
    if target.is_dir():
        raise BadInput(f"{target}: is a folder, not a results database")
    # A scoring killed here leaves its scratch folder; it is removed the next time.
    remove_left_behind(run)
    try:
        _build(run, run_id, info, selected, scored_against, excluded, target)
    except (OSError, duckdb.Error) as error:
        # A full disk: the half-built database is gone with its scratch folder, and the
        # scores it would describe are complete on their own (no results.duckdb claims them).
        if machine_refused(error):
            raise refused_write(target, error) from None
        raise
    return target


def _build(
    run: Path,
    run_id: str,
    info: RunInfo,
    selected: list[tuple[Packet, DocInfo]],
    scored_against: str,
    excluded: dict[str, Any],
    target: Path,
) -> None:
    """Build results.duckdb in a scratch folder of the run, then rename it into place."""
    with tempfile.TemporaryDirectory(prefix=f".results-{os.getpid()}-", dir=run) as scratch_dir:
        scratch = Path(scratch_dir)
        building = scratch / DB_NAME
        con = stopping.watch(duckdb.connect(str(building)))
        try:
            # One thread: each thread of DuckDB keeps its own buffers for the Parquet it reads,
            # so with more threads the load's memory grows faster with the run (see
            # docs/measurements.md#the-results-loads-threads).
            con.execute(
                f"SET threads = 1; SET memory_limit = '{MEMORY_LIMIT}'; "
                f"SET temp_directory = '{scratch / 'spill'}'"
            )
            con.execute(ddl())
            con.execute(
                "INSERT INTO meta VALUES ('schema_version', ?), ('run_id', ?), ('provenance', ?), "
                "('invalid_policy', ?), ('records', ?)",
                [SCHEMA_VERSION, run_id, scored_against, excluded["policy"], records_digest(run)],
            )
            _insert(
                con, "runs", [_run_row(run_id, info, len(selected), excluded["policy"])], scratch
            )
            _load_documents(
                con,
                run,
                _document_rows(run_id, run, selected, excluded),
                scratch,
                keys=excluded["policy"] == "salvage",
            )
            _load_flags(con, run_id, run)
            _insert(con, "patterns", _pattern_rows(run_id, selected), scratch)
            _load_rows(con, run_id, "claims", _parquet(run, CLAIMS.file))
            _load_rows(con, run_id, "fields", _parquet(run, FIELDS.file))
            _load_judges(con, run_id, run)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(building, target)
