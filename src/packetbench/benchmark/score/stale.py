"""Where a document's superseded versions stated something else: the `stale` lookup.

A packet may hold last year's statement of values beside this year's, or a loss run at an
earlier valuation date beside the current one (packet_truth `superseded_by`). A claim on a
current document is `stale` when it equals what a superseded version of that document holds at
the same place and not the truth. "The same place" is found the way extractions are aligned:
records by their key (a building by location and building number, a claim by its number),
then by field agreement, so an earlier version listing records in another order or without
some still lines up. Every current document of the superseded one's type counts (last year's
SOV predates the SOV workbook as much as the SOV PDF it names). The scorer and the simulator
both use this one lookup, so the verdicts the simulator plans are the ones scored.
"""

from __future__ import annotations

from typing import Any

from packetbench.benchmark.score.align import align
from packetbench.core.leaves import DocModel, LeafShape, ListShape, ObjectShape, fields_of
from packetbench.truth import namespaces
from packetbench.truth.packets import DocInfo, Packet, PacketFiles


def aligned_values(
    model: type[DocModel],
    current: Any,
    older: Any,
    prefix: str = "",
) -> dict[str, Any]:
    """Path in `current` -> the non-null value `older` holds at the aligned place."""
    found: dict[str, Any] = {}
    if not isinstance(older, dict):
        return found
    current = current if isinstance(current, dict) else {}
    for name, shape in fields_of(model):
        where = f"{prefix}.{name}" if prefix else name
        new, old = current.get(name), older.get(name)
        if isinstance(shape, LeafShape):
            if old is not None:
                found[where] = old
        elif isinstance(shape, ObjectShape):
            found.update(aligned_values(shape.model, new, old, where))
        elif isinstance(shape, ListShape):
            new_items = new if isinstance(new, list) else []
            old_items = old if isinstance(old, list) else []
            for t_index, o_index in align(shape.item.model, new_items, old_items).pairs:
                found.update(
                    aligned_values(
                        shape.item.model,
                        new_items[t_index],
                        old_items[o_index],
                        f"{where}[{t_index}]",
                    )
                )
    return found


def stale_values(
    packet: Packet,
    doc: DocInfo,
    model: type[DocModel],
    truth: dict[str, Any],
    files: PacketFiles | None = None,
) -> dict[str, Any]:
    """Path of `doc`'s truth -> a superseded version's differing value there (the first
    superseded version in packet order wins where several differ)."""
    if doc.superseded_by:
        return {}  # an old version is scored against what it shows, nothing older
    found: dict[str, Any] = {}
    for old in packet.documents:
        if not old.superseded_by or old.schema != doc.schema:
            continue
        shown = files.truth(old.doc_id) if files is not None else packet.truth(old.doc_id)
        older = namespaces.resolve(old.schema, packet.path).project(shown)
        for path, value in aligned_values(model, truth, older).items():
            found.setdefault(path, value)
    return found
