"""Load a scored run into ``RUN/results.duckdb``.

Everything comes from files: run.json, the extraction records (status, usage), the files of
``RUN/scores/`` (claims and the field view from its Parquet files, read in place), and the
packets' manifests (patterns). The database is built under a temporary name and
renamed into place, so a reader never opens half a database. Rows are inserted in a fixed
order; every metric query orders its result, so the same run always answers the same.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import orjson

from benchmark import provenance
from benchmark.errors import BadInput
from benchmark.packets import DocInfo, Packet, find_packets, read_json
from benchmark.runs import (
    listed_documents,
    read_record,
    read_run,
    record_path,
    remove_left_behind,
)
from benchmark.score.outputs import CLAIMS, FIELDS, MEMORY_LIMIT
from generator import doctypes as _doctypes  # noqa: F401  (registers document types)

DB_NAME = "results.duckdb"
# 2: meta holds the documents the run was scored against; 3: fields and claims carry the
# patterns that touched them.
SCHEMA_VERSION = "3"
TABLES_SQL = Path(__file__).with_name("tables.sql")
VERDICT_COLUMNS = ("supported", "contradicted", "stale", "overreach", "unlinked")
FIELD_COLUMNS = ("gt_fields", "correct", "wrong", "omitted", "gt_null_fields", "abstained",
                 "answered", "invented_records", "dropped_records")


def _scores(run: Path) -> dict[str, Any]:
    folder = run / "scores"
    if not (folder / "field_breakdown.json").is_file():
        raise BadInput(f"{folder}: no scores (run `packetbench score` first)")
    return {name: read_json(folder / f"{name}.json")
            for name in ("field_breakdown", "hallucination", "consistency")}


def _run_row(run_id: str, info: dict[str, Any], documents: int) -> dict[str, Any]:
    found = info.get("git")
    git: dict[str, Any] = found if isinstance(found, dict) else {}
    config = {k: v for k, v in info.items() if k != "packets"}
    return {
        "run_id": run_id,
        "provider": info.get("provider"),
        "model": info.get("model"),
        "simulator": bool(info.get("simulator", False)),
        "label": info.get("label"),
        "parameters": info.get("parameters") or {},
        "config": config,
        "toolkit_version": info.get("toolkit_version"),
        "git_commit": git.get("commit"),
        "git_dirty": git.get("dirty"),
        "packets_dir": info.get("packets_dir"),
        "status": info.get("status"),
        "packets": len(info.get("packets") or []),
        "documents_expected": documents,
    }


def _document_rows(run_id: str, run: Path, selected: list[tuple[Packet, DocInfo]],
                   scores: dict[str, Any]) -> Iterator[dict[str, Any]]:
    fields = scores["field_breakdown"]
    grounding = scores["hallucination"]
    consistency = scores["consistency"]
    excluded = fields.get("excluded", {})
    missing = set(excluded.get("missing", []))
    errors = {e["document"]: e for e in excluded.get("error", [])}
    invalid = {e["document"]: e for e in excluded.get("invalid", [])}
    for packet, doc in selected:
        key = f"{packet.packet_id}/{doc.doc_id}"
        row: dict[str, Any] = {
            "run_id": run_id, "packet_id": packet.packet_id, "doc_id": doc.doc_id,
            "doc_type": doc.doc_type, "schema_name": doc.schema, "tier": packet.tier,
            "format": doc.format, "superseded_by": doc.superseded_by,
        }
        path = record_path(run, packet.packet_id, doc.doc_id)
        if key in missing or not path.exists():
            yield {**row, "status": "missing", "reason": "no extraction record"}
            continue
        record = read_record(path)
        row.update(record_status=record.status, attempts=record.attempts,
                   latency_s=record.latency_s, finish_reason=record.finish_reason,
                   **record.usage.model_dump())
        if key in errors:
            error = errors[key]
            yield {**row, "status": "error", "reason": f"{error['status']}: {error['error']}"}
            continue
        if key in invalid:
            yield {**row, "status": "invalid", "reason": invalid[key]["reason"]}
            continue
        counts = fields["documents"].get(key)
        if counts is None:
            raise BadInput(f"{run / 'scores' / 'field_breakdown.json'}: {key} is neither "
                           "scored nor excluded (score the run again)")
        tally = grounding["documents"][key]
        verdicts = grounding["verdicts"]["documents"][key]
        checks = consistency["documents"][key]
        row.update({name: counts[name] for name in FIELD_COLUMNS})
        for kind in ("numbers", "strings"):
            row[f"{kind}_checked"] = tally["packet"][kind]["checked"]
            row[f"{kind}_hallucinated"] = tally["packet"][kind]["hallucinated"]
            row[f"{kind}_hallucinated_document"] = tally["document"][kind]["hallucinated"]
        row.update({name: verdicts[name] for name in VERDICT_COLUMNS})
        row["claims"] = sum(verdicts[name] for name in VERDICT_COLUMNS)
        row.update(consistency_checks=checks["checks"], consistency_passed=checks["passed"],
                   consistency_failed=checks["failed"], consistency_skipped=checks["skipped"])
        yield {**row, "status": "scored"}


def _flag_rows(run_id: str, consistency: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key, entry in consistency["documents"].items():
        packet_id, _, doc_id = key.partition("/")
        for flag in entry["flags"]:
            yield {"run_id": run_id, "packet_id": packet_id, "doc_id": doc_id, **flag}


def _pattern_rows(run_id: str, selected: list[tuple[Packet, DocInfo]]
                  ) -> Iterator[dict[str, Any]]:
    for packet, doc in selected:
        manifest = read_json(packet.path / f"manifest_{doc.doc_id}.json")
        for applied in manifest.get("patterns_applied") or []:
            yield {"run_id": run_id, "packet_id": packet.packet_id, "doc_id": doc.doc_id,
                   "pattern_id": str(applied.get("id")), "name": applied.get("name"),
                   "phase": applied.get("phase")}


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    return {name: kind for name, kind, *_ in con.execute(f"DESCRIBE {table}").fetchall()}


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: Iterable[dict[str, Any]],
            scratch: Path, columns: dict[str, str] | None = None) -> int:
    """Insert `rows` (dicts keyed by column name; absent keys are null) through a
    newline-delimited JSON file, which DuckDB reads far faster than row-by-row inserts."""
    types = columns or _columns(con, table)
    path = scratch / f"{table}.jsonl"
    count = 0
    with path.open("wb") as out:
        for row in rows:
            out.write(orjson.dumps(row, option=orjson.OPT_SORT_KEYS) + b"\n")
            count += 1
    if count:
        spec = "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in types.items()) + "}"
        target = ", ".join(types)
        con.execute(f"INSERT INTO {table} ({target}) SELECT {target} FROM read_json(?, "
                    f"format='newline_delimited', columns={spec})", [str(path)])
    return count


def _parquet(run: Path, name: str) -> Path:
    path = run / "scores" / name
    if not path.is_file():
        raise BadInput(f"{path}: missing (score the run again)")
    return path


def _load_rows(con: duckdb.DuckDBPyConnection, run_id: str, table: str, path: Path) -> None:
    """Insert the rows of a scores/ Parquet file, read in place, in the file's order."""
    names = [name for name in _columns(con, table) if name != "run_id"]
    try:
        con.execute(f"INSERT INTO {table} SELECT ? AS run_id, {', '.join(names)} "
                    "FROM read_parquet(?)", [run_id, str(path)])
    except duckdb.Error as error:
        raise BadInput(f"{path}: unreadable ({' '.join(str(error).split())})") from None


