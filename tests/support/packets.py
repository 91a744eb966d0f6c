"""Packets written for a test, as `packetbench generate` would write them (no corpus files)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from packetbench.generator.packet import build_packet, packet_id
from packetbench.generator.tiers import resolve


def write_packets(root: Path, tier: str, seeds: Iterable[int]) -> Path:
    """Packets `tier` of `seeds` (preset knobs) under `root`, one folder each; `root`."""
    for seed in seeds:
        built = build_packet(tier, seed, resolve(tier))
        folder = root / packet_id(tier, seed)
        folder.mkdir(parents=True)
        for name, data in built.files.items():
            (folder / name).write_bytes(data)
    return root
