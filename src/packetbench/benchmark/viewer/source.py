"""One run as the viewer reads it: checked like `score` checks it, then paged through.

Opening a run refuses what `score` refuses (a folder that is not a run, packets missing or
other than those the run was extracted from). A scored run is read from its
``results.duckdb`` (a read-only connection; every list is a query with a LIMIT, so no run is
ever held in memory); a run not scored yet, or still being extracted, is read from what
exists: its listing in run.json and the records written so far, each document scored when
it is opened (`benchmark.viewer.document`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import orjson

from packetbench.benchmark import provenance
from packetbench.benchmark.records import read_record, record_path
from packetbench.benchmark.results.database import DB_NAME, check_records
from packetbench.benchmark.results.schema import SCHEMA_VERSION
from packetbench.benchmark.run_folder import listed_documents
from packetbench.benchmark.runs import RunInfo, read_run
from packetbench.core import stopping
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.memo import HashMemo
from packetbench.truth.packets import DocInfo, Packet, find_packets

# Filters of the document list: each is one column equal to the value given.
EQUAL_FILTERS = ("tier", "doc_type", "format", "status")
# `verdict=X`: documents with at least one claim of verdict X (or one hallucinated claim).
VERDICTS = ("supported", "contradicted", "stale", "overreach", "unlinked", "hallucinated")
# `outcome=X`: documents with at least one field of outcome X (benchmark.viewer.document).
OUTCOMES = ("correct", "wrong", "hallucinated", "stale", "guessed", "omitted", "abstained")
_OUTCOME_COLUMN = {
    "correct": "correct",
    "wrong": "wrong",
    "hallucinated": "hallucinated",
    "stale": "stale",
    "guessed": "answered",
    "omitted": "omitted",
    "abstained": "abstained",
}
MAX_PAGE = 500  # documents per page of the list
MAX_OFFSET = 1_000_000_000  # beyond any run's documents, and within what SQL's OFFSET takes
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")

# The list's columns, worst first: the share of checked values hallucinated, then of truth
# fields wrong or omitted; documents left out of the scores after every scored one.
_LIST_SQL = """
SELECT d.packet_id, d.doc_id, d.doc_type, d.tier, d.format, d.status, d.reason,
       d.gt_fields, d.correct, d.wrong, d.omitted, d.abstained, d.answered,
       d.claims, d.supported, d.contradicted, d.stale, d.overreach, d.unlinked,
       d.numbers_checked + d.strings_checked AS checked,
       d.numbers_hallucinated + d.strings_hallucinated AS hallucinated,
       coalesce(p.patterns, []) AS patterns
FROM documents AS d
LEFT JOIN (SELECT packet_id, doc_id, list(DISTINCT pattern_id ORDER BY pattern_id) AS patterns
           FROM patterns GROUP BY packet_id, doc_id) AS p USING (packet_id, doc_id)
"""
_ORDER = """
ORDER BY (status = 'scored') DESC,
         CASE WHEN checked > 0 THEN hallucinated / checked END DESC NULLS LAST,
         CASE WHEN gt_fields > 0 THEN (wrong + omitted) / gt_fields END DESC NULLS LAST,
         packet_id, doc_id
