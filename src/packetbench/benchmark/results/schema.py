"""The results tables, each declared once: the DDL of ``RUN/results.duckdb``, the columns of
the Parquet files of ``RUN/scores/`` and the rows the scorer writes all derive from here.

A row the scorer writes is a `TypedDict` whose every key carries its DuckDB type and note
(`Sql`): `ClaimRow` (scores/claims.parquet, the claims table), `FieldRow` (fields) and
`DocumentRow` (documents.parquet: each scored document's counts). The scorer builds its rows
as these (mypy holds every key present, with its type), the Parquet files take their columns
from them, and each table is its row's columns with what the loader adds: `run_id`, columns
read from the run's other files (`LOADED`: run.json, the extraction records, manifests, a
judge's labels) and columns computed by SQL (`DERIVED`: a claim's `value_class` as its
Parquet file is written, a document's `claims` as it is loaded). Adding a per-claim fact is
adding one key to `ClaimRow`, setting it in the scorer, and using it in the views
(`benchmark/metrics/*.sql`) that need it.

`SCHEMA_VERSION` is written into every database; a reader refuses a database of another
version ("score the run again"). Raise it with any change to a table.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, TypedDict

# 2: meta holds the documents the run was scored against; 3: fields and claims carry the
# patterns that touched them; 4: documents count keys (emitted, invented) and say which were
# salvaged, meta holds the invalid-output policy; 5: claims carry their citation verdict;
# 6: meta holds the digest of the extraction records the run was scored from (`records`);
# 7: claims carry their output path (`source`), and judge_labels holds `packetbench verify`'s
# labels; 8: claims carry the answer's confidence (`extract --confidence`); 9: claims carry
# their guess outcome and fields whether they are illegible (docs/patterns.md rule 3b); 10:
# claims and fields say whether their value is below the run's delivered resolution
# (docs/resolution.md).
SCHEMA_VERSION = "10"

# The kinds whose values are numbers (truth.normalize.NUMERIC_KINDS; a test holds them equal).
NUMERIC_KINDS = ("money", "number", "percent")

Source = Literal["row", "loaded", "derived"]
ROW: Source = "row"  # the scorer's rows (read back from the Parquet file)
LOADED: Source = "loaded"  # what the loader reads from the run's other files
DERIVED: Source = "derived"  # SQL over the other columns


@dataclass(frozen=True)
class Sql:
    """The DuckDB type of a column, and the note its DDL carries."""

    type: str
    note: str = ""


VARCHAR, BOOLEAN, DOUBLE, JSON = Sql("VARCHAR"), Sql("BOOLEAN"), Sql("DOUBLE"), Sql("JSON")
COUNT = Sql("INTEGER")
PATTERNS = Sql("VARCHAR[]", "ids of the presentation patterns that touched this path")


# -- the rows the scorer writes -----------------------------------------------------------------


class ClaimRow(TypedDict):
    """One emitted value (scores/claims.parquet)."""

    packet_id: Annotated[str, VARCHAR]
    doc_id: Annotated[str, VARCHAR]
    doc_type: Annotated[str, VARCHAR]
    tier: Annotated[str, VARCHAR]
    path: Annotated[str, VARCHAR]
    kind: Annotated[str, VARCHAR]
    value: Annotated[Any, JSON]
    truth: Annotated[Any, JSON]
    field_class: Annotated[str, VARCHAR]
    grounded_in: Annotated[str, Sql("VARCHAR", "document | packet | none")]
    hallucinated: Annotated[bool | None, Sql("BOOLEAN", "null when the value is not checked")]
    hallucinated_document: Annotated[bool | None, BOOLEAN]
    verdict: Annotated[str, VARCHAR]
    patterns: Annotated[list[str], PATTERNS]
    citation: Annotated[
        str | None,
        Sql(
            "VARCHAR",
            "uncited | wrong_place | right_page | right_box; NULL: the run asked for no "
            "citations (extract --cite)",
        ),
    ]
    source: Annotated[
        str,
        Sql(
            "VARCHAR",
            "where the output holds the value (its own list positions): the claim as "
            "`packetbench verify` names it",
        ),
    ]
    confidence: Annotated[
        float | None,
        Sql(
            "DOUBLE",
            "the answer's 0-1 confidence in the value (extract --confidence); NULL: none "
            "asked for, none given or unusable",
        ),
    ]
    guess: Annotated[
        str | None,
        Sql(
            "VARCHAR",
            "guess_right | guess_grounded | guess_wrong: a value emitted where the page is "
            "illegible or below the delivered resolution (never checked: hallucinated is "
            "NULL); NULL for every other claim",
        ),
    ]
    below_resolution: Annotated[
        bool,
        Sql(
            "BOOLEAN",
            "a guess where the page, as the run delivered it, does not show the value "
            "(docs/resolution.md); false for every other claim",
        ),
    ]


class FieldRow(TypedDict):
    """One leaf of a scored document's truth (scores/fields.parquet)."""

    packet_id: Annotated[str, VARCHAR]
    doc_id: Annotated[str, VARCHAR]
    path: Annotated[str, VARCHAR]
    kind: Annotated[str, VARCHAR]
    field_class: Annotated[str, Sql("VARCHAR", "table (inside a list) | form")]
    populated: Annotated[bool, Sql("BOOLEAN", "the truth holds a value here")]
    outcome: Annotated[
        str,
        Sql("VARCHAR", "correct | wrong | omitted (populated); abstained | answered (null)"),
    ]
    patterns: Annotated[list[str], PATTERNS]
    illegible: Annotated[
        bool,
        Sql(
            "BOOLEAN",
            "the page shows this value only past reading (field truth `illegible`; the truth "
            "is null: abstention expected)",
        ),
    ]
    below_resolution: Annotated[
        bool,
        Sql(
            "BOOLEAN",
            "the value is legible in the file but not at the run's delivered resolution "
            "(run.json delivery; docs/resolution.md): scored as null, abstention expected",
        ),
    ]


