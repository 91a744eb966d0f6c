"""Build one packet and write it atomically: a temporary folder renamed into place."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from packetbench import __version__
from packetbench.core import ids, safe_read
from packetbench.core.errors import UsageError
from packetbench.core.jsonfile import dump_json
from packetbench.core.worker_pool import alive
from packetbench.generator.composition import trim
from packetbench.generator.doctypes.base import EXTENSIONS, compose
from packetbench.generator.patterns import engine as patterns
from packetbench.generator.patterns import packet as packet_patterns
from packetbench.generator.patterns.base import Subject
from packetbench.generator.render.rebuild import REBUILD, Rebuild
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.tiers import PRESETS
from packetbench.generator.truth import document_artifacts
from packetbench.generator.world.build import build_world
from packetbench.reading.resolution import Verdict


def packet_id(tier: str, seed: int) -> str:
    return f"{tier}-{seed:06d}"


def sub_seed(seed: int, name: str) -> int:
    """A per-document seed derived from the packet seed (stable across Python runs)."""
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class PacketSummary:
    packet_id: str
    path: Path
    documents: int
    pdf_pages: int
    seconds: float
    kept: bool = False  # complete before this run (`--resume`), left as it was


def recover(out_dir: Path, pid: str) -> None:
    """Clean up after writers of packet `pid` that were killed mid-write.

    A half-written `.partial-N` folder is deleted. A `.old-N` folder is the previous packet
    moved aside by `--force`; if the writer died before the new packet took its place, the old
    one is put back, so a kill never loses a packet that was complete.
    """
    target = out_dir / pid
    for stale in sorted(out_dir.glob(f".{pid}.*-*")):
        kind, _, owner = stale.name.rpartition("-")
        if not owner.isdigit() or (int(owner) != os.getpid() and alive(int(owner))):
            continue
        if kind.endswith(".old") and not target.exists():
            stale.rename(target)
        elif kind.endswith((".partial", ".old")):
            shutil.rmtree(stale, ignore_errors=True)


@dataclass(frozen=True)
class BuiltPacket:
    files: dict[str, bytes]  # file name -> bytes
    pages: dict[str, int]  # doc_id -> pages (sheets for XLSX, 1 for CSV)
    formats: dict[str, str]  # doc_id -> format


class Stopwatch:
    """Time spent per stage of `build_packet` (benchmarks/ pass one in; nothing else does)."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.spent: dict[str, float] = defaultdict(float)
        self.pdf_pages = 0
        self._last = clock()

    def lap(self, stage: str) -> None:
        """Charge the time since the previous lap to `stage`."""
        now = self.clock()
        self.spent[stage] += now - self._last
        self._last = now


