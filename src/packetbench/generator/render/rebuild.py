"""The rebuild context: what documents built again for the audit leave behind
(`generator.packet.rebuild_documents`), and the context variable that is set meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

from packetbench.reading.resolution import Verdict


@dataclass
class Rebuild:
    """A packet's documents built again for the audit (`generator.packet.rebuild_documents`),
    which compares a scanned page with its native page drawn clean under the same transform.

    Every document with scanned pages leaves in `natives` its native PDF, the pages as drawn
    before any was scanned (doc_id -> bytes). A document `verdicts` has (doc_id -> path ->
    the legibility of each of its locations as the packet's field truth records them,
    `resolution.Verdict`) is not scanned again: each scanned page is placed as its scan
    placed it (`scan.placement`: the same draws from the same seed), what was drawn on it
    moved with it, and each location takes the packet's verdict (a verdict is a claim about
    the scanned pixels, which the audit has and checks itself). No image is made, and the
    document's file is its native PDF: its truth files are the packet's when it is the same
    document."""

    natives: dict[str, bytes] = field(default_factory=dict)
    verdicts: Callable[[str], dict[str, list[Verdict]] | None] | None = None
    # Doc_id -> its strings drawn as ink with no text layer, and where (`Recorder.inked`).
    inked: dict[str, list[tuple[int, str, list[float]]]] = field(default_factory=dict)
    # Doc_id -> strings printed over its scanned pages after the scan (a fax's header): (page,
    # text, quad on the scanned page, points), where only the generator can say it printed.
    printed: dict[str, list[tuple[int, str, list[float]]]] = field(default_factory=dict)
    # Doc_id -> its PDF as emitted before a text-layer attack changed the file
    # (`Presentation.post`), for a document one did: the audit renders both.
    unattacked: dict[str, bytes] = field(default_factory=dict)


# While set, documents are being built again (`Rebuild`).
REBUILD: ContextVar[Rebuild | None] = ContextVar("rebuild", default=None)
