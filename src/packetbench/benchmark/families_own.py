"""packetbench's own schema family: the generator's document types, by schema name."""

from __future__ import annotations

from pathlib import Path

from packetbench.benchmark.families import ScoredSchema
from packetbench.generator import doctypes as _doctypes  # noqa: F401  (registers document types)
from packetbench.generator.doctypes.base import REGISTRY


class OwnFamily:
    def resolve(self, name: str, packet: Path) -> ScoredSchema | None:
        doc_type = REGISTRY.get(name)
        return ScoredSchema(doc_type.model) if doc_type is not None else None


FAMILY = OwnFamily()