def build_packet(
    tier: str,
    seed: int,
    knobs: dict[str, Any],
    watch: Stopwatch | None = None,
    only: frozenset[str] | None = None,
) -> BuiltPacket:
    """Every file of packet (tier, seed) in memory, without touching the disk (`only`: the
    files of those documents alone; every document's seeds are its own, so the files are the
    same as in the whole packet)."""
    if watch is not None:
        watch.lap("other")
    world = build_world(seed, knobs)
    if watch is not None:
        watch.lap("world")
    wanted = compose(world, knobs["documents"])
    # Packet patterns: views of some documents, and earlier versions of some (superseded);
    # then the tier's cap on documents leaves out formats (generator.composition).
    planned = packet_patterns.packet_docs(world, wanted, knobs, packet_id(tier, seed))
    planned = trim(
        planned, knobs.get("documents.max", 0), random.Random(sub_seed(seed, "composition"))
    )
    # Builders and manifests see the documents this packet really renders.
    knobs = {**knobs, "documents": [p.doc_id for p in planned if p.superseded_by is None]}
    files: dict[str, bytes] = {}
    documents: list[dict[str, Any]] = []
    built: dict[str, Any] = {}
    pages: dict[str, int] = {}
    for item in planned:
        doc_type, variant = item.doc_type, item.variant
        if only is not None and variant.doc_id not in only:
            continue
        if doc_type.name not in built:
            rng = random.Random(sub_seed(seed, doc_type.name))
            built[doc_type.name] = doc_type.build(world, rng, knobs)
        viewed = packet_patterns.apply_views(item, variant.adapt(built[doc_type.name]))
        doc = viewed.doc
        if watch is not None:
            watch.lap("document models")
        staged = patterns.stage(
            Subject(variant.doc_id, doc_type.name, variant.format, doc, variant.style),
            knobs,
            packet_id(tier, seed),
        )
        recorder = Recorder(
            variant.doc_id,
            staged.doc,
            variant.style,
            staged.presentation,
            wording=sub_seed(seed, f"{variant.doc_id}:wording"),
        )
        if watch is not None:
            watch.lap("patterns")
        output = variant.render(staged.doc, recorder)
        if watch is not None:
            watch.lap(f"render {variant.format}")
        file = f"{variant.doc_id}.{EXTENSIONS[variant.format]}"
        files[file] = output.data
        applied = packet_patterns.finish_views(viewed, recorder) + patterns.finish(staged, recorder)
        if watch is not None:
            watch.lap("patterns")
        artifacts = document_artifacts(
            recorder=recorder,
            doc_type=doc_type.name,
            fmt=variant.format,
            file=file,
            data=output.data,
            pages=output.pages,
            tier=tier,
            seed=seed,
            knobs=knobs,
            omits=variant.omits,
            patterns_applied=applied,
        )
        for kind, content in artifacts.items():
            files[f"{kind}_{variant.doc_id}.json"] = dump_json(content)
        # The file's pages: a document printed two pages to a sheet has one per sheet.
        file_pages = int(artifacts["manifest"]["pages"])
        if watch is not None:
            watch.lap("truth artifacts")
            watch.pdf_pages += file_pages if variant.format == "pdf" else 0
        documents.append(
            {
                "doc_id": variant.doc_id,
                "doc_type": doc_type.name,
                "format": variant.format,
                "file": file,
                "schema": doc_type.name,
                "superseded_by": item.superseded_by,
            }
        )
        pages[variant.doc_id] = file_pages
    files["packet_truth.json"] = dump_json(
        {
            "packet_id": packet_id(tier, seed),
            "tier": tier,
            "seed": seed,
            "generator_version": __version__,
            "knobs": knobs,
            "documents": documents,
            "world": world.model_dump(mode="json"),
        }
    )
    return BuiltPacket(files, pages, {d["doc_id"]: d["format"] for d in documents})


# A document's truth files beside its own file (`generator.truth.document_artifacts`).
_TRUTH_KINDS = ("document_truth", "field_truth", "manifest", "rendered_universe")


@dataclass(frozen=True)
class Rebuilt:
    """One document of a packet built again: its files (the document's and its truth files,
    by name), its native PDF (the pages before any was scanned; None for a document without
    scanned pages), and its strings drawn as ink with no text layer: (page, text, native
    box), which only the generator can say where it drew (`Recorder.inked`)."""

    files: dict[str, bytes]
    native: bytes | None
    inked: list[tuple[int, str, list[float]]] = field(default_factory=list)
    # Strings printed over its scanned pages after the scan (a fax's header): (page, text,
    # quad on the scanned page), `pdf.Rebuild.printed`.
    printed: list[tuple[int, str, list[float]]] = field(default_factory=list)
    # The file as emitted before a text-layer attack changed it (`pdf.Rebuild.unattacked`;
    # None when none did).
    unattacked: bytes | None = None


# Doc_id -> the legibility of each location of each path (see `pdf.Rebuild`).
Legibility = Callable[[str], dict[str, list[Verdict]] | None]


