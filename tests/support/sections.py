"""Shared checks of the ACORD-style line sections: render one document, read every located
value back from the PDF, validate its truth against its strict schema, and find seeds whose
world carries a document that only some worlds carry."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pydantic
import pytest

from packetbench.core.leaves import DocModel, iter_leaves
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import width

# Every line, so a section can be tested at any tier's table sizes.
ALL_LINES: dict[str, object] = {"lines": ("property", "gl", "auto", "wc", "umbrella", "cargo")}


@dataclass(frozen=True)
class Case:
    world: World
    doc: DocModel
    knobs: dict[str, Any]


@cache
def cases(doc_type: str, tier: str, seeds: int, lines: bool = True) -> tuple[Case, ...]:
    """(world, built document, knobs) for the first `seeds` worlds of `tier` that carry the
    type, built as a packet builds them."""
    seeds = width(seeds)
    knobs = plain(tier, ALL_LINES if lines else None)
    kind = DOC_TYPES[doc_type]
    out: list[Case] = []
    seed = 0
    while len(out) < seeds:
        seed += 1
        world = build_world(seed, knobs)
        if kind.carried_by(world):
            doc = kind.build(world, random.Random(sub_seed(seed, doc_type)), knobs)
            out.append(Case(world, doc, knobs))
    return tuple(out)


def first_seed(tier: str, carried: Callable[[World], bool], overrides: dict[str, object]) -> int:
    knobs = plain(tier, overrides)
    return next(s for s in range(1, 500) if carried(build_world(s, knobs)))


def check_rendered(
    doc_type: str, tier: str, tmp_path: Path, overrides: dict[str, object] | None = None
) -> dict[str, Any]:
    """Render the type alone in the first world of `tier` that carries it; every non-null
    leaf is located and reads back, the truth is the whole model and valid under the
    strict schema. Returns the field_truth entries by path."""
    overrides = {**ALL_LINES, **(overrides or {})}
    kind = DOC_TYPES[doc_type]
    seed = first_seed(tier, kind.carried_by, overrides)
    doc_id = kind.variants[0].doc_id
    knobs = plain(tier, {**overrides, "documents": (doc_id,)})
    built = build_packet(tier, seed, knobs)
    for name, data in built.files.items():
        (tmp_path / name).write_bytes(data)
    checked, bad = check_document(tmp_path, doc_id)
    assert bad == [], f"{doc_id}: {bad[:3]}"
    fields = json.loads((tmp_path / f"field_truth_{doc_id}.json").read_text())["fields"]
    truth = json.loads((tmp_path / f"document_truth_{doc_id}.json").read_text())["truth"]
    jsonschema.Draft202012Validator(document_schema(doc_type, kind.model)).validate(truth)
    world = World.model_validate(json.loads(built.files["packet_truth.json"])["world"])
    expected = kind.build(
        world, random.Random(sub_seed(seed, doc_type)), {**knobs, "documents": [doc_id]}
    )
    assert truth == expected.model_dump(mode="json")  # nothing omitted
    non_null = [path for path, value, _ in iter_leaves(expected) if value is not None]
    assert [f["path"] for f in fields] == non_null
    assert checked >= len(non_null)
    # The policy identification repeats on every page.
    pages = built.pages[doc_id]
    number = next(f for f in fields if f["path"] == "header.policy_number")
    assert sorted({loc["page"] for loc in number["locations"]}) == list(range(1, pages + 1))
    return {f["path"]: f for f in fields}


def check_codes(doc: DocModel) -> None:
    """The model round-trips through validation, enums inside their code lists, and a value
    outside a code list is rejected."""
    data = doc.model_dump(mode="json")
    assert type(doc).model_validate(data).model_dump(mode="json") == data
    enums = []
    for where, value, leaf in iter_leaves(doc):
        if leaf.codes is not None and value is not None:
            assert value in leaf.codes.values, where
            enums.append((where, leaf))
    path = next((p for p, leaf in enums if leaf.kind == "enum"), enums[0][0])
    broken = json.loads(json.dumps(data))
    node: Any = broken
    parts = path.replace("]", "").replace("[", ".").split(".")
    for part in parts[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    node[parts[-1]] = "Not A Code"
    with pytest.raises(pydantic.ValidationError):
        type(doc).model_validate(broken)
