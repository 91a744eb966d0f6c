"""Render one document of the issue-14 types in a packet, read every located value back,
validate its truth under the strict schema and compare it with the model the builder makes."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from packetbench.core.leaves import DocModel, iter_leaves
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.readback import check_document


@dataclass(frozen=True)
class Rendered:
    fields: dict[str, dict[str, Any]]  # field_truth entries by path
    truth: dict[str, Any]
    doc: DocModel  # the model the builder makes from the packet's world
    world: World
    pages: int
    universe: list[dict[str, Any]]


def render(
    doc_type: str, tier: str, seed: int, folder: Path, companions: tuple[str, ...] = ()
) -> Rendered:
    """Render `doc_type` (beside `companions`, doc ids) in packet (tier, seed) without
    patterns; every non-null leaf is located, reads back, and the truth is the whole model."""
    kind = DOC_TYPES[doc_type]
    doc_id = kind.variants[0].doc_id
    knobs = plain(tier, {"documents": (doc_id, *companions)})
    built = build_packet(tier, seed, knobs)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in built.files.items():
        (folder / name).write_bytes(data)
    checked, bad = check_document(folder, doc_id)
    assert bad == [], f"{doc_id}: {bad[:3]}"
    fields = json.loads((folder / f"field_truth_{doc_id}.json").read_text())["fields"]
    truth = json.loads((folder / f"document_truth_{doc_id}.json").read_text())["truth"]
    jsonschema.Draft202012Validator(document_schema(doc_type, kind.model)).validate(truth)
    packet = json.loads(built.files["packet_truth.json"])
    world = World.model_validate(packet["world"])
    expected = kind.build(world, random.Random(sub_seed(seed, doc_type)), packet["knobs"])
    assert truth == expected.model_dump(mode="json")  # nothing omitted
    non_null = [path for path, value, _ in iter_leaves(expected) if value is not None]
    assert [f["path"] for f in fields] == non_null
    assert checked >= len(non_null)
    universe = json.loads((folder / f"rendered_universe_{doc_id}.json").read_text())["strings"]
    return Rendered(
        {f["path"]: f for f in fields}, truth, expected, world, built.pages[doc_id], universe
    )
