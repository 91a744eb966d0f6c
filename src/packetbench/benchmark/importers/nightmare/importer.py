"""`packetbench import nightmare`: the reference corpus as packets and run folders of ours.

    OUT/packets/<tier>-<seed>/    one packet per corpus packet (DESIGN §4), its documents'
                                  files copied byte for byte, their schemas under schemas/
    OUT/runs/<cohort>/            one run folder per cohort (DESIGN §6)
    OUT/import.json               what was imported, and every leaf that could not be mapped

The same corpus always imports to the same bytes: documents and cohorts are visited in sorted
order and nothing records a time.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench.benchmark.importers.nightmare import rendered
from packetbench.benchmark.importers.nightmare.corpus import (
    Corpus,
    CorpusDoc,
    CorpusPacket,
    read_corpus,
    schema_of,
)
from packetbench.benchmark.importers.nightmare.runs import convert_cohort
from packetbench.benchmark.importers.nightmare.truth import Converted, convert, spelled_by
from packetbench.benchmark.namespaces.nightmare import NAMESPACE_NAME, schema_file
from packetbench.benchmark.packets import Packet, load_packet
from packetbench.benchmark.provenance import sha256
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.packet_files import read_json
from packetbench.core.writing import write_json

REPORT = "import.json"
RECONCILIATION = ("reconciliation.json", "reconciliation.md")  # written by --reconcile


@dataclass
class SchemaTally:
    documents: int = 0
    mapped: int = 0
    unmapped: int = 0
    metadata: int = 0


@dataclass
class ImportResult:
    out: Path
    packets: list[Packet] = field(default_factory=list)
    documents: int = 0
    cohorts: dict[str, dict[str, int]] = field(default_factory=dict)
    schemas: dict[str, SchemaTally] = field(default_factory=dict)
    unmapped: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # --partial: what was left out

    def report_leaves(self) -> dict[str, Any]:
        reasons: Counter[str] = Counter(_category(u["reason"]) for u in self.unmapped)
        return {
            "mapped": sum(t.mapped for t in self.schemas.values()),
            "unmapped": len(self.unmapped),
            "metadata": sum(t.metadata for t in self.schemas.values()),
            "unmapped_by_reason": dict(sorted(reasons.items())),
        }

    def report(self, corpus: Corpus) -> dict[str, Any]:
        return {
            "corpus": "nightmare",
            "commit": corpus.commit,
            "packets": [p.packet_id for p in self.packets],
            "documents": self.documents,
            "cohorts": self.cohorts,
            "leaves": self.report_leaves(),
            "schemas": {name: vars(t) for name, t in sorted(self.schemas.items())},
            "unmapped": self.unmapped,
            **({"skipped": self.skipped} if self.skipped else {}),
        }


def _category(reason: str) -> str:
    """The kind of a reason, without the paths it names."""
    if reason.startswith("ambiguous"):
        return "ambiguous"
    if reason.endswith("already holds another leaf"):
        return "its place already holds another leaf"
    return reason.rsplit(": ", 1)[-1]


def _prepare(out: Path, force: bool) -> None:
    """An empty or absent OUT, or with `force` an earlier import (replaced); nothing else is
    ever deleted."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    if not out.exists() or not any(out.iterdir()):
        return
    if not (out / REPORT).is_file():
        raise UsageError(f"{out}: not empty and not an import (no {REPORT}); choose another --out")
    if not force:
        raise UsageError(f"{out}: already holds an import (use --force to replace it)")
    for name in ("packets", "runs"):
        shutil.rmtree(out / name, ignore_errors=True)
    for name in (REPORT, *RECONCILIATION):
        (out / name).unlink(missing_ok=True)


