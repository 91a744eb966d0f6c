"""`packetbench import nightmare`: the reference corpus as packets and run folders of ours.

    OUT/packets/<tier>-<seed>/    one packet per corpus packet (docs/design.md §4), its documents'
                                  files copied byte for byte, their schemas under schemas/
    OUT/runs/<cohort>/            one run folder per cohort (docs/design.md §6)
    OUT/import.json               what was imported, and every leaf that could not be mapped

The same corpus always imports to the same bytes: documents and cohorts are visited in sorted
order and nothing records a time.

Every file of the corpus is checked before anything is read (`corpus.check_files`: no FIFO,
no device, nothing past its ceiling) and read as untrusted input. The import is written into
a folder beside OUT and moved into OUT once whole, so an import stopped by a signal or a full
disk leaves OUT as it was; `--force` replaces what the earlier import wrote (the packets and
runs its import.json lists, and its own reports) and nothing else in OUT.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench.benchmark.importers.nightmare import rendered
from packetbench.benchmark.importers.nightmare.corpus import (
    Cohort,
    Corpus,
    CorpusDoc,
    CorpusPacket,
    read_corpus,
    read_json,
    schema_of,
)
from packetbench.benchmark.importers.nightmare.runs import convert_cohort
from packetbench.benchmark.importers.nightmare.truth import Converted, convert, spelled_by
from packetbench.benchmark.provenance import sha256
from packetbench.core import ids, safe_read, stopping
from packetbench.core.errors import BadInput, UsageError, WriteFailed
from packetbench.core.writing import machine_refused, refused_write, write_json
from packetbench.truth.namespaces.nightmare import NAMESPACE_NAME, schema_file
from packetbench.truth.packets import Packet, load_packet

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


def _earlier(out: Path, force: bool) -> set[str]:
    """What the earlier import in OUT wrote (paths relative to OUT), to be replaced: nothing
    when OUT is absent or empty; UsageError when OUT holds something else, or an import and
    no `force`. Its import.json is read as untrusted input (its names must be ids)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    if not out.exists() or not any(out.iterdir()):
        return set()
    report = out / REPORT
    if not report.is_file():
        raise UsageError(f"{out}: not empty and not an import (no {REPORT}); choose another --out")
    if not force:
        raise UsageError(f"{out}: already holds an import (use --force to replace it)")
    data = read_json(report, "run")
    try:
        packets = [ids.check(p, "packets[]", report) for p in data["packets"]]
        cohorts = [ids.check(c, "cohorts", report) for c in data["cohorts"]]
    except (KeyError, TypeError) as error:
        raise BadInput(f"{report}: not an import report ({error})") from None
    return {
        *(f"packets/{p}" for p in packets),
        *(f"runs/{c}" for c in cohorts),
        REPORT,
        *RECONCILIATION,
    }


def _check_room(out: Path, earlier: set[str], written: list[str]) -> None:
    """UsageError when a place the import writes holds something the earlier import did not
    write (a run of the user's named like a cohort): it is never replaced."""
    for name in written:
        if name not in earlier and os.path.lexists(out / name):
            raise UsageError(
                f"{out / name}: exists and was not written by an import; move it away first"
            )


def _install(building: Path, out: Path, earlier: set[str], written: list[str]) -> None:
    """Move the import built in `building` into OUT: what the earlier import wrote goes,
    what this one wrote comes (import.json last), nothing else in OUT is touched. The
    renames are not cut short by a signal."""
    with stopping.no_signals():
        out.mkdir(parents=True, exist_ok=True)
        for name in sorted(earlier - set(written)):
            _remove(out / name)
        for name in sorted(written, key=lambda n: n == REPORT):
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if os.path.lexists(target):
                _remove(target)
            os.replace(building / name, target)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _document(
    corpus: Corpus, source: CorpusPacket, doc: CorpusDoc, folder: Path, result: ImportResult
) -> dict[str, Any]:
    schema_name = schema_of(doc.doc_type)
    if schema_name is None:
        raise BadInput(f"{doc.file}: no schema of the corpus for document type {doc.doc_type}")
    schema_path = corpus.schema_path(schema_name)
    try:
        schema_text = safe_read.read_bytes(schema_path, "schema")
        schema_data = safe_read.parse_json(schema_text)
    except FileNotFoundError:
        raise BadInput(f"{schema_path}: missing") from None
    except (OSError, ValueError) as error:
        raise BadInput(f"{schema_path}: not a JSON Schema ({error})") from None
    target_schema = schema_file(folder, schema_name)
    if not target_schema.exists():
        target_schema.parent.mkdir(parents=True, exist_ok=True)
        target_schema.write_bytes(schema_text)
    fmt = doc.format
    file_name = f"{doc.doc_id}.{fmt}"
    safe_read.check_file(doc.file, safe_read.document_kind(doc.file))
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
        schema_data,
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
    progress: bool = False,
) -> ImportResult:
    """Import the corpus at `root` into `out` (packets, one run per cohort, import.json).

    A packet without ground truth or a published output that is not JSON is refused before
    anything is written, unless `partial`: then it is left out and listed (`skipped`).
    `progress` shows a bar on a terminal (packets, then cohorts)."""
    corpus = read_corpus(root, partial)
    earlier = _earlier(out, force)
    chosen = [c for c in corpus.cohorts if cohorts is None or c.name in cohorts]
    written = [
        *(f"packets/{source.packet_id}" for source in corpus.packets),
        *(f"runs/{cohort.name}" for cohort in chosen),
        REPORT,
    ]
    _check_room(out, earlier, written)
    parent = out.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=f".{out.name}.import-{os.getpid()}-", dir=parent))
    except OSError as error:
        raise BadInput(f"{out}: cannot create the folder ({error.strerror})") from None
    try:
        result = _write(corpus, chosen, building, progress)
        _install(building, out, earlier, written)
    except OSError as error:
        if machine_refused(error):
            raise refused_write(out, error) from None
        raise
    except WriteFailed as error:  # named as the file in OUT it would have been
        raise WriteFailed(str(error).replace(str(building), str(out))) from None
    finally:
        shutil.rmtree(building, ignore_errors=True)
    result.out = out
    result.packets = [load_packet(out / "packets" / p.packet_id) for p in result.packets]
    return result


def _write(corpus: Corpus, chosen: list[Cohort], out: Path, progress: bool) -> ImportResult:
    """The whole import written into `out` (a folder of its own); `progress` shows a bar on a
    terminal (packets, then cohorts)."""
    from packetbench.core import progress as bars

    result = ImportResult(out, skipped=list(corpus.skipped))
    pairs = []
    with bars.bar("packets", "", len(corpus.packets), disable=not progress) as advance:
        for source in corpus.packets:
            packet = _packet(corpus, source, out, result)
            result.packets.append(packet)
            pairs.append((source, packet))
            advance(None)
    with bars.bar("cohorts", "", len(chosen), disable=not progress) as advance:
        for cohort in chosen:
            result.cohorts[cohort.name] = convert_cohort(
                corpus, cohort, pairs, out / "runs" / cohort.name
            )
            advance(None)
    write_json(out / REPORT, result.report(corpus))
    return result
