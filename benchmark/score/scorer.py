"""`packetbench score`: score every document of a run against its packets' truth.

Writes, under RUN/scores/ (DESIGN §7): field_breakdown.json, hallucination.json, claims.jsonl
and consistency.json. Documents whose record is missing, errored or schema-invalid are listed
with the reason and excluded from the rates, never dropped silently. The same run scored twice
gives byte-identical files: documents are visited in packet and document order, and nothing
depends on hashing or time.
"""

from __future__ import annotations

import gc
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from benchmark import families, provenance
from benchmark import universe as universes
from benchmark.packets import DocInfo, Packet, find_packets
from benchmark.runs import (
    ExtractionRecord,
    listed_documents,
    read_record,
    read_run,
    record_path,
    write_atomic,
    write_json,
)
from benchmark.score import consistency, validate
from benchmark.score.compare import Claim, FieldCounts, compare
from benchmark.score.rates import GroundingTally, summarize
from benchmark.score.stale import stale_values
from benchmark.score.verdicts import VERDICTS, judge, verdict


def schema_problem(schema: str, output: Any, packet: Path) -> str | None:
    """Why `output` is not a valid instance of `schema` (None when it is)."""
    scored = families.resolve(schema, packet)
    return validate.problem(scored.model, scored.project(output))


@dataclass
class DocumentScore:
    key: str  # "<packet_id>/<doc_id>"
    tier: str
    doc_type: str
    counts: FieldCounts
    grounding: GroundingTally
    verdicts: Counter[str]
    checks: list[consistency.Check]


@dataclass
class RunScores:
    documents: list[DocumentScore] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    invalid: list[dict[str, Any]] = field(default_factory=list)
    claims: int = 0

    def excluded(self) -> dict[str, int]:
        """Documents left out of every rate, by record status ("missing": no record)."""
        counts: Counter[str] = Counter(e["status"] for e in self.errors)
        counts.update(missing=len(self.missing), invalid=len(self.invalid))
        return {status: n for status, n in sorted(counts.items()) if n}


def score_document(packet: Packet, doc: DocInfo, record: ExtractionRecord,
                   found: universes.PacketUniverses, claims_out: list[bytes]) -> DocumentScore:
    """Field view, grounding, verdicts and arithmetic of one valid, ok record."""
    scored = families.resolve(doc.schema, packet.path)
    model = scored.model
    truth = scored.project(packet.truth(doc.doc_id))
    output = scored.project(record.output or {})
    comparison = compare(model, truth, output)
    stale = stale_values(packet, doc, model, truth)
    doc_universe = found.documents[doc.doc_id]
    tally = GroundingTally()
    verdicts: Counter[str] = Counter()
    prefix = _row_prefix(packet, doc)
    touched = packet.touched(doc.doc_id)
    for claim in comparison.claims:
        judged = judge(claim, doc_universe, found.packet)
        tally.add(judged.numeric, judged.checked, judged.in_packet, judged.in_document)
        said = verdict(claim, judged.in_packet, stale.get(claim.path), found.packet)
        verdicts[said] += 1
        claims_out.append(_claim_row(prefix, claim, judged.checked, judged.in_packet,
                                     judged.in_document, said, touched.of(claim.path)))
    return DocumentScore(f"{packet.packet_id}/{doc.doc_id}", packet.tier, doc.doc_type,
                         comparison.counts, tally, verdicts,
                         consistency.check(doc.schema, model, output))


def _row_prefix(packet: Packet, doc: DocInfo) -> bytes:
    """The opening of every claims.jsonl row of one document (its identifying keys)."""
    return orjson.dumps({"packet_id": packet.packet_id, "doc_id": doc.doc_id,
                         "doc_type": doc.doc_type, "tier": packet.tier})[:-1] + b","


def _claim_row(prefix: bytes, claim: Claim, checked: bool, in_packet: bool, in_doc: bool,
               said: str, patterns: list[str]) -> bytes:
    return prefix + orjson.dumps({
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
    })[1:]


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


