"""Where one's own documents came from, for the simulators: the generated packets they were
copied from (`--sim-truth`, `--judge-truth`).

The simulated extractor, classifier and judge cannot read a document: they simulate reading
one whose truth they are given. On a folder of one's own documents copied out of generated
packets, each file is found in those packets by its sha256 (each manifest records its
file's), and the simulators read that document's truth. The run itself records no truth: it
stays a run of documents without truth, scored by nothing, estimated by a judge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.records import ExtractionRecord
from packetbench.core import safe_read
from packetbench.core.errors import BadInput
from packetbench.core.packet_files import read_manifest
from packetbench.truth.packets import DocInfo, Packet, find_packets


class Origins:
    """The documents of the generated packets in `folder`, by their file's sha256."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._by_sha: dict[str, tuple[Packet, DocInfo]] = {}
        for packet in find_packets(folder):
            for doc in packet.documents:
                digest = read_manifest(packet.path, doc.doc_id)["sha256"]
                self._by_sha.setdefault(digest, (packet, doc))

    def of(self, path: Path) -> tuple[Packet, DocInfo]:
        """The generated document `path` is a copy of (BadInput naming it when none is)."""
        try:
            digest = safe_read.sha256(path, "document")
        except OSError as error:
            raise BadInput(f"{path}: unreadable ({error.strerror})") from None
        found = self._by_sha.get(digest)
        if found is None:
            raise BadInput(
                f"{path}: not a copy of any document of {self.folder} (no manifest records its "
                "sha256); the simulators only simulate reading documents whose truth they have"
            )
        return found

    def describe(self) -> str:
        return str(self.folder.resolve())


class OriginSim(Provider):
    """The simulated extractor on one's own documents: each record is the one the simulator
    writes for the generated document the file is a copy of, filed under the file's ids."""

    name = "sim"
    simulator = True

    def __init__(self, sim: Provider, origins: Origins) -> None:
        self.sim = sim
        self.origins = origins
        self._found: dict[tuple[str, str], tuple[Packet, DocInfo]] = {}
        self._prepared: str | None = None

    def describe(self) -> dict[str, Any]:
        # The origins are not a parameter: the simulator simulates the same model on them.
        return {**self.sim.describe(), "truth_for_simulation": self.origins.describe()}

    def _origin(self, packet: Packet, doc: DocInfo) -> tuple[Packet, DocInfo]:
        key = (packet.packet_id, doc.doc_id)
        if key not in self._found:
            origin = self.origins.of(packet.path / doc.file)
            if origin[1].schema != doc.schema:
                raise BadInput(
                    f"{packet.path / doc.file}: typed {doc.schema!r}, but it is a copy of "
                    f"{origin[0].packet_id}/{origin[1].doc_id}, a {origin[1].schema!r}; the "
                    "simulator only simulates reading a document as its own type"
                )
            self._found[key] = origin
        return self._found[key]

    def check(self, packet: Packet) -> None:
        for doc in packet.documents:
            origin, of = self._origin(packet, doc)
            self.sim.check(Packet(origin.path, origin.packet_id, origin.tier, origin.seed, (of,)))

    def extract(self, packet: Packet, doc: DocInfo) -> ExtractionRecord | None:
        origin, of = self._origin(packet, doc)
        if self._prepared != origin.packet_id:  # the simulator reads one packet at a time
            self.sim.prepare(origin)
            self._prepared = origin.packet_id
        record = self.sim.extract(origin, of)
        if record is None:
            return None
        return record.model_copy(
            update={"packet_id": packet.packet_id, "doc_id": doc.doc_id, "doc_type": doc.doc_type}
        )

    def finish(self, run: Path) -> None:
        self.sim.finish(run)
