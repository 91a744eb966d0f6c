"""The catalogue as data: what `packetbench patterns` prints and the README documents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from packetbench.core.codes import TIERS
from packetbench.generator.patterns.base import catalogue
from packetbench.generator.patterns.presets import PROBABILITIES


def rows(tiers: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """One entry per registered pattern, in catalogue order."""
    shown = list(tiers or TIERS)
    out = []
    for pattern in catalogue():
        probabilities = PROBABILITIES.get(pattern.id, (0.0,) * len(TIERS))
        out.append(
            {
                "id": pattern.id,
                "name": pattern.name,
                "family": pattern.family,
                "phase": pattern.phase,
                "truth": pattern.truth,
                "formats": sorted(pattern.formats),
                "doc_types": sorted(pattern.doc_types) if pattern.doc_types else None,
                "reference": pattern.reference,
                "incompatible": list(pattern.incompatible),
                "description": pattern.description,
                "probability": {tier: probabilities[TIERS.index(tier)] for tier in shown},
            }
        )
    return out
