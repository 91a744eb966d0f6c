"""`packetbench score`: score every document of a run against its packets' truth.

Writes, under RUN/scores/ (docs/design.md §7): field_breakdown.json, hallucination.json and
consistency.json (the run's totals: overall, by tier, by document type, and the documents
left out), and documents.parquet (every scored document's own counts and consistency
flags), claims.parquet and fields.parquet (benchmark.score.outputs; claims.jsonl too when
asked). Packets are scored as separate tasks (an executor's: local processes or Ray) merged
in packet order; the totals are summed as packets come back (benchmark.score.totals), so a
run holds a few counters, not its documents. Documents whose record is missing, errored or
schema-invalid are listed with the reason and excluded from the rates, never dropped
silently; a document whose truth is not a valid instance of its schema stops scoring with
its name (a damaged packet is not scored at all). The same run scored twice gives
byte-identical files, whichever executor and however many workers: documents are visited in
packet and document order, and nothing depends on hashing or time.
"""

from __future__ import annotations

import gc
import sys
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from packetbench.benchmark import provenance
from packetbench.benchmark.delivery import Delivery, below_resolution, of_run, withheld
from packetbench.benchmark.grounding.cited import cited_place
from packetbench.benchmark.grounding.places import truth_places
from packetbench.benchmark.records import ExtractionRecord, read_record, record_path
from packetbench.benchmark.results.database import DB_NAME
from packetbench.benchmark.results.schema import ClaimRow, DocumentRow, FieldRow
from packetbench.benchmark.run_folder import listed_documents
from packetbench.benchmark.runs import read_run
from packetbench.benchmark.score import consistency, outputs
from packetbench.benchmark.score.field_view import Claim, FieldCounts, compare
from packetbench.benchmark.score.leaves import truth_leaves
from packetbench.benchmark.score.rates import GroundingTally
from packetbench.benchmark.score.stale import stale_values
from packetbench.benchmark.score.totals import CONSISTENCY_TALLIES, RunTotals
from packetbench.benchmark.score.verdicts import VERDICTS, ground, guess, verdict
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.executors import Executor, LocalExecutor
from packetbench.core.jsonfile import dump_json
from packetbench.core.leaves import DocModel
from packetbench.truth import namespaces, validate
from packetbench.truth import universe as universes
from packetbench.truth.packets import DocInfo, Packet, PacketFiles, Touched, find_packets

EXCLUDE, SALVAGE = "exclude", "salvage"
INVALID_POLICIES = (EXCLUDE, SALVAGE)  # what `score --invalid` does with a schema-invalid output


def schema_problem(schema: str, output: Any, packet: Path) -> str | None:
    """Why `output` is not a valid instance of `schema` (None when it is)."""
    scored = namespaces.resolve(schema, packet)
    return validate.problem(scored.model, scored.project(output))


@dataclass
class DocumentScore:
    key: str  # "<packet_id>/<doc_id>"
    tier: str
    doc_type: str
    counts: FieldCounts
    grounding: GroundingTally
    verdicts: Counter[str]
    consistency: dict[str, Any]  # checks, passed, failed, skipped and the failed checks' flags
    keys: int = 0  # keys the output wrote where the schema describes an object
    invented: list[str] = field(default_factory=list)  # keys the schema lacks (their paths)
    unfit: list[str] = field(default_factory=list)  # leaves of the wrong type, made null
    salvaged: bool = False  # an invalid output scored on the leaves that fit (--invalid salvage)


_COUNT_FIELDS = tuple(FieldCounts().as_dict())
_TALLY_KEYS = tuple(GroundingTally().hallucinated)