class Flag(TypedDict):
    rule: str
    path: str
    kind: str
    stated: float | None
    expected: float | None


FLAGS = Sql("STRUCT(rule VARCHAR, path VARCHAR, kind VARCHAR, stated DOUBLE, expected DOUBLE)[]")


class DocumentRow(TypedDict):
    """One scored document's counts and flags (scores/documents.parquet), in the file's order.

    With `--invalid salvage` it counts the document's keys too (the optional keys); a run
    scored with `--invalid exclude`, the default, writes none of them.
    """

    packet_id: Annotated[str, VARCHAR]
    doc_id: Annotated[str, VARCHAR]
    tier: Annotated[str, VARCHAR]
    doc_type: Annotated[str, VARCHAR]
    gt_fields: Annotated[int, COUNT]
    correct: Annotated[int, COUNT]
    wrong: Annotated[int, COUNT]
    omitted: Annotated[int, COUNT]
    gt_null_fields: Annotated[int, COUNT]
    abstained: Annotated[int, COUNT]
    answered: Annotated[int, COUNT]
    invented_records: Annotated[int, COUNT]
    dropped_records: Annotated[int, COUNT]
    numbers_checked: Annotated[int, COUNT]
    numbers_hallucinated: Annotated[int, Sql("INTEGER", "packet universe")]
    numbers_hallucinated_document: Annotated[int, Sql("INTEGER", "document universe")]
    strings_checked: Annotated[int, COUNT]
    strings_hallucinated: Annotated[int, Sql("INTEGER", "packet universe")]
    strings_hallucinated_document: Annotated[int, Sql("INTEGER", "document universe")]
    supported: Annotated[int, COUNT]
    contradicted: Annotated[int, COUNT]
    stale: Annotated[int, COUNT]
    overreach: Annotated[int, COUNT]
    unlinked: Annotated[int, COUNT]
    consistency_checks: Annotated[int, COUNT]
    consistency_passed: Annotated[int, COUNT]
    consistency_failed: Annotated[int, COUNT]
    consistency_skipped: Annotated[int, COUNT]
    consistency_flags: Annotated[list[Flag], FLAGS]
    keys_emitted: NotRequired[
        Annotated[int, Sql("INTEGER", "keys the output wrote where its schema describes an object")]
    ]
    invented_keys: NotRequired[Annotated[int, Sql("INTEGER", "of them, keys its schema lacks")]]
    unfit_leaves: NotRequired[
        Annotated[int, Sql("INTEGER", "leaves of the wrong type or outside their code list")]
    ]
    salvaged: NotRequired[
        Annotated[
            bool,
            Sql("BOOLEAN", "an invalid output scored on the leaves that fit (--invalid salvage)"),
        ]
    ]


# -- tables -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    name: str
    sql: Sql
    source: Source = ROW
    expression: str | None = None  # a derived column's SQL
    at_file: bool = False  # derived as the Parquet file is written (else as it is loaded)
    optional: bool = False  # a row key written only when asked (documents' keys)

    @property
    def type(self) -> str:
        return self.sql.type


