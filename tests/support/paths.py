"""Where the checkout, the canonical suite and the installed command are; tier knobs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from packetbench.core.codes import TIERS
from packetbench.generator.packet import packet_id
from packetbench.generator.tiers import resolve

__all__ = ["PACKETS", "ROOT", "TIERS", "canonical_documents", "cli_path", "plain"]


ROOT = Path(__file__).resolve().parents[2]


PACKETS = ROOT / "packets"


def plain(tier: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The knobs of `tier` without presentation patterns (document-type tests)."""
    return resolve(tier, {"patterns.off": ("*",), **(overrides or {})})


def cli_path() -> str:
    """The installed `packetbench` console script of this interpreter's environment."""
    script = Path(sys.executable).with_name("packetbench")
    if not script.exists():
        pytest.fail(f"packetbench is not installed next to {sys.executable}")
    return str(script)


def canonical_documents(tiers: tuple[str, ...] = TIERS) -> int:
    """How many documents the canonical suite's packets of `tiers` hold, from their truths."""
    return sum(
        len(
            json.loads(
                (PACKETS / packet_id(tier, 1) / "packet_truth.json").read_text(encoding="utf-8")
            )["documents"]
        )
        for tier in tiers
    )