@dataclass(frozen=True, slots=True)
class DocumentSummary:
    """A scored document as it travels from its worker to the run's totals: a few tuples of
    counts (DocumentScore's objects are ten times larger)."""

    key: str
    tier: str
    doc_type: str
    counts: tuple[int, ...]  # FieldCounts, in field order
    checked: tuple[int, ...]  # GroundingTally.checked, by value class
    hallucinated: tuple[int, ...]  # GroundingTally.hallucinated, by universe and class
    verdicts: tuple[int, ...]  # in VERDICTS order
    consistency: tuple[int, ...]  # in CONSISTENCY_TALLIES order
    keys: tuple[int, int, int] = (0, 0, 0)  # keys emitted, invented, unfit leaves
    salvaged: bool = False

    @classmethod
    def of(cls, doc: DocumentScore) -> DocumentSummary:
        return cls(
            doc.key,
            sys.intern(doc.tier),
            sys.intern(doc.doc_type),
            tuple(doc.counts.as_dict().values()),
            tuple(doc.grounding.checked.values()),
            tuple(doc.grounding.hallucinated[k] for k in _TALLY_KEYS),
            tuple(doc.verdicts[v] for v in VERDICTS),
            tuple(doc.consistency[name] for name in CONSISTENCY_TALLIES),
            (doc.keys, len(doc.invented), len(doc.unfit)),
            doc.salvaged,
        )

    def field_counts(self) -> FieldCounts:
        return FieldCounts(**dict(zip(_COUNT_FIELDS, self.counts, strict=True)))

    def grounding(self) -> GroundingTally:
        tally = GroundingTally()
        tally.checked = dict(zip(tally.checked, self.checked, strict=True))
        tally.hallucinated = dict(zip(_TALLY_KEYS, self.hallucinated, strict=True))
        return tally

    def verdict_counts(self) -> dict[str, int]:
        return dict(zip(VERDICTS, self.verdicts, strict=True))


@dataclass
class RunScores:
    """What scoring a run found: its totals (not its documents: those are on disk) and the
    documents left out."""

    totals: RunTotals = field(default_factory=RunTotals)
    missing: list[str] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    invalid: list[dict[str, Any]] = field(default_factory=list)
    salvaged: list[dict[str, Any]] = field(default_factory=list)
    claims: int = 0
    policy: str = EXCLUDE

    @property
    def documents(self) -> int:
        """Documents scored."""
        return self.totals.documents

    def excluded(self) -> dict[str, int]:
        """Documents left out of every rate, by record status ("missing": no record)."""
        counts: Counter[str] = Counter(e["status"] for e in self.errors)
        counts.update(missing=len(self.missing), invalid=len(self.invalid))
        return {status: n for status, n in sorted(counts.items()) if n}

    def add(self, part: PacketPart) -> None:
        for doc in part.documents:
            self.totals.add(doc)
        self.missing += part.missing
        self.errors += part.errors
        self.invalid += part.invalid
        self.salvaged += part.salvaged
        self.claims += part.claims


def _consistency(checks: list[consistency.Check]) -> dict[str, Any]:
    return {
        "checks": len(checks),
        "passed": sum(c.ok for c in checks),
        "failed": sum(not c.ok and not c.skipped for c in checks),
        "skipped": sum(c.skipped for c in checks),
        "flags": [
            {
                "rule": c.rule,
                "path": c.path,
                "kind": c.kind,
                "stated": c.stated,
                "expected": c.expected,
            }
            for c in checks
            if not c.ok and not c.skipped
        ],
    }


