"""Choosing and applying patterns to one document, and recording what they did.

Which patterns a document carries is decided per (packet id, document, pattern) by a hash,
not by a shared random stream, so adding a pattern to the catalogue or changing one
probability never changes the draws of the others. Each pattern then acts with its own random
stream. Scans are chosen first, then the others in catalogue order; one that conflicts with a
pattern already chosen for the document is skipped (declared incompatibilities, never a
crash). Patterns are applied in catalogue order.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from packetbench.core.leaves import DocModel, path_pattern, set_path
from packetbench.generator.patterns.base import (
    Applied,
    Pattern,
    Staging,
    Subject,
    catalogue,
    with_doc,
)
from packetbench.generator.patterns.presets import PREFIX
from packetbench.generator.render.presentation import Presentation
from packetbench.generator.render.recorder import Recorder


def _unit(*parts: object) -> float:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def select(subject: Subject, knobs: Mapping[str, Any], packet: str) -> list[Pattern]:
    """The patterns document `subject` of packet `packet` ("N3-000042") carries, in catalogue
    order.

    Scans claim a document first: whether a document reaches the underwriter as an image is
    the tier's first decision (its scan share, docs/patterns.md), and what a scanned page cannot
    carry (a text-layer attack, a redaction's covered text) then goes to the native
    documents. Among the others, earlier patterns in the catalogue win a conflict."""
    patterns = catalogue()
    chosen: list[Pattern] = []
    for pattern in sorted(patterns, key=lambda p: p.phase != "scan"):  # stable: scans first
        probability = float(knobs.get(f"{PREFIX}{pattern.id}", 0.0))
        if probability <= 0.0 or not pattern.fits(subject):
            continue
        if _unit(packet, subject.doc_id, pattern.id, "select") >= probability:
            continue
        if any(pattern.conflicts(other) for other in chosen):
            continue
        chosen.append(pattern)
    order = {pattern.id: index for index, pattern in enumerate(patterns)}
    return sorted(chosen, key=lambda p: order[p.id])


@dataclass
class Staged:
    """A document ready to draw: its (possibly changed) model, how to draw it, and the
    applications waiting for confirmation."""

    doc: DocModel
    presentation: Presentation
    applications: list[tuple[Applied, list[Callable[[Recorder], bool]]]] = field(
        default_factory=list
    )


def stage(subject: Subject, knobs: Mapping[str, Any], packet: str) -> Staged:
    """Apply every chosen pattern's document-phase work to `subject`."""
    presentation = Presentation()
    applications: list[tuple[Applied, list[Callable[[Recorder], bool]]]] = []
    for pattern in select(subject, knobs, packet):
        applied = Applied(pattern)
        values: dict[str, Any] = {}
        staging = Staging(
            subject,
            random.Random(_seed(packet, subject.doc_id, pattern.id)),
            presentation,
            applied,
            values,
        )
        before = presentation.snapshot()
        if not pattern.apply(staging):
            presentation = before  # nothing to act on: leave no trace
            continue
        applications.append((applied, staging.checks))
        if pattern.phase == "overlay":
            presentation.overlays.append(applied)
        if values:
            # Later patterns see the document as this one left it (e.g. reordered rows).
            subject = with_doc(subject, _changed(subject.doc, values))
    return Staged(subject.doc, presentation, applications)


def _changed(doc: DocModel, values: dict[str, Any]) -> DocModel:
    data = doc.model_dump(mode="json")
    for path, value in values.items():
        set_path(data, path, value)
    return type(doc).model_validate(data)


@lru_cache(maxsize=1 << 16)
def _ancestors(path: str) -> tuple[str, ...]:
    """`path` and every object or list above it: ``a[2].b`` -> ``a``, ``a[2]``, ``a[2].b``
    (remembered: `pages_of` asks for every drawn path's, once per pattern applied)."""
    return (*(path[:i] for i, ch in enumerate(path) if ch in ".["), path)


def pages_of(recorder: Recorder, targets: list[str]) -> set[int]:
    """Pages on which any leaf under `targets` was drawn (or drawn and covered)."""
    wanted = set(targets)
    pages: set[int] = set()
    located = [
        *((path, drawn.locations) for path, drawn in recorder.drawn.items()),
        *recorder.covered.items(),
    ]
    for path, locations in located:
        if any(ancestor in wanted for ancestor in _ancestors(path)):
            pages.update(int(loc["page"]) for loc in locations if "page" in loc)
    return pages


def finish(staged: Staged, recorder: Recorder) -> list[dict[str, Any]]:
    """The manifest records of the applications the drawn document confirms."""
    records: list[dict[str, Any]] = []
    drawn = {name for kind, name, _ in recorder.presentation.events if kind == "drawn"}
    for applied, checks in staged.applications:
        if not all(check(recorder) for check in checks):
            continue
        if applied.pattern.phase == "layout":
            # A table look acts only on the lists the renderer really drew as tables.
            applied.targets = [t for t in applied.targets if path_pattern(t) in drawn]
            if not applied.targets:
                continue
        if applied.targets and not applied.pages:
            applied.pages = pages_of(recorder, applied.targets)
        if not applied.targets and not applied.pages:
            continue
        records.append(applied.record())
    return records
