"""Packets rendered with one pattern forced on (`--set patterns.only=<id>`), beside the same
packet with every pattern off, read back with pdfium."""

from __future__ import annotations

from typing import Any

import pytest

from packetbench.generator.packet import build_packet
from packetbench.generator.tiers import resolve
from tests.support.rendering import Render, Rendered


@pytest.fixture(scope="session")
def render() -> Render:
    """render(tier, seed, documents, only=None): the packet with only those patterns on
    (None: every pattern off). Built once per session per arguments."""
    cache: dict[tuple[Any, ...], Rendered] = {}

    def make(tier: str, seed: int, documents: tuple[str, ...], only: str | None = None) -> Rendered:
        key = (tier, seed, documents, only)
        if key not in cache:
            # Every line whose documents the pattern tests draw on (auto: driver schedules).
            overrides: dict[str, Any] = {
                "documents": documents,
                "lines": ("property", "gl", "auto", "wc"),
            }
            overrides["patterns.only" if only else "patterns.off"] = (
                tuple(only.split(",")) if only else ("*",)
            )
            cache[key] = Rendered(build_packet(tier, seed, resolve(tier, overrides)).files)
        return cache[key]

    return make