def score_document(
    packet: Packet,
    doc: DocInfo,
    record: ExtractionRecord,
    found: universes.PacketUniverses,
    claims_out: list[bytes],
    fields_out: list[bytes] | None = None,
    salvage: bool = False,
    invalid: bool = False,
    files: PacketFiles | None = None,
    below: dict[str, Any] | None = None,
) -> DocumentScore:
    """Field view, grounding, verdicts and arithmetic of one ok record. Its claims rows go to
    `claims_out` and the rows of its truth leaves (the field view) to `fields_out`.

    Under `--invalid salvage` (`salvage`) its keys are counted (`validate.fit`), and an
    output that is not a valid instance of its schema (`invalid`) is scored cut to it: only
    the leaves that fit are scored, every key the schema lacks is an invented key. A valid
    output is scored as it is under either policy.

    `below` holds the document's values below the run's delivered resolution (path -> value,
    `delivery.below_resolution`): each is scored as an illegible value is, its truth null
    (abstention expected) and a value emitted there a guess, in a slice of its own."""
    files = files if files is not None else packet.files()
    scored = namespaces.resolve(doc.schema, packet.path)
    model = scored.model
    below = below or {}
    truth = withheld(scored.project(files.truth(doc.doc_id)), below)
    output = scored.project(record.output or {})
    # Under --invalid salvage every output's keys are counted, a valid one's included (the
    # invented-key rate's denominator); otherwise no key is counted.
    fitted = validate.fit(model, output) if salvage else validate.Fitted(output)
    if invalid:
        output = fitted.output
    comparison = compare(model, truth, output)
    stale = stale_values(packet, doc, model, truth, files)
    doc_universe = found.documents[doc.doc_id]
    tally = GroundingTally()
    verdicts: Counter[str] = Counter()
    touched = files.touched(doc.doc_id)
    said_at: dict[str, str] = {}
    cited = _citations(packet, doc, record, files)
    sure = (
        None
        if record.confidences is None
        else {c.path: c.confidence for c in record.confidences if c.problem is None}
    )
    illegible = found.illegible.get(doc.doc_id, {})
    unseen = {**illegible, **below}  # where a value emitted is a guess
    for claim in comparison.claims:
        grounding = ground(claim, doc_universe, found.packet)
        guessed = guess(claim, unseen, grounding.in_packet)
        checked = grounding.checked and guessed is None  # a guess is reported apart
        tally.add(grounding.numeric, checked, grounding.in_packet, grounding.in_document)
        said = verdict(claim, grounding.in_packet, stale.get(claim.path), found.packet)
        verdicts[said] += 1
        claims_out.append(
            _claim_row(
                packet,
                doc,
                claim,
                checked,
                grounding.in_packet,
                grounding.in_document,
                said,
                touched.of(claim.path),
                None if cited is None else cited(claim),
                None if sure is None else sure.get(claim.source or claim.path),
                guessed,
                guessed is not None and claim.path in below,
            )
        )
        said_at[claim.path] = said
    if fields_out is not None:
        fields_out.extend(field_rows(packet, doc, model, truth, said_at, touched, illegible, below))
    return DocumentScore(
        f"{packet.packet_id}/{doc.doc_id}",
        packet.tier,
        doc.doc_type,
        comparison.counts,
        tally,
        verdicts,
        _consistency(consistency.check(doc.schema, model, output)),
        fitted.keys,
        fitted.invented,
        fitted.unfit,
        invalid,
    )


def _citations(
    packet: Packet, doc: DocInfo, record: ExtractionRecord, files: PacketFiles
) -> Callable[[Claim], str] | None:
    """The citation verdict of each claim of a cited record (None: the run asked for none).
    A claim's citation is found by where the output holds it; its truth places are those of
    its aligned truth path, none for a value the truth lacks."""
    if record.citations is None:
        return None
    places = truth_places(packet.path, doc.doc_id, files.field_truth(doc.doc_id))
    by_path = {c.path: c for c in record.citations}

    def cited(claim: Claim) -> str:
        where = places.get(claim.path, []) if claim.truth is not None else []
        return cited_place(by_path.get(claim.source or claim.path), where)

    return cited