def row_columns(row: type) -> tuple[Column, ...]:
    """The columns of a row type, in its keys' order, from their `Sql` annotations."""
    hints = typing.get_type_hints(row, include_extras=True)
    found = []
    for name, hint in hints.items():
        # NotRequired keys are written only when asked (__optional_keys__ misses them under
        # `from __future__ import annotations` before Python 3.12)
        optional = name in getattr(row, "__optional_keys__", ()) or (
            typing.get_origin(hint) is NotRequired
        )
        if typing.get_origin(hint) in (NotRequired, typing.Required):
            hint = typing.get_args(hint)[0]
        sql = next((a for a in getattr(hint, "__metadata__", ()) if isinstance(a, Sql)), None)
        if sql is None:
            raise TypeError(f"{row.__name__}.{name}: no Sql annotation")
        found.append(Column(name, sql, ROW, optional=optional))
    return tuple(found)


def loaded(name: str, sql: Sql = VARCHAR) -> Column:
    return Column(name, sql, LOADED)


RUN_ID = loaded("run_id")


@dataclass(frozen=True)
class Table:
    name: str
    about: str  # the DDL's comment above the table
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()  # the primary key
    row: type | None = None  # the scorer's row of the table's Parquet file
    file: str | None = None  # that file's name in scores/

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def of(self, *sources: Source) -> dict[str, str]:
        """name -> DuckDB type of the table's columns from `sources`, in the table's order."""
        return {c.name: c.type for c in self.columns if c.source in sources}

    def row_types(self, optional: bool = False) -> dict[str, str]:
        """name -> DuckDB type of the keys of the scorer's rows, in their order (the optional
        ones with `optional`)."""
        assert self.row is not None, self.name
        return {c.name: c.type for c in row_columns(self.row) if optional or not c.optional}

    def file_select(self, optional: bool = False) -> str:
        """The SELECT list writing the table's Parquet file from its rows: the row's keys in
        the row's order, each column the table derives as the file is written (`at_file`)
        computed right after the column it follows in the table."""
        after: dict[str, list[Column]] = {}
        for before, column in zip(self.columns, self.columns[1:], strict=False):
            if column.source == DERIVED and column.at_file:
                after.setdefault(before.name, []).append(column)
        parts = []
        for name in self.row_types(optional):
            parts.append(name)
            parts += [f"{c.expression} AS {c.name}" for c in after.get(name, [])]
        return ", ".join(parts)

    def ddl(self) -> str:
        lines = [f"-- {line}" for line in self.about.splitlines()]
        lines.append(f"CREATE TABLE {self.name} (")
        parts = [(f"{c.name} {c.type}", c.sql.note) for c in self.columns]
        if self.key:
            parts.append((f"PRIMARY KEY ({', '.join(self.key)})", ""))
        for index, (text, note) in enumerate(parts):
            comma = "," if index < len(parts) - 1 else ""
            lines.append(f"    {text}{comma}" + (f"  -- {note}" if note else ""))
        lines.append(");")
        return "\n".join(lines)


def table_of_row(
    name: str,
    about: str,
    row: type,
    file: str,
    derived: dict[str, tuple[str, Column]] | None = None,
) -> Table:
    """A table holding `row`'s columns after `run_id`, each derived column placed after the
    row column it names."""
    columns: list[Column] = [RUN_ID]
    for column in row_columns(row):
        columns.append(column)
        for after, extra in (derived or {}).values():
            if after == column.name:
                columns.append(extra)
    return Table(name, about, tuple(columns), row=row, file=file)


META = Table(
    "meta",
    "The results database of one run (RUN/results.duckdb), written by `packetbench score`.\n"
    "Every table carries run_id so the tables of many runs can be stacked "
    "(benchmark.results.query).",
    (Column("key", VARCHAR, LOADED), Column("value", VARCHAR, LOADED)),
    key=("key",),
)

RUNS = Table(
    "runs",
    "One row: the run's configuration, as run.json records it.",
    (
        RUN_ID,
        loaded("provider"),
        loaded("model"),
        loaded("simulator", BOOLEAN),
        loaded("label"),
        loaded("parameters", Sql("JSON", "the provider's parameters (sim: profile and seed)")),
        loaded("config", Sql("JSON", "run.json without its packets list")),
        loaded("toolkit_version"),
        loaded("git_commit"),
        loaded("git_dirty", BOOLEAN),
        loaded("packets_dir"),
        loaded("status", Sql("VARCHAR", "running | complete (as run.json says)")),
        loaded("packets", COUNT),
        loaded("documents_expected", COUNT),
        loaded(
            "invalid_policy",
            Sql("VARCHAR", "exclude | salvage: what scoring did with schema-invalid outputs"),
        ),
    ),
    key=("run_id",),
)

VERDICTS = ("supported", "contradicted", "stale", "overreach", "unlinked")


