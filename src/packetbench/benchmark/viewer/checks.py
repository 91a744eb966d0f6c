"""Whether a served run's documents are still those it was extracted from, checked while
the viewer serves.

`score` hashes every file of a run before it scores; the viewer does not wait for that (the
files of a 1,000-packet run take most of a minute to hash) but refuses the same documents.
At start it checks only what costs little: the run's results database was scored against
the documents run.json lists, every packet run.json lists is in the packets folder, and
each one's packet_truth.json is the one run.json recorded (`source.open_run`: packets
regenerated with another seed or version, or of another corpus, are refused before the
server serves, one line and exit 2). The hashes those checks make are kept in the cache and
a file whose inode says it is unchanged is not read again (`core.memo`). Each document is
then hashed when it is opened, before its truth is read or a page of it rendered, and every
other one in the background, in run order, at the lowest priority the system gives a
thread; those hashes are kept in the cache too (a file of their own, written when the check
ends or the viewer stops), so a run opened again checks its unchanged documents by their
inodes, not by reading them (28 GB for 1,000 hard packets). A document whose files differ
from those run.json recorded (or whose packet's packet_truth.json does, changed since the
start) is refused, with `score`'s message: its view answers 422 with it, its row in the
list carries it, and the run's check counts it.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

from packetbench.benchmark import provenance
from packetbench.benchmark.viewer.source import RunSource
from packetbench.core.errors import BadInput
from packetbench.core.memo import HashMemo
from packetbench.truth.packets import DocInfo, Packet

HINT = "view the run with the packets it was extracted from"
LISTED_DIFFERENCES = 20  # refused documents named in the run's check


class Refused(BadInput):
    """A document whose files are not those the run was extracted from."""


class Checks:
    """The check of one run's files: what was found so far, and the thread that goes on."""

    def __init__(self, source: RunSource) -> None:
        self.source = source
        self._entries = source.recorded
        self._documents: dict[str, str | None] = {}  # packet_id/doc_id -> None, or why not
        self._packets: dict[str, str | None] = {}  # packet_id -> None, or why not
        self._differ: list[tuple[str, str]] = []
        self._hashing: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # The documents' hashes kept from before: read when first needed (by the background
        # check, or a document opened first), never before the server serves.
        self._memo: HashMemo | None = None
        self._loading = threading.Lock()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._check_all, name="checks", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._loading:
            memo = self._memo
        if memo is not None:
            memo.save(forget=False)  # what was hashed so far (the rest is kept too)

    def _documents_memo(self) -> HashMemo | None:
        if self.source.memo is None:
            return None
        with self._loading:
            if self._memo is None:
                self._memo = self.source.memo.part("documents")
            return self._memo

    def _packet(self, packet: Packet) -> str | None:
        with self._lock:
            if packet.packet_id in self._packets:
                return self._packets[packet.packet_id]
        found = provenance.packet_difference(
            self._entries[packet.packet_id], packet, self.source.path, HINT, self._documents_memo()
        )
        with self._lock:
            self._packets[packet.packet_id] = found
        return found

    def check(self, packet: Packet, doc: DocInfo) -> str | None:
        """Why `doc` is refused, or None: its files (and its packet's packet_truth.json)
        are those the run was extracted from. Hashed once, the first time it is asked (by
        one thread: a request and the background check never hash the same files twice)."""
        name = f"{packet.packet_id}/{doc.doc_id}"
        with self._lock:
            if name in self._documents:
                return self._documents[name]
            hashing = self._hashing.setdefault(name, threading.Lock())
        with hashing:
            with self._lock:
                if name in self._documents:
                    return self._documents[name]
            found = provenance.document_difference(
                self._entries[packet.packet_id],
                packet,
                doc,
                self.source.path,
                HINT,
                self._documents_memo(),
            ) or self._packet(packet)
            with self._lock:
                self._documents[name] = found
                self._hashing.pop(name, None)
                if found is not None:
                    self._differ.append((name, found))
        return found

    def require(self, packet: Packet, doc: DocInfo) -> None:
        """Refused when `doc` is not the document the run was extracted from."""
        found = self.check(packet, doc)
        if found is not None:
            raise Refused(found)

    def state(self, packet_id: str, doc_id: str) -> str | None:
        """``"verified"``, ``"unchecked"`` or why the document is refused."""
        with self._lock:
            name = f"{packet_id}/{doc_id}"
            if name not in self._documents:
                return "unchecked"
            return self._documents[name] or "verified"

    def summary(self) -> dict[str, Any]:
        """How far the check has got, and the documents refused (the first few named)."""
        with self._lock:
            return {
                "documents": len(self.source.documents),
                "checked": len(self._documents),
                "refused": len(self._differ),
                "first_refused": [
                    {"document": name, "reason": reason}
                    for name, reason in sorted(self._differ)[:LISTED_DIFFERENCES]
                ],
                "done": len(self._documents) == len(self.source.documents),
            }

    def _check_all(self) -> None:
        # Linux gives each thread its own nice value: the hashing yields the processors to
        # the requests being answered.
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        for packet, doc in self.source.documents:
            if self._stop.is_set():
                return
            self.check(packet, doc)
        memo = self._documents_memo()
        if memo is not None:
            memo.save()  # every document checked: what is no longer used is forgotten