def _claim_row(
    packet: Packet,
    doc: DocInfo,
    claim: Claim,
    checked: bool,
    in_packet: bool,
    in_doc: bool,
    said: str,
    patterns: list[str],
    citation: str | None = None,
    confidence: float | None = None,
    guessed: str | None = None,
    unseen: bool = False,
) -> bytes:
    row: ClaimRow = {
        "packet_id": packet.packet_id,
        "doc_id": doc.doc_id,
        "doc_type": doc.doc_type,
        "tier": packet.tier,
        "path": claim.path,
        "kind": claim.kind,
        "value": claim.value,
        "truth": claim.truth,
        "field_class": "table" if "[" in claim.path else "form",
        "grounded_in": "document" if in_doc else "packet" if in_packet else "none",
        "hallucinated": (not in_packet) if checked else None,
        "hallucinated_document": (not in_doc) if checked else None,
        "verdict": said,
        "patterns": patterns,
        "citation": citation,
        "source": claim.source or claim.path,
        "confidence": confidence,
        "guess": guessed,
        "below_resolution": unseen,
    }
    return orjson.dumps(row)


def field_rows(
    packet: Packet,
    doc: DocInfo,
    model: type[DocModel],
    truth: dict[str, Any],
    said_at: dict[str, str],
    touched: Touched,
    illegible: Collection[str] = (),
    below: Collection[str] = (),
) -> Iterator[bytes]:
    """The field view of every truth leaf, from the verdict of the claim at its path: claims
    sit at their aligned truth paths, a value equal to its truth is `supported`, and a leaf
    with no claim was left empty (a dropped record's leaves have none). A leaf at a path of
    `illegible` (its value damaged past reading) is marked so, and one of `below` (its value
    below the run's delivered resolution) too. Tests hold this against
    field_breakdown.json document by document."""
    for path, kind, populated in truth_leaves(model, truth):
        said = said_at.get(path)
        if populated:
            outcome = "omitted" if said is None else "correct" if said == "supported" else "wrong"
        else:
            outcome = "abstained" if said is None else "answered"
        row: FieldRow = {
            "packet_id": packet.packet_id,
            "doc_id": doc.doc_id,
            "path": path,
            "kind": kind,
            "field_class": "table" if "[" in path else "form",
            "populated": populated,
            "outcome": outcome,
            "patterns": touched.of(path),
            "illegible": path in illegible,
            "below_resolution": path in below,
        }
        yield orjson.dumps(row)


def document_row(doc: DocumentScore, keys: bool = False) -> bytes:
    """The documents.parquet row of one scored document (`results.schema.DocumentRow`): its
    own counts under the column names of results.duckdb's documents table, and its
    consistency flags; with `keys` (--invalid salvage) its keys too."""
    packet_id, _, doc_id = doc.key.partition("/")
    counts = doc.counts
    tally = doc.grounding
    row: DocumentRow = {
        "packet_id": packet_id,
        "doc_id": doc_id,
        "tier": doc.tier,
        "doc_type": doc.doc_type,
        "gt_fields": counts.gt_fields,
        "correct": counts.correct,
        "wrong": counts.wrong,
        "omitted": counts.omitted,
        "gt_null_fields": counts.gt_null_fields,
        "abstained": counts.abstained,
        "answered": counts.answered,
        "invented_records": counts.invented_records,
        "dropped_records": counts.dropped_records,
        "numbers_checked": tally.checked["numbers"],
        "numbers_hallucinated": tally.hallucinated[("packet", "numbers")],
        "numbers_hallucinated_document": tally.hallucinated[("document", "numbers")],
        "strings_checked": tally.checked["strings"],
        "strings_hallucinated": tally.hallucinated[("packet", "strings")],
        "strings_hallucinated_document": tally.hallucinated[("document", "strings")],
        "supported": doc.verdicts["supported"],
        "contradicted": doc.verdicts["contradicted"],
        "stale": doc.verdicts["stale"],
        "overreach": doc.verdicts["overreach"],
        "unlinked": doc.verdicts["unlinked"],
        "consistency_checks": doc.consistency["checks"],
        "consistency_passed": doc.consistency["passed"],
        "consistency_failed": doc.consistency["failed"],
        "consistency_skipped": doc.consistency["skipped"],
        "consistency_flags": doc.consistency["flags"],
    }
    if keys:
        row["keys_emitted"] = doc.keys
        row["invented_keys"] = len(doc.invented)
        row["unfit_leaves"] = len(doc.unfit)
        row["salvaged"] = doc.salvaged
    return orjson.dumps(row)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while scoring.

    Scoring allocates millions of small, acyclic objects (parsed truth files, universe sets);
    the collector's generational passes over them cost a third of the run, and reference
    counting frees them anyway. The collector resumes when scoring ends.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@dataclass(frozen=True)