"""


def safe_id(text: str, what: str, where: Path) -> str:
    """`text` when it can name a file (a packet or document id read from a run), else
    BadInput: ids from files never become path parts unchecked."""
    if not is_safe(text):
        raise BadInput(f"{where}: {what} {text[:60]!r} cannot name a file")
    return text


def is_safe(text: str) -> bool:
    return bool(SAFE_ID.match(text)) and ".." not in text


@dataclass(frozen=True)
class Query:
    """What the document list shows: filters, and which page of the result."""

    filters: dict[str, str] = field(default_factory=dict)
    offset: int = 0
    limit: int = 100

    @classmethod
    def parse(cls, params: dict[str, str]) -> Query:
        """A Query from request parameters; UsageError for an unknown filter or value."""
        filters: dict[str, str] = {}
        for name, value in params.items():
            if name in ("offset", "limit") or not value:
                continue
            if name not in (*EQUAL_FILTERS, "pattern", "verdict", "outcome"):
                raise UsageError(f"unknown filter {name!r}")
            if name == "verdict" and value not in VERDICTS:
                raise UsageError(f"verdict must be one of {', '.join(VERDICTS)}")
            if name == "outcome" and value not in OUTCOMES:
                raise UsageError(f"outcome must be one of {', '.join(OUTCOMES)}")
            filters[name] = value
        try:
            offset = int(params.get("offset") or 0)
            limit = int(params.get("limit") or 100)
        except ValueError:
            raise UsageError("offset and limit must be whole numbers") from None
        if not 0 <= offset <= MAX_OFFSET or not 1 <= limit <= MAX_PAGE:
            raise UsageError(f"offset must be 0 to {MAX_OFFSET:,} and limit 1 to {MAX_PAGE}")
        return cls(filters, offset, limit)


def _where(filters: dict[str, str]) -> tuple[str, list[Any]]:
    """The WHERE clause of a list query: column names from fixed tables, values as
    parameters (nothing a request sends becomes SQL text)."""
    clauses: list[str] = []
    values: list[Any] = []
    for name in EQUAL_FILTERS:
        if name in filters:
            clauses.append(f"{name} = ?")
            values.append(filters[name])
    if "pattern" in filters:
        clauses.append("list_contains(patterns, ?)")
        values.append(filters["pattern"])
    if "verdict" in filters:
        clauses.append(f"{filters['verdict'] if filters['verdict'] in VERDICTS else 'NULL'} > 0")
    if "outcome" in filters:
        clauses.append(f"{_OUTCOME_COLUMN[filters['outcome']]} > 0")
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", values


@dataclass
class Listing:
    """A page of the document list, the number of documents that match, and the values
    each filter can take."""

    rows: list[dict[str, Any]]
    total: int
    facets: dict[str, list[str]]
    scored: bool


@dataclass
class RunSource:
    """An opened run: its record, its documents in run order, and its results database."""

    path: Path
    name: str
    info: RunInfo
    documents: list[tuple[Packet, DocInfo]]
    hashes: dict[str, dict[str, str]]  # "packet_id/doc_id" -> sha256 of file and truth files
    db: duckdb.DuckDBPyConnection | None
    recorded: dict[str, dict[str, Any]] = field(default_factory=dict)  # run.json's, by packet
    # The results database as it was opened (path, size, modification time): a run scored
    # again is another database, and the viewer's cached document indexes name it.
    stamp: list[Any] = field(default_factory=list)
    memo: HashMemo | None = None  # what is known of its files, read once (`core.memo`)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _facets: dict[str, list[str]] | None = None
    _index: dict[str, tuple[Packet, DocInfo]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._index = {f"{p.packet_id}/{d.doc_id}": (p, d) for p, d in self.documents}

    @property
    def scored(self) -> bool:
        return self.db is not None

    def document(self, packet_id: str, doc_id: str) -> tuple[Packet, DocInfo]:
        """A document of this run, or UsageError: only listed documents are ever opened."""
        found = self._index.get(f"{packet_id}/{doc_id}")
        if found is None:
            raise UsageError(f"{self.name}: no document {packet_id}/{doc_id}")
        return found

    def outcomes_from(self, packet: Packet, doc: DocInfo) -> list[Any]:
        """What the outcomes of a document come from: the results database as opened, or
        the document's extraction record (by its sha256) in a run not scored yet."""
        if self.db is not None:
            return ["results", *self.stamp]
        path = record_path(self.path, packet.packet_id, doc.doc_id)
        if not path.is_file():
            return ["pending"]
        return ["record", provenance.sha256(path)]

    def query(self, sql: str, values: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Rows of `sql` over the results database (one query at a time)."""
        assert self.db is not None
        with self._lock:
            cursor = self.db.execute(sql, list(values))
            columns = [d[0] for d in cursor.description or []]
            return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]

    def facets(self) -> dict[str, list[str]]:
        """The values each filter of the list can take in this run."""
        if self._facets is None:
            found: dict[str, list[str]] = {}
            found["tier"] = sorted({p.tier for p, _ in self.documents})
            found["doc_type"] = sorted({d.doc_type for _, d in self.documents})
            found["format"] = sorted({d.format for _, d in self.documents})
            found["status"] = (
                [
                    r["status"]
                    for r in self.query("SELECT DISTINCT status FROM documents ORDER BY status")
                ]
                if self.db is not None
                else ["extracted", "pending"]
            )
            found["pattern"] = (
                [
                    r["pattern_id"]
                    for r in self.query(
                        "SELECT DISTINCT pattern_id FROM patterns ORDER BY pattern_id"
                    )
                ]
                if self.db is not None
                else []
            )
            self._facets = found
        return self._facets

    def listing(self, query: Query) -> Listing:
        """One page of the documents that pass `query`'s filters, worst first."""
        if self.db is not None:
            where, values = _where(query.filters)
            base = f"SELECT * FROM ({_LIST_SQL}){where}"
            total = self.query(f"SELECT COUNT(*) AS n FROM ({base})", values)[0]["n"]
            rows = self.query(
                f"{base} {_ORDER} LIMIT ? OFFSET ?", [*values, query.limit, query.offset]
            )
            return Listing(rows, int(total), self.facets(), True)
        return self._unscored_listing(query)

    def all_rows(self) -> list[dict[str, Any]]:
        """Every document's list row, worst first (the static export's whole list)."""
        if self.db is not None:
            return self.query(f"SELECT * FROM ({_LIST_SQL}) {_ORDER}")
        rows: list[dict[str, Any]] = []
        offset = 0
        while True:
            page = self._unscored_listing(Query({}, offset, MAX_PAGE))
            rows += page.rows
            offset += MAX_PAGE
            if offset >= page.total:
                return rows

    def _unscored_listing(self, query: Query) -> Listing:
        """A run without scores: its documents in run order, a record's status read only for
        the documents of the page shown."""
        unsupported = set(query.filters) - {"tier", "doc_type", "format", "status"}
        if unsupported:
            raise UsageError(
                f"{self.name} is not scored yet: it can be filtered by tier, document "
                "type, format and status only"
            )
        matching: list[tuple[Packet, DocInfo, bool]] = []
        for packet, doc in self.documents:
            values = {"tier": packet.tier, "doc_type": doc.doc_type, "format": doc.format}
            if any(values.get(k, v) != v for k, v in query.filters.items() if k != "status"):
                continue
            exists = record_path(self.path, packet.packet_id, doc.doc_id).is_file()
            wanted = query.filters.get("status")
            if wanted and wanted != ("extracted" if exists else "pending"):
                continue
            matching.append((packet, doc, exists))
        rows: list[dict[str, Any]] = []
        for packet, doc, exists in matching[query.offset : query.offset + query.limit]:
            row: dict[str, Any] = {
                "packet_id": packet.packet_id,
                "doc_id": doc.doc_id,
                "doc_type": doc.doc_type,
                "tier": packet.tier,
                "format": doc.format,
                "status": "extracted" if exists else "pending",
                "reason": None if exists else "no extraction record yet",
                "patterns": [],
            }
            if exists:
                record = read_record(record_path(self.path, packet.packet_id, doc.doc_id))
                if record.status != "ok":
                    row["reason"] = f"{record.status}: {record.error}"
            rows.append(row)
        return Listing(rows, len(matching), self.facets(), False)

    def close(self) -> None:
        if self.db is not None:
            self.db.close()


def packets_folder(run: Path, info: RunInfo, packets: Path | None) -> Path:
    """The packets a run is read with: `packets`, else the folder run.json names (a relative
    one, as `import nightmare` writes, from the run's folder)."""
    if packets is not None:
        return packets
    recorded = info.packets_dir
    if recorded and (run / recorded).is_dir():
        return run / recorded
    raise UsageError(
        f"{run / 'run.json'}: its packets folder {recorded!r} is not there; give --packets DIR"
    )


def _results(
    run: Path, listed: dict[str, dict[str, Any]], memo: HashMemo | None = None
) -> duckdb.DuckDBPyConnection | None:
    """A read-only connection to the run's results database, or None when it is not scored;
    BadInput when the database is unreadable, of another version, or was scored against
    other documents than run.json lists (the same checks as `packetbench sql`)."""
    db = run / DB_NAME
    if not db.exists():
        return None
    if not db.is_file():
        raise BadInput(f"{db}: is a folder, not a results database")
    try:
        con = stopping.watch(duckdb.connect(str(db), read_only=True))
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    except duckdb.Error as error:
        raise BadInput(f"{db}: not a results database ({str(error).splitlines()[0]})") from None
    if meta.get("schema_version") != SCHEMA_VERSION:
        con.close()
        raise BadInput(
            f"{db}: written by another packetbench version (results schema "
            f"{meta.get('schema_version')}, expected {SCHEMA_VERSION}); score the run again"
        )
    try:
        stored = orjson.loads(str(meta.get("provenance")))
    except orjson.JSONDecodeError:
        stored = None
    differs = (
        provenance.same_listing(listed, stored) if isinstance(stored, dict) else "(not recorded)"
    )
    if differs is not None:
        con.close()
        raise BadInput(
            f"{db}: scored against other documents than {run / 'run.json'} lists "
            f"(first {differs}); score the run again"
        )
    try:
        check_records(db, run, meta, memo)
    except BadInput:
        con.close()
        raise
    return con


def open_run(
    run: Path,
    packets: Path | None = None,
    name: str | None = None,
    check_files: bool = True,
    cache: Path | None = None,
) -> RunSource:
    """Open `run` for viewing, after the checks `score` makes of a run and its packets.

    Without `check_files` the documents' files are not hashed here (the server checks each
    document when it is opened and the rest in the background: `benchmark.viewer.checks`);
    the run, its packets folder, its listing, each packet's packet_truth.json (one small file
    a packet: a packet regenerated or of another corpus differs there) and its results
    database are checked all the same.

    With `cache` (the viewer's), the sha256 of each record and packet_truth.json and each
    packet's listing are kept there, and a file whose inode says it is unchanged is not read
    again (`core.memo`): a run of 1,000 hard packets opens in a fraction of the time."""
    if not run.is_dir():
        raise BadInput(f"{run}: not a folder (a run folder holds run.json)")
    info = read_run(run)
    folder = packets_folder(run, info, packets)
    memo = HashMemo.under(cache, run) if cache is not None else None
    selected = listed_documents(info, run, find_packets(folder, memo))
    hint = "view the run with the packets it was extracted from"
    if check_files:
        provenance.verify(info, run, selected, hint=hint)
    listed = provenance.recorded(info, run)
    if not check_files:
        # Each packet's packet_truth.json all the same (one small file a packet): packets
        # regenerated with another seed or version, or of another corpus, are refused here.
        used = {p.packet_id: p for p, _ in selected}
        provenance.verify_packets(listed, run, used.values(), hint=hint, memo=memo)
    for packet, doc in selected:
        if not (is_safe(packet.packet_id) and is_safe(doc.doc_id)):
            safe_id(packet.packet_id, "packet id", packet.path / "packet_truth.json")
            safe_id(doc.doc_id, "document id", packet.path / "packet_truth.json")
    hashes = {
        f"{p.packet_id}/{d.doc_id}": listed[p.packet_id]["sha256"][d.doc_id] for p, d in selected
    }
    db = _results(run, listed, memo)
    if memo is not None:
        memo.save()
    stamp: list[Any] = []
    if db is not None:
        found = (run / DB_NAME).stat()
        stamp = [str((run / DB_NAME).resolve()), found.st_size, found.st_mtime_ns]
    return RunSource(
        run,
        name or info.run_id or run.resolve().name,
        info,
        selected,
        hashes,
        db,
        listed,
        stamp,
        memo,
    )


def open_runs(
    runs: Sequence[Path],
    packets: Path | None = None,
    check_files: bool = True,
    cache: Path | None = None,
) -> list[RunSource]:
    """Open every run; runs that share a run_id are named by the path they were given as."""
    if not runs:
        raise UsageError("give at least one run folder")
    opened: list[RunSource] = []
    try:
        for run in runs:
            opened.append(open_run(run, packets, check_files=check_files, cache=cache))
    except BaseException:
        for source in opened:
            source.close()
        raise
    names = [s.name for s in opened]
    for source, path in zip(opened, runs, strict=True):
        if names.count(source.name) > 1:
            source.name = str(path)
    if len({s.name for s in opened}) != len(opened):
        raise UsageError(f"the same run is given twice: {runs[0]}")
    return opened