def rebuild_document(
    tier: str,
    seed: int,
    knobs: dict[str, Any],
    doc_id: str,
    file: str,
    verdicts: Legibility | None = None,
) -> Rebuilt | None:
    """Document `doc_id` (file name `file`) of packet (tier, seed) built again with `knobs` as
    packet_truth.json records them, None when it is not in the packet they make.

    The recorded knobs list the documents the packet rendered, not the list a tier's cap drew
    them from, so with a cap the tier's own list is tried first; the caller compares the
    files with the packet's to know the rebuild is the same document (another version, or
    other knobs, give other files). With `verdicts`, a document with scanned pages is not
    scanned again (`pdf.Rebuild`): its file is its native PDF, and its truth files are the
    ones the packet has when it is the same document and the verdicts are the packet's.
    """
    return rebuild_documents(tier, seed, knobs, {doc_id: file}, verdicts).get(doc_id)


def rebuild_documents(
    tier: str,
    seed: int,
    knobs: dict[str, Any],
    wanted: dict[str, str],
    verdicts: Legibility | None = None,
) -> dict[str, Rebuilt]:
    """Documents `wanted` (doc_id -> file name) of packet (tier, seed) built again in one
    pass (the world is built once for all of them), as `rebuild_document` builds each; a
    document the knobs do not make is left out."""
    rebuild = Rebuild(verdicts=verdicts)
    token = REBUILD.set(rebuild)
    out: dict[str, Rebuilt] = {}
    try:
        tried = [knobs]
        if tier in PRESETS and knobs.get("documents.max"):
            # A tier's cap chose the documents rendered from the tier's list: that list first.
            tried.insert(0, {**knobs, "documents": PRESETS[tier].knobs["documents"]})
        for asked in tried:
            left = {d: f for d, f in wanted.items() if d not in out}
            if not left:
                break
            rebuild.natives.clear()
            rebuild.inked.clear()
            rebuild.printed.clear()
            rebuild.unattacked.clear()
            built = build_packet(tier, seed, asked, only=frozenset(left))
            for doc_id, file in left.items():
                if file in built.files:
                    names = {file, *(f"{kind}_{doc_id}.json" for kind in _TRUTH_KINDS)}
                    mine = {n: d for n, d in built.files.items() if n in names}
                    out[doc_id] = Rebuilt(
                        mine,
                        rebuild.natives.get(doc_id),
                        rebuild.inked.get(doc_id, []),
                        rebuild.printed.get(doc_id, []),
                        rebuild.unattacked.get(doc_id),
                    )
    finally:
        REBUILD.reset(token)
    return out


def not_a_folder(target: Path) -> UsageError:
    return UsageError(f"{target}: exists and is not a packet folder (move it away first)")


def write_packet(
    out_dir: Path, tier: str, seed: int, knobs: dict[str, Any], force: bool = False
) -> PacketSummary:
    """Build a packet into a temporary folder beside its target, then rename it into place.

    A reader never sees a half-written packet; with `force`, an existing packet is replaced
    only after the new one is complete. A file where the packet folder belongs is never
    replaced: it is not a packet, so it is not ours to delete.
    """
    return write_packet_files(out_dir, tier, seed, knobs, force)[0]


