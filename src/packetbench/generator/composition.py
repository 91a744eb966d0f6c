"""How many documents a packet carries: the tier's cap on documents (``documents.max``).

A packet carries every document type of its lines, in every format the type has; at the
upper tiers that, with the earlier versions packet patterns add (superseded, duplicate),
exceeds what the reference packets carry (docs/design.md §3: N4 32-36, N5 30-36 documents). The cap
is met by leaving out formats, never types: while the packet has more documents than the cap,
one format of a type that still has another is left out, chosen by a stream of the packet's
own. Never left out: a type's last format, a document an earlier version points at (or that
earlier version); a document a packet pattern gives a view (a trap) only when no other
format can go. A packet whose documents cannot be brought under the cap that way keeps the
rest.
"""

from __future__ import annotations

import random
from collections import Counter

from packetbench.generator.patterns.packet import PacketDoc


def trim(planned: list[PacketDoc], cap: int, rng: random.Random) -> list[PacketDoc]:
    """`planned` without the formats the cap leaves out (order kept); cap 0: no cap."""
    kept = list(planned)
    if cap <= 0 or len(kept) <= cap:
        return kept
    pinned = {p.superseded_by for p in kept if p.superseded_by is not None}
    formats = Counter(p.doc_type.name for p in kept if p.superseded_by is None)
    candidates = [
        p
        for p in kept
        if p.superseded_by is None and p.doc_id not in pinned and formats[p.doc_type.name] > 1
    ]
    rng.shuffle(candidates)
    # Documents without a trap first, in the drawn order.
    candidates.sort(key=lambda p: bool(p.views))
    for candidate in candidates:
        if len(kept) <= cap:
            break
        if formats[candidate.doc_type.name] > 1:
            kept.remove(candidate)
            formats[candidate.doc_type.name] -= 1
    return kept