class PacketTask:
    """Score these documents of one packet of a run (a task an executor runs)."""

    run: Path
    packet: Packet
    doc_ids: tuple[str, ...]
    invalid: str = EXCLUDE  # what to do with a schema-invalid output (INVALID_POLICIES)
    delivery: Delivery | None = None  # how the run's pages reached the model (run.json)


@dataclass
class PacketPart:
    """What scoring one packet gives: its documents' summaries and exclusions, and its rows
    of documents, claims and the field view (JSON lines, in document order)."""

    documents: list[DocumentSummary] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    invalid: list[dict[str, Any]] = field(default_factory=list)
    salvaged: list[dict[str, Any]] = field(default_factory=list)
    claims: int = 0
    rows: outputs.Rows = field(default_factory=outputs.Rows)


def score_packet(task: PacketTask) -> PacketPart:
    """Score the documents `task` names, in the packet's document order."""
    with _collector_paused():
        return _score_packet(task)


def check_truth(packet: Packet, doc: DocInfo, files: PacketFiles | None = None) -> None:
    """BadInput naming the document_truth file when its truth is not a valid instance of
    the document's schema: scoring against it would count as wrong what is right (the audit
    reports such a file as an `integrity` finding)."""
    truth = files.truth(doc.doc_id) if files is not None else packet.truth(doc.doc_id)
    problem = schema_problem(doc.schema, truth, packet.path)
    if problem is not None:
        raise BadInput(
            f"{packet.path / f'document_truth_{doc.doc_id}.json'}: its truth is not a valid "
            f"instance of schema {doc.schema!r} ({problem}); the packet is damaged, and "
            "nothing is scored against it"
        )


def _score_packet(task: PacketTask) -> PacketPart:
    packet, run = task.packet, task.run
    files = packet.files()  # each of the packet's files read once, for everything below
    wanted = set(task.doc_ids)
    for doc in packet.documents:
        if doc.doc_id in wanted:
            check_truth(packet, doc, files)
    part = PacketPart()
    document_rows: list[bytes] = []
    claim_rows: list[bytes] = []
    field_rows_: list[bytes] = []
    built: universes.PacketUniverses | None = None
    for doc in packet.documents:
        if doc.doc_id not in wanted:
            continue
        key = f"{packet.packet_id}/{doc.doc_id}"
        path = record_path(run, packet.packet_id, doc.doc_id)
        if not path.exists():
            part.missing.append(key)
            continue
        record = read_record(path)
        if record.status != "ok":
            part.errors.append({"document": key, "status": record.status, "error": record.error})
            continue
        problem = schema_problem(doc.schema, record.output, packet.path)
        if problem is not None and task.invalid == EXCLUDE:
            part.invalid.append({"document": key, "reason": problem})
            continue
        if built is None:
            built = universes.build(packet.path, files)
        salvage = task.invalid == SALVAGE
        scored = score_document(
            packet,
            doc,
            record,
            built,
            claim_rows,
            field_rows_,
            salvage=salvage,
            invalid=problem is not None,
            files=files,
            below=below_resolution(files.field_truth(doc.doc_id)["fields"], task.delivery),
        )
        if problem is not None:
            part.salvaged.append(
                {
                    "document": key,
                    "reason": problem,
                    "invented_keys": scored.invented,
                    "unfit_leaves": scored.unfit,
                }
            )
        part.documents.append(DocumentSummary.of(scored))
        document_rows.append(document_row(scored, keys=salvage))
    part.claims = len(claim_rows)
    part.rows = outputs.Rows(
        *(
            b"".join(row + b"\n" for row in rows)
            for rows in (document_rows, claim_rows, field_rows_)
        )
    )
    return part


