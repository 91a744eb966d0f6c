"""The tier's cap on documents (generator.composition): packets stay within docs/design.md §3's
counts, every carried type keeps a format, earlier versions keep their current document, and
a user's own list of documents is rendered whole."""

from __future__ import annotations

import random

import pytest

from packetbench.generator.composition import trim
from packetbench.generator.doctypes.base import compose
from packetbench.generator.packet import packet_id, sub_seed
from packetbench.generator.patterns import packet as packet_patterns
from packetbench.generator.tiers import resolve
from packetbench.generator.world.build import build_world
from tests.support.paths import TIERS
from tests.support.sweep import seeds

SEEDS = seeds(30)
# Documents per packet, earlier versions included (the targets the reference packets set).
BOUNDS = {"N1": (24, 28), "N2": (24, 28), "N3": (28, 32), "N4": (32, 36), "N5": (30, 36)}


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_packets_carry_the_tiers_documents(tier: str) -> None:
    knobs = resolve(tier)
    low, high = BOUNDS[tier]
    for seed in SEEDS:
        world = build_world(seed, knobs)
        wanted = compose(world, knobs["documents"])
        planned = packet_patterns.packet_docs(world, wanted, knobs, packet_id(tier, seed))
        kept = trim(planned, knobs["documents.max"], random.Random(sub_seed(seed, "composition")))
        assert low <= len(kept) <= high, (tier, seed, len(kept))
        # Formats go, types never; nor a document an earlier version points at.
        assert {t.name for t, _ in wanted} == {p.doc_type.name for p in kept}
        ids = {p.doc_id for p in kept}
        assert all(p.superseded_by in ids for p in kept if p.superseded_by)
        assert [p.doc_id for p in kept] == [p.doc_id for p in planned if p.doc_id in ids]


def test_trim_is_seeded_and_a_cap_of_zero_keeps_everything() -> None:
    knobs = resolve("N5")
    world = build_world(3, knobs)
    planned = packet_patterns.packet_docs(
        world, compose(world, knobs["documents"]), knobs, packet_id("N5", 3)
    )
    first = [p.doc_id for p in trim(planned, 34, random.Random(1))]
    assert first == [p.doc_id for p in trim(planned, 34, random.Random(1))]
    assert len(first) == 34 < len(planned)
    assert trim(planned, 0, random.Random(1)) == planned


def test_a_users_documents_are_not_capped() -> None:
    assert resolve("N5")["documents.max"] == 36
    assert resolve("N5", {"documents": ("sov_pdf", "sov_excel")})["documents.max"] == 0
    assert resolve("N5", {"documents": ("sov_pdf",), "documents.max": 1})["documents.max"] == 1
