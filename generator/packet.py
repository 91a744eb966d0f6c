"""Build one packet and write it atomically: a temporary folder renamed into place."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator import __version__
from generator import doctypes as _doctypes  # noqa: F401  (registers every document type)
from generator.doctypes.base import EXTENSIONS, compose
from generator.errors import UsageError
from generator.render.record import Recorder
from generator.truth import document_artifacts, dump_json
from generator.world.build import build_world


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


def _alive(process_id: int) -> bool:
    try:
        os.kill(process_id, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover(out_dir: Path, pid: str) -> None:
    """Clean up after writers of packet `pid` that were killed mid-write.

    A half-written `.partial-N` folder is deleted. A `.old-N` folder is the previous packet
    moved aside by `--force`; if the writer died before the new packet took its place, the old
    one is put back, so a kill never loses a packet that was complete.
    """
    target = out_dir / pid
    for stale in sorted(out_dir.glob(f".{pid}.*-*")):
        kind, _, owner = stale.name.rpartition("-")
        if not owner.isdigit() or (int(owner) != os.getpid() and _alive(int(owner))):
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


def build_packet(tier: str, seed: int, knobs: dict[str, Any]) -> BuiltPacket:
    """Every file of packet (tier, seed) in memory, without touching the disk."""
    world = build_world(seed, knobs)
    wanted = compose(world, knobs["documents"])
    # Builders and manifests see the documents this packet really renders.
    knobs = {**knobs, "documents": [variant.doc_id for _, variant in wanted]}
    files: dict[str, bytes] = {}
    documents: list[dict[str, Any]] = []
    built: dict[str, Any] = {}
    pages: dict[str, int] = {}
    for doc_type, variant in wanted:
        if doc_type.name not in built:
            rng = random.Random(sub_seed(seed, doc_type.name))
            built[doc_type.name] = doc_type.build(world, rng, knobs)
        doc = variant.adapt(built[doc_type.name])
        recorder = Recorder(variant.doc_id, doc, variant.style)
        output = variant.render(doc, recorder)
        file = f"{variant.doc_id}.{EXTENSIONS[variant.format]}"
        files[file] = output.data
        artifacts = document_artifacts(
            recorder=recorder, doc_type=doc_type.name, fmt=variant.format, file=file,
            data=output.data, pages=output.pages, tier=tier, seed=seed, knobs=knobs,
            omits=variant.omits,
        )
        for kind, content in artifacts.items():
            files[f"{kind}_{variant.doc_id}.json"] = dump_json(content)
        documents.append({
            "doc_id": variant.doc_id,
            "doc_type": doc_type.name,
            "format": variant.format,
            "file": file,
            "schema": doc_type.name,
            "superseded_by": None,
        })
        pages[variant.doc_id] = output.pages
    files["packet_truth.json"] = dump_json({
        "packet_id": packet_id(tier, seed),
        "tier": tier,
        "seed": seed,
        "generator_version": __version__,
        "knobs": knobs,
        "documents": documents,
        "world": world.model_dump(mode="json"),
    })
    return BuiltPacket(files, pages, {d["doc_id"]: d["format"] for d in documents})


def write_packet(out_dir: Path, tier: str, seed: int, knobs: dict[str, Any],
                 force: bool = False) -> PacketSummary:
    """Build a packet into a temporary folder beside its target, then rename it into place.

    A reader never sees a half-written packet; with `force`, an existing packet is replaced
    only after the new one is complete.
    """
    started = time.perf_counter()
    pid = packet_id(tier, seed)
    target = out_dir / pid
    recover(out_dir, pid)
    if target.exists() and not force:
        raise UsageError(f"{target}: packet folder already exists (use --force to replace it)")
    built = build_packet(tier, seed, knobs)
    partial = out_dir / f".{pid}.partial-{os.getpid()}"
    partial.mkdir()
    try:
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
    return PacketSummary(pid, target, len(built.pages), pdf_pages,
                         time.perf_counter() - started)
