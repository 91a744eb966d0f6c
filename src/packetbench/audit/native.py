"""The pixel rule's clean side: a packet's documents built again from its seed, not scanned.

A scanned page's manifest records how it was scanned (its level, dpi and the exact 3x3
transform). The native PDF, the pages as drawn before any scan, is not in the packet: the
document is built again from the packet's seed, tier and knobs
(`generator.packet.rebuild_documents`). Its pages are not scanned again: the scanned file is
what the audit checks, so making its bytes again would prove nothing the audit does not prove
itself, and cost most of a generation. What must hold is that the native pages are the ones
that were scanned, and that the truth is what the generator wrote for what it drew (the rule
never reads a value: it stands in for OCR only there). Both hold when the document built again
has the packet's four truth files: field truth and rendered universe byte for byte (every
value, string, box and each box's place on the scanned page, which the scan's seed decides),
document truth byte for byte, and the manifest but for the file's sha256 (every pattern, knob,
version and each scanned page's level, dpi and transform). Each location's legibility is a
verdict on the scanned pixels: the rebuild takes it from the packet's field truth
(`pdf.Rebuild`), and the audit checks it on the pixels as it checks everything else. A packet of
another version or other knobs, or with an edited truth file, falls back to OCR; the reason is
in the audit's JSON (`pixels.unavailable`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from packetbench import __version__
from packetbench.core import ids, safe_read
from packetbench.reading.resolution import Verdict
from packetbench.truth.documents import TRUTH_KINDS, Document

if TYPE_CHECKING:
    from packetbench.generator.packet import Rebuilt


def rebuilt(doc: Document, packet: dict[str, Any]) -> tuple[Rebuilt | None, str]:
    """The document rebuilt from `packet` (packet_truth.json), its native PDF and the strings
    it drew as ink, or None and why not."""
    if packet.get("generator_version") != __version__:
        return None, (
            f"made by generator {packet.get('generator_version')!r}, this is {__version__}"
        )
    tier, seed, knobs = packet.get("tier"), packet.get("seed"), packet.get("knobs")
    if not isinstance(tier, str) or type(seed) is not int or not isinstance(knobs, dict):
        return None, "packet_truth.json has no tier, seed and knobs to rebuild it from"
    try:
        again = _rebuilt(doc, packet, tier, seed, knobs)
    except Exception as error:
        return None, f"rebuilding it failed ({type(error).__name__})"
    if again is None or again.native is None:
        return None, "the packet's seed and knobs do not make this document"
    why = _differs(doc, again)
    return (None, why) if why else (again, "")


def unattacked(doc: Document, packet: dict[str, Any]) -> tuple[bytes | None, str]:
    """The file of `doc` as the generator emitted it before its text-layer attacks changed
    it (`Rebuilt.unattacked`), or None and why not. Given only when the document built again
    from the packet's seed is the packet's: its truth files (as `rebuilt` asks) and its file,
    byte for byte (an attacked document is not scanned: the rebuild makes the same bytes)."""
    if packet.get("generator_version") != __version__:
        return None, (
            f"made by generator {packet.get('generator_version')!r}, this is {__version__}"
        )
    tier, seed, knobs = packet.get("tier"), packet.get("seed"), packet.get("knobs")
    if not isinstance(tier, str) or type(seed) is not int or not isinstance(knobs, dict):
        return None, "packet_truth.json has no tier, seed and knobs to rebuild it from"
    try:
        again = _rebuilt(doc, packet, tier, seed, knobs)
    except Exception as error:
        return None, f"rebuilding it failed ({type(error).__name__})"
    if again is None or again.unattacked is None:
        return None, "the packet's seed and knobs do not make this document"
    why = _differs(doc, again)
    if not why and again.files.get(doc.file.name) != safe_read.read_bytes(doc.file, "document"):
        why = f"{doc.file.name} is not the file its seed and knobs make"
    return (None, why) if why else (again.unattacked, "")


def _differs(doc: Document, again: Rebuilt) -> str:
    """Why the rebuilt document is not `doc` ("" when its truth files are the packet's)."""
    for kind in TRUTH_KINDS:
        path = doc.truth_file(kind)
        mine, theirs = again.files.get(path.name), safe_read.read_bytes(path, "truth")
        if kind == "manifest" and mine is not None:
            # The file the rebuild makes is the native PDF, not the scanned one.
            same = _but_sha256(mine) == _but_sha256(theirs)
        else:
            same = mine == theirs
        if not same:
            return f"{path.name} is not the one its seed and knobs make"
    return ""


def _but_sha256(data: bytes) -> Any:
    try:
        manifest = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    if isinstance(manifest, dict):
        manifest.pop("sha256", None)
    return manifest


# The last packet's documents rebuilt together: (folder, tier, seed, knobs) -> doc_id -> Rebuilt.
_REBUILT: dict[str, dict[str, Rebuilt]] = {}


def _rebuilt(
    doc: Document, packet: dict[str, Any], tier: str, seed: int, knobs: dict[str, Any]
) -> Rebuilt | None:
    """Document `doc` rebuilt: every PDF document of the packet with scanned pages is rebuilt
    in one pass the first time one of them is asked for (the world is built once, not once
    per document), and kept until another packet's is asked for. A document that pass does
    not make as its file is rebuilt on its own."""
    from packetbench.generator.packet import rebuild_document, rebuild_documents

    folder = doc.folder
    key = json.dumps([str(folder), tier, seed, knobs], sort_keys=True)
    verdicts = _verdicts(folder)
    if key not in _REBUILT:
        wanted = {
            str(d["doc_id"]): str(d["file"])
            for d in packet.get("documents") or []
            if isinstance(d, dict)
            and d.get("format") == "pdf"
            and ids.is_id(d.get("doc_id"))
            and d.get("file")
            and _rebuildable(folder, str(d["doc_id"]))
        }
        _REBUILT.clear()
        _REBUILT[key] = dict(rebuild_documents(tier, seed, knobs, wanted, verdicts))
    rebuilt = _REBUILT[key].get(doc.doc_id)
    if rebuilt is None or doc.file.name not in rebuilt.files:
        return rebuild_document(tier, seed, knobs, doc.doc_id, doc.file.name, verdicts)
    return rebuilt


def _rebuildable(folder: Path, doc_id: str) -> bool:
    """Whether the manifest of `doc_id` records a scanned page or a text-layer attack made
    on the emitted file (a document with neither has no clean side to rebuild)."""
    try:
        manifest = orjson.loads(safe_read.read_bytes(folder / f"manifest_{doc_id}.json", "truth"))
    except (OSError, orjson.JSONDecodeError, safe_read.UnsafeFile):
        return False
    patterns = manifest.get("patterns_applied") if isinstance(manifest, dict) else None
    return any(
        isinstance(p, dict)
        and (
            p.get("phase") == "scan"
            or (p.get("phase") == "post" and p.get("family") == "textlayer")
        )
        for p in patterns or []
    )


def _rung(value: Any) -> int | None:
    """A recorded `legible_from_dpi` as the rebuild takes it (anything but an int: None, and
    the rebuilt truth then differs from the packet's where the packet held something else)."""
    return value if type(value) is int else None


def _verdicts(folder: Path) -> Any:
    """Doc_id -> path -> each location's legibility as the packet's field truth records it
    (None when the file cannot be read as one: the document is then scanned again)."""

    def read(doc_id: str) -> dict[str, list[Verdict]] | None:
        if not ids.is_id(doc_id):
            return None
        try:
            data = orjson.loads(
                safe_read.read_bytes(folder / f"field_truth_{doc_id}.json", "truth")
            )
        except (OSError, orjson.JSONDecodeError, safe_read.UnsafeFile):
            return None
        out: dict[str, list[Verdict]] = {}
        for entry in data.get("fields") or [] if isinstance(data, dict) else []:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
                return None
            out[entry["path"]] = [
                (loc.get("legible") is not False, _rung(loc.get("legible_from_dpi")))
                for loc in entry.get("locations") or []
                if isinstance(loc, dict)
            ]
        return out

    return read