def _document(
    corpus: Corpus, source: CorpusPacket, doc: CorpusDoc, folder: Path, result: ImportResult
) -> dict[str, Any]:
    schema_name = schema_of(doc.doc_type)
    if schema_name is None:
        raise BadInput(f"{doc.file}: no schema of the corpus for document type {doc.doc_type}")
    schema_text = corpus.schema_path(schema_name).read_bytes()
    target_schema = schema_file(folder, schema_name)
    if not target_schema.exists():
        target_schema.parent.mkdir(parents=True, exist_ok=True)
        target_schema.write_bytes(schema_text)
    fmt = doc.format
    file_name = f"{doc.doc_id}.{fmt}"
    shutil.copyfile(doc.file, folder / file_name)
    their_manifest = read_json(doc.truth_file("manifest"))
    their_universe = read_json(doc.truth_file("rendered_universe"))
    pages = rendered.page_count(doc.file, fmt, their_universe)
    broken = rendered.broken_pages(their_manifest, pages) if fmt == "pdf" else set()
    locate: Any = rendered.no_locations
    if fmt == "pdf":
        locate = rendered.Locator(rendered.page_heights(doc.file), broken)
    universe = rendered.universe(doc.doc_id, fmt, their_universe, broken)
    converted: Converted = convert(
        json.loads(schema_text),
        read_json(doc.truth_file("field_truth")),
        locate,
        spelled_by([s["text"] for s in universe["strings"]]),
    )
    schema = f"{NAMESPACE_NAME}/{schema_name}"
    write_json(
        folder / f"document_truth_{doc.doc_id}.json",
        {
            "doc_id": doc.doc_id,
            "doc_type": doc.doc_type,
            "schema": schema,
            "truth": converted.truth,
        },
    )
    write_json(
        folder / f"field_truth_{doc.doc_id}.json",
        {"doc_id": doc.doc_id, "fields": converted.fields},
    )
    write_json(folder / f"rendered_universe_{doc.doc_id}.json", universe)
    write_json(
        folder / f"manifest_{doc.doc_id}.json",
        {
            "doc_id": doc.doc_id,
            "doc_type": doc.doc_type,
            "format": fmt,
            "file": file_name,
            "sha256": sha256(folder / file_name),
            "pages": pages,
            "tier": source.tier,
            "seed": source.seed,
            "knobs": {},
            "patterns_applied": rendered.patterns(their_manifest, pages),
            "versions": {"corpus": "nightmare", "commit": corpus.commit},
        },
    )
    tally = result.schemas.setdefault(schema_name, SchemaTally())
    tally.documents += 1
    tally.mapped += len(converted.fields)
    tally.unmapped += len(converted.unmapped)
    tally.metadata += converted.metadata
    result.unmapped += [
        {
            "packet_id": source.packet_id,
            "doc_id": doc.doc_id,
            "schema": schema_name,
            "leaf": u.leaf,
            "value": u.value,
            "reason": u.reason,
        }
        for u in converted.unmapped
    ]
    return {
        "doc_id": doc.doc_id,
        "doc_type": doc.doc_type,
        "format": fmt,
        "file": file_name,
        "schema": schema,
        "superseded_by": None,
    }


def _packet(corpus: Corpus, source: CorpusPacket, out: Path, result: ImportResult) -> Packet:
    folder = out / "packets" / source.packet_id
    folder.mkdir(parents=True, exist_ok=True)
    documents = [
        _document(corpus, source, doc, folder, result)
        for doc in sorted(source.documents, key=lambda d: d.doc_id)
    ]
    write_json(
        folder / "packet_truth.json",
        {
            "packet_id": source.packet_id,
            "tier": source.tier,
            "seed": source.seed,
            "generator_version": f"nightmare@{corpus.commit or 'unknown'}",
            "source": {"corpus": "nightmare", "packet": source.name},
            "documents": documents,
            "world": read_json(source.folder / "ground_truth" / "packet_truth.json"),
        },
    )
    result.documents += len(documents)
    return load_packet(folder)


def import_corpus(
    root: Path,
    out: Path,
    force: bool = False,
    cohorts: list[str] | None = None,
    partial: bool = False,
) -> ImportResult:
    """Import the corpus at `root` into `out` (packets, one run per cohort, import.json).

    A packet without ground truth or a published output that is not JSON is refused before
    anything is written, unless `partial`: then it is left out and listed (`skipped`)."""
    corpus = read_corpus(root, partial)
    _prepare(out, force)
    result = ImportResult(out, skipped=list(corpus.skipped))
    pairs = []
    for source in corpus.packets:
        packet = _packet(corpus, source, out, result)
        result.packets.append(packet)
        pairs.append((source, packet))
    for cohort in corpus.cohorts:
        if cohorts is not None and cohort.name not in cohorts:
            continue
        result.cohorts[cohort.name] = convert_cohort(
            corpus, cohort, pairs, out / "runs" / cohort.name
        )
    write_json(out / REPORT, result.report(corpus))
    return result