def score_run(run: Path, packets_dir: Path) -> RunScores:
    """Score every document of `run` against the packets in `packets_dir`; write scores/."""
    with _collector_paused():
        return _score_run(run, packets_dir)


def _score_run(run: Path, packets_dir: Path) -> RunScores:
    packets = find_packets(packets_dir)
    info = read_run(run)
    selected = listed_documents(info, run, packets)
    provenance.verify(info, run, selected)
    result = RunScores()
    claim_rows: list[bytes] = []
    built: dict[str, universes.PacketUniverses] = {}
    for packet, doc in selected:
        key = f"{packet.packet_id}/{doc.doc_id}"
        path = record_path(run, packet.packet_id, doc.doc_id)
        if not path.exists():
            result.missing.append(key)
            continue
        record = read_record(path)
        if record.status != "ok":
            result.errors.append({"document": key, "status": record.status,
                                  "error": record.error})
            continue
        problem = schema_problem(doc.schema, record.output, packet.path)
        if problem is not None:
            result.invalid.append({"document": key, "reason": problem})
            continue
        if packet.packet_id not in built:
            built[packet.packet_id] = universes.build(packet.path)
        result.documents.append(
            score_document(packet, doc, record, built[packet.packet_id], claim_rows))
    result.claims = len(claim_rows)
    _write(run / "scores", result, claim_rows, len(selected))
    return result


def _write(folder: Path, result: RunScores, claim_rows: list[bytes], expected: int) -> None:
    docs = result.documents
    excluded = {"missing": result.missing, "error": result.errors, "invalid": result.invalid}

    def grouped(key: str) -> dict[str, list[DocumentScore]]:
        groups: dict[str, list[DocumentScore]] = defaultdict(list)
        for doc in docs:
            groups[getattr(doc, key)].append(doc)
        return dict(sorted(groups.items()))

    def counts(group: list[DocumentScore]) -> dict[str, int]:
        total = FieldCounts()
        for doc in group:
            total.add(doc.counts)
        return total.as_dict()

    write_json(folder / "field_breakdown.json", {
        "documents_expected": expected,
        "documents_scored": len(docs),
        "excluded": excluded,
        "overall": counts(docs),
        "by_tier": {k: counts(v) for k, v in grouped("tier").items()},
        "by_doc_type": {k: counts(v) for k, v in grouped("doc_type").items()},
        "documents": {d.key: d.counts.as_dict() for d in docs},
    })
    write_json(folder / "hallucination.json", {
        "documents_scored": len(docs),
        "overall": summarize([d.grounding for d in docs]),
        "by_tier": {k: summarize([d.grounding for d in v]) for k, v in grouped("tier").items()},
        "by_doc_type": {k: summarize([d.grounding for d in v])
                        for k, v in grouped("doc_type").items()},
        "documents": {d.key: d.grounding.as_dict() for d in docs},
        "verdicts": {
            "overall": {v: sum(d.verdicts[v] for d in docs) for v in VERDICTS},
            "documents": {d.key: {v: d.verdicts[v] for v in VERDICTS} for d in docs},
        },
    })
    write_atomic(folder / "claims.jsonl", b"".join(row + b"\n" for row in claim_rows))

    def tally(checks: list[consistency.Check]) -> dict[str, int]:
        return {"checks": len(checks), "passed": sum(c.ok for c in checks),
                "failed": sum(not c.ok and not c.skipped for c in checks),
                "skipped": sum(c.skipped for c in checks)}

    write_json(folder / "consistency.json", {
        "overall": tally([c for d in docs for c in d.checks]),
        "documents": {
            d.key: {**tally(d.checks), "flags": [
                {"rule": c.rule, "path": c.path, "kind": c.kind, "stated": c.stated,
                 "expected": c.expected}
                for c in d.checks if not c.ok and not c.skipped]}
            for d in docs
        },
    })