def _label(task: PacketTask) -> str:
    return task.packet.packet_id


def score_run(
    run: Path,
    packets_dir: Path,
    *,
    executor: Executor | None = None,
    claims_jsonl: bool = False,
    on_packet: Callable[[int], None] | None = None,
    invalid: str = EXCLUDE,
) -> RunScores:
    """Score every document of `run` against the packets in `packets_dir`; write scores/.

    Packets are scored as separate tasks (`executor`; default: this process) and merged in
    packet order as they come back, so only the run's totals are held: documents, claims and
    field rows stream to disk and become Parquet. `claims_jsonl` keeps claims.jsonl too.
    `invalid` is what becomes of a schema-invalid output: left out of every rate
    (`exclude`), or scored on the leaves that fit its schema, every key the schema lacks
    counted as an invented key (`salvage`).
    """
    if invalid not in INVALID_POLICIES:
        raise UsageError(
            f"--invalid must be one of {', '.join(INVALID_POLICIES)} (got {invalid!r})"
        )
    info = read_run(run)
    from packetbench.benchmark.documents import is_documents_run, not_scorable

    if is_documents_run(info):
        raise not_scorable(run)
    packets = find_packets(packets_dir)
    database = run / DB_NAME
    if database.exists() and not database.is_file():
        # It is replaced once the scores are written: refused before anything is.
        raise BadInput(f"{database}: not a file (a run keeps its results database there)")
    selected = listed_documents(info, run, packets)
    provenance.verify(info, run, selected)
    # Values below the resolution the run's pages reached the model at are abstention tests
    # (docs/resolution.md); a run recorded without it is scored at the file's resolution.
    delivery = of_run(info)
    tasks: list[PacketTask] = []
    for packet, doc in selected:
        if tasks and tasks[-1].packet.packet_id == packet.packet_id:
            last = tasks[-1]
            tasks[-1] = PacketTask(run, packet, (*last.doc_ids, doc.doc_id), invalid, delivery)
        else:
            tasks.append(PacketTask(run, packet, (doc.doc_id,), invalid, delivery))
    result = RunScores(policy=invalid)
    # results.duckdb describes the scores being replaced: it goes when they do.
    with outputs.Streams(
        run / "scores", claims_jsonl, stale=(run / DB_NAME,), keys=invalid == SALVAGE
    ) as streams:
        for done, part in enumerate(
            (executor or LocalExecutor(1)).map(score_packet, tasks, _label), 1
        ):
            result.add(part)
            streams.add(part.rows)
            if on_packet is not None:
                on_packet(done)
        streams.finish(_files(result, len(selected)))
    return result


def _files(result: RunScores, expected: int) -> dict[str, bytes]:
    """The run-level score files (name -> bytes); every document's own counts are in
    documents.parquet."""
    totals = result.totals
    # --invalid exclude (the default) writes what scoring always wrote; salvage adds the
    # policy, the salvaged documents and the key counts.
    salvage = result.policy == SALVAGE
    policy = {"invalid_policy": result.policy} if salvage else {}
    salvaged = {"salvaged": result.salvaged} if salvage else {}
    return {
        "field_breakdown.json": dump_json(
            {
                "documents_expected": expected,
                "documents_scored": totals.documents,
                **policy,
                "excluded": {
                    "missing": result.missing,
                    "error": result.errors,
                    "invalid": result.invalid,
                },
                **salvaged,
                **totals.field_breakdown(keys=salvage),
            }
        ),
        "hallucination.json": dump_json(
            {"documents_scored": totals.documents, **totals.hallucination()}
        ),
        "consistency.json": dump_json({"overall": totals.consistency_overall()}),
    }
