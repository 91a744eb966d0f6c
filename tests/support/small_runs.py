"""Small scored sim runs for the fast tier: two documents of a canonical packet (an ACORD form
and a table), extracted, scored and loaded like a whole run, in well under a second each."""

from __future__ import annotations

from pathlib import Path

from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from packetbench.benchmark.selection import Selection
from tests.support.paths import PACKETS

PACKET = PACKETS / "N1-000001"
SMALL = Selection(doc_types=("acord_125", "sov"), formats=("pdf",))


def small_run(
    out: Path,
    profile: str = "typical",
    cite: str | None = "box",
    seed: int = 1,
    packet: Path = PACKET,
    selection: Selection = SMALL,
) -> Path:
    """A sim run of `selection`'s documents of `packet` (SMALL of the canonical N1 packet)
    into `out`, scored and loaded into its results database."""
    options = HarnessOptions(selection=selection)
    extract(SimProvider(profile, seed, cite=cite), packet, out, options=options)
    score_run(out, packet)
    load_run(out, packet)
    return out