def _documents() -> Table:
    """The documents table: each document the run covers, from the run's listing and its
    extraction record, joined when scored with its row of documents.parquet."""
    counts = {c.name: c for c in row_columns(DocumentRow)}

    def counted(*names: str) -> list[Column]:
        return [counts[name] for name in names]

    columns = [
        RUN_ID,
        loaded("packet_id"),
        loaded("doc_id"),
        loaded("doc_type"),
        loaded("schema_name"),
        loaded("tier"),
        loaded("format"),
        loaded("superseded_by"),
        loaded("status", Sql("VARCHAR", "scored | missing | error | invalid")),
        loaded(
            "record_status", Sql("VARCHAR", "the extraction record's status (null when missing)")
        ),
        loaded("reason", Sql("VARCHAR", "why the document was excluded (null when scored)")),
        loaded("attempts", COUNT),
        loaded("latency_s", DOUBLE),
        loaded("input_tokens", Sql("BIGINT")),
        loaded("output_tokens", Sql("BIGINT")),
        loaded("reasoning_tokens", Sql("BIGINT")),
        loaded("cost_usd", DOUBLE),
        loaded("finish_reason"),
        *counted(
            "gt_fields",
            "correct",
            "wrong",
            "omitted",
            "gt_null_fields",
            "abstained",
            "answered",
            "invented_records",
            "dropped_records",
            "numbers_checked",
            "strings_checked",
            "numbers_hallucinated",
            "strings_hallucinated",
            "numbers_hallucinated_document",
            "strings_hallucinated_document",
        ),
        Column("claims", COUNT, DERIVED, " + ".join(VERDICTS)),
        *counted(*VERDICTS),
        *counted(
            "consistency_checks", "consistency_passed", "consistency_failed", "consistency_skipped"
        ),
        *counted("keys_emitted", "invented_keys", "unfit_leaves", "salvaged"),
    ]
    return Table(
        "documents",
        "One row per document the run covers, scored or not.",
        tuple(columns),
        key=("run_id", "packet_id", "doc_id"),
        row=DocumentRow,
        file="documents.parquet",
    )


DOCUMENTS = _documents()

FIELDS = table_of_row(
    "fields",
    "One row per leaf of a scored document's truth (the field view, recall side).",
    FieldRow,
    "fields.parquet",
)

CLAIMS = table_of_row(
    "claims",
    "One row per emitted value (scores/claims.parquet).",
    ClaimRow,
    "claims.parquet",
    derived={
        "value_class": (
            "kind",
            Column(
                "value_class",
                Sql("VARCHAR", "numbers | strings (how the hallucination rates split values)"),
                DERIVED,
                "CASE WHEN kind IN ("
                + ", ".join(f"'{k}'" for k in NUMERIC_KINDS)
                + ") THEN 'numbers' ELSE 'strings' END",
                at_file=True,
            ),
        )
    },
)

CONSISTENCY_FLAGS = Table(
    "consistency_flags",
    "Internal-consistency flags (scores/documents.parquet: consistency_flags).",
    (
        RUN_ID,
        loaded("packet_id"),
        loaded("doc_id"),
        loaded("rule"),
        loaded("path"),
        loaded("kind", Sql("VARCHAR", "of the checked leaf: money, number, ...")),
        loaded("stated", DOUBLE),
        loaded("expected", DOUBLE),
    ),
)

PATTERN_USES = Table(
    "patterns",
    "Presentation patterns applied to each document (manifest_<doc_id>.json).",
    (
        RUN_ID,
        loaded("packet_id"),
        loaded("doc_id"),
        loaded("pattern_id"),
        loaded("name"),
        loaded("phase"),
    ),
)

JUDGE_LABELS = Table(
    "judge_labels",
    "`packetbench verify`'s label of every claim (RUN/judge/<judge_id>/labels.jsonl), one row "
    "per\nclaim and judge; empty until a judge labels the run.",
    (
        RUN_ID,
        loaded("judge_id", Sql("VARCHAR", "the folder under RUN/judge/: <judge>-<model>")),
        loaded("judge"),
        loaded("model"),
        loaded("simulator", BOOLEAN),
        loaded("packet_id"),
        loaded("doc_id"),
        loaded("doc_type"),
        loaded("tier"),
        loaded("path", Sql("VARCHAR", "the claim's output path (claims.source)")),
        loaded("kind"),
        loaded("value", JSON),
        loaded(
            "verdict",
            Sql("VARCHAR", "the judge's: supported | contradicted | unlinked | overreach | stale"),
        ),
        loaded("page", Sql("INTEGER", "the span the judge used (null: none)")),
        loaded("quote"),
    ),
)

TABLES = (
    META,
    RUNS,
    DOCUMENTS,
    FIELDS,
    CLAIMS,
    CONSISTENCY_FLAGS,
    PATTERN_USES,
    JUDGE_LABELS,
)


def ddl() -> str:
    """The DDL of a run's results database (what `packetbench score` creates)."""
    return "\n\n".join(table.ddl() for table in TABLES) + "\n"
