"""The interface every extraction provider implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, ClassVar

from packetbench.benchmark.records import ExtractionRecord
from packetbench.truth.packets import DocInfo, Packet


class Provider(ABC):
    """Turns one document of a packet into one extraction record."""

    name: ClassVar[str]
    simulator: ClassVar[bool] = False

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Provider:
        """The provider configured from command-line options (each takes what it knows)."""
        return cls()

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """What run.json records about this provider: model, parameters, label."""

    def check(self, packet: Packet) -> None:  # noqa: B027 (optional hook)
        """Raise BadInput for anything of `packet` this provider will read and cannot, before
        the run writes anything."""

    def prepare(self, packet: Packet) -> None:  # noqa: B027 (optional hook)
        """Called once per packet before its documents."""

    @abstractmethod
    def extract(self, packet: Packet, doc: DocInfo) -> ExtractionRecord | None:
        """The record of one document, or None when nothing is written for it."""

    def finish(self, run: Path) -> None:  # noqa: B027 (optional hook)
        """Called once after the last document; may write provider files into the run."""

    def schema_broken(self) -> int:
        """Documents written `ok` whose output breaks its schema, which `score` leaves out
        (the simulator's injected ones; an API run's are recorded `invalid` already)."""
        return 0
