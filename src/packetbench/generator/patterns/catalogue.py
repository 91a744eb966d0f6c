"""The catalogue as data: what `packetbench patterns` prints and the README documents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from packetbench.core.codes import TIERS
from packetbench.generator.patterns.base import catalogue
from packetbench.generator.patterns.presets import PROBABILITIES, preset


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


# The scan patterns that are not one level: each draws a clean or moderate scan (office_scan).
OFFICE_PATTERNS = {"scan.mixed": "clean, moderate", "scan.ocr_layer": "clean, moderate"}


def capture_mode_of(pattern_id: str) -> str:
    """The capture mode a scan pattern draws (`render.scan_levels.MODES`)."""
    from packetbench.generator.render.scan_levels import LEVELS

    if pattern_id in OFFICE_PATTERNS:
        return "office_scan"
    return LEVELS[pattern_id.removeprefix("scan.")].mode


def capture_mode_shares(tier: str) -> dict[str, float]:
    """The share of a tier's PDF documents its preset draws at each capture mode: scans claim
    a document first and exclude each other, in catalogue order, so a level draws its
    probability of what the levels before it leave (a level a document does not fit draws
    less: these are the preset's shares, not a corpus's)."""
    from packetbench.generator.render.scan_levels import MODES

    knobs, left = preset(tier), 1.0
    shares = dict.fromkeys(MODES, 0.0)
    for pattern in catalogue():
        if pattern.phase == "scan":
            drawn = left * float(knobs.get(f"patterns.{pattern.id}", 0.0))
            shares[capture_mode_of(pattern.id)] += drawn
            left -= drawn
    return shares