def write_packet_files(
    out_dir: Path, tier: str, seed: int, knobs: dict[str, Any], force: bool = False
) -> tuple[PacketSummary, dict[str, bytes]]:
    """`write_packet`, and the files it wrote (name -> content): what its folder now holds,
    so its corpus entry is made without reading them back."""
    started = time.perf_counter()
    pid = packet_id(tier, seed)
    target = out_dir / pid
    recover(out_dir, pid)
    if target.exists() and not target.is_dir():
        raise not_a_folder(target)
    if target.exists() and not force:
        raise UsageError(f"{target}: packet folder already exists (use --force to replace it)")
    built = build_packet(tier, seed, knobs)
    partial = out_dir / f".{pid}.partial-{os.getpid()}"
    try:  # a stop that lands just after the folder is made still removes it
        partial.mkdir()
        for name in sorted(built.files):
            (partial / name).write_bytes(built.files[name])
        if target.exists():
            old = out_dir / f".{pid}.old-{os.getpid()}"
            target.rename(old)
            partial.rename(target)
            shutil.rmtree(old)
        else:
            partial.rename(target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    pdf_pages = sum(n for doc_id, n in built.pages.items() if built.formats[doc_id] == "pdf")
    summary = PacketSummary(pid, target, len(built.pages), pdf_pages, time.perf_counter() - started)
    return summary, built.files


TRUTH_KINDS = ("document_truth", "field_truth", "manifest", "rendered_universe")


def _json(path: Path, kind: str = "truth") -> Any:
    """The JSON of `path`, None when it is missing or not JSON; a path that is not a
    regular file (a FIFO, a device) is refused (safe_read.UnsafeFile), never read."""
    try:
        return orjson.loads(safe_read.read_bytes(path, kind))
    except (OSError, orjson.JSONDecodeError):
        return None


def complete_packet(
    folder: Path,
    tier: str,
    seed: int,
    knobs: dict[str, Any],
) -> PacketSummary | None:
    """The summary of the packet in `folder` when it is complete, None when it is not.

    Complete means: packet_truth.json lists the documents, every document's file and four
    truth files are there and parse, every file's sha256 is its manifest's, and nothing
    else is in the folder. A packet made with other knobs or by another version raises
    UsageError: replacing it is for `--force` to decide, not `--resume`.
    """
    truth_path = folder / "packet_truth.json"
    truth = _json(truth_path, "packet_truth")
    if not isinstance(truth, dict) or not isinstance(truth.get("documents"), list):
        return None
    # A packet records the documents it renders (its lines decide), not all it may render.
    asked = orjson.loads(orjson.dumps({k: v for k, v in knobs.items() if k != "documents"}))
    knobs_found = truth.get("knobs")
    recorded: dict[str, Any] = knobs_found if isinstance(knobs_found, dict) else {}
    wanted = {
        "packet_id": packet_id(tier, seed),
        "tier": tier,
        "seed": seed,
        "generator_version": __version__,
        "knobs": asked,
    }
    found = {**truth, "knobs": {k: v for k, v in recorded.items() if k != "documents"}}
    differing = [key for key, value in wanted.items() if found.get(key) != value]
    if not differing and not set(recorded.get("documents") or []) <= set(knobs["documents"]):
        differing = ["documents"]
    if differing:
        raise UsageError(
            f"{folder}: made with other settings ({differing[0]} differs) than "
            "this run asks for; --resume keeps only packets it would write "
            "itself (use --force to replace it)"
        )
    names = {"packet_truth.json"}
    pdf_pages = 0
    for index, listed in enumerate(truth["documents"]):
        if not isinstance(listed, dict):
            return None
        # Ids name files: checked before any is used (ids.check; UsageError-like exit 2).
        doc_id = ids.check(listed.get("doc_id"), f"documents[{index}].doc_id", truth_path)
        manifest = _json(folder / f"manifest_{doc_id}.json")
        if not isinstance(manifest, dict) or manifest.get("file") != listed.get("file"):
            return None
        kinds = [f"{kind}_{doc_id}.json" for kind in TRUTH_KINDS]
        if any(_json(folder / name) is None for name in kinds):
            return None
        file = ids.check(manifest["file"], "file", folder / f"manifest_{doc_id}.json")
        try:
            digest = safe_read.sha256(folder / file, "document")
        except OSError:
            return None
        if digest != manifest.get("sha256"):
            return None
        names.update([str(manifest["file"]), *kinds])
        if manifest.get("format") == "pdf":
            pdf_pages += int(manifest.get("pages") or 0)
    if {p.name for p in folder.iterdir()} != names:
        return None
    return PacketSummary(
        packet_id(tier, seed), folder, len(truth["documents"]), pdf_pages, 0.0, kept=True
    )