def load_run(run: Path, packets_dir: Path) -> Path:
    """Write ``RUN/results.duckdb`` from the run's files and its packets; return its path."""
    info = read_run(run)
    run_id = str(info.get("run_id") or run.resolve().name)
    packets = find_packets(packets_dir)
    selected = listed_documents(info, run, packets)
    provenance.verify(info, run, selected)
    scored_against = orjson.dumps(provenance.recorded(info, run),
                                  option=orjson.OPT_SORT_KEYS).decode()
    scores = _scores(run)
    target = run / DB_NAME
    if target.is_dir():
        raise BadInput(f"{target}: is a folder, not a results database")
    # A scoring killed here leaves its scratch folder; it is removed the next time.
    remove_left_behind(run)
    with tempfile.TemporaryDirectory(prefix=f".results-{os.getpid()}-", dir=run) as scratch_dir:
        scratch = Path(scratch_dir)
        building = scratch / DB_NAME
        con = duckdb.connect(str(building))
        try:
            con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'; "
                        f"SET temp_directory = '{scratch / 'spill'}'")
            con.execute(TABLES_SQL.read_text(encoding="utf-8"))
            con.execute("INSERT INTO meta VALUES ('schema_version', ?), ('run_id', ?), "
                        "('provenance', ?)", [SCHEMA_VERSION, run_id, scored_against])
            _insert(con, "runs", [_run_row(run_id, info, len(selected))], scratch)
            _insert(con, "documents", _document_rows(run_id, run, selected, scores), scratch)
            _insert(con, "consistency_flags", _flag_rows(run_id, scores["consistency"]), scratch)
            _insert(con, "patterns", _pattern_rows(run_id, selected), scratch)
            _load_rows(con, run_id, "claims", _parquet(run, CLAIMS))
            _load_rows(con, run_id, "fields", _parquet(run, FIELDS))
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(building, target)
    return target
